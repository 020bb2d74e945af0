import Crypto
import Foundation
import Testing

@testable import TypewireServer

// The Swift check docs/PROTOCOL.md gives a backend, verbatim (a test below holds the docs to this text).
// BEGIN documented check
func isTypewire(body: Data, header: String, secret: String, now: Date = Date()) -> Bool {
    let fields = Dictionary(
        header.split(separator: ",").compactMap { field -> (String, String)? in
            let parts = field.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { first, _ in first })
    guard let time = fields["t"], let timestamp = TimeInterval(time), abs(now.timeIntervalSince1970 - timestamp) <= 300,
        let hex = fields["v1"], hex.count == 64
    else { return false }
    let given = stride(from: 0, to: 64, by: 2).compactMap { offset -> UInt8? in
        UInt8(hex.dropFirst(offset).prefix(2), radix: 16)
    }
    return HMAC<SHA256>.isValidAuthenticationCode(
        given, authenticating: Data("\(time).".utf8) + body,
        using: SymmetricKey(data: Data(secret.utf8)))
}
// END documented check

@Suite struct DocumentedSignatureCheckTests {
    static let secret = "whsec-test-0123456789abcdef0123456789"

    @Test func theDocumentedCheckTakesTheServersSignatureAndNothingElse() {
        let body = Data(#"{"id":"evt_1","type":"presence.changed"}"#.utf8)
        let now = Date()
        let header = WebhookSignature(body: body, timestamp: Int64(now.timeIntervalSince1970), secret: Self.secret).headerValue
        #expect(isTypewire(body: body, header: header, secret: Self.secret, now: now))
        #expect(!isTypewire(body: body + Data(" ".utf8), header: header, secret: Self.secret, now: now))
        #expect(!isTypewire(body: body, header: header, secret: "another-secret-0123456789abcdef0123", now: now))
        #expect(!isTypewire(body: body, header: header, secret: Self.secret, now: now.addingTimeInterval(301)))
        #expect(!isTypewire(body: body, header: "t=1,v1=zz", secret: Self.secret, now: now))
    }

    @Test func protocolMDShowsThisCheckAsItIsHere() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let start = try #require(source.range(of: "// BEGIN documented check\n"))
        let end = try #require(source.range(of: "// END documented check"))
        let check = String(source[start.upperBound..<end.lowerBound])
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/PROTOCOL.md")
        #expect(try String(contentsOf: docs, encoding: .utf8).contains(check))
    }
}
