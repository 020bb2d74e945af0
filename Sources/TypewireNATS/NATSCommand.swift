import Foundation
import NIOCore

/// What the client sends a NATS server, written into a buffer (the core protocol's client side).
enum NATSCommand {
    /// `CONNECT {json}`: who the client is and its credentials; `PING` follows it, so that the server's
    /// `PONG` (or `-ERR`) says whether it was accepted.
    static func writeConnect(_ options: NATSConnectOptions, into buffer: inout ByteBuffer) {
        buffer.writeString("CONNECT ")
        buffer.writeBytes((try? JSONEncoder().encode(options)) ?? Data("{}".utf8))
        buffer.writeString("\r\nPING\r\n")
    }

    /// `PUB <subject> <#bytes>\r\n<payload>\r\n`.
    static func writePublish(subject: String, payload: ByteBuffer, into buffer: inout ByteBuffer) {
        buffer.writeString("PUB \(subject) \(payload.readableBytes)\r\n")
        buffer.writeImmutableBuffer(payload)
        buffer.writeString("\r\n")
    }

    /// The bytes ``writePublish(subject:payload:into:)`` writes.
    static func publishSize(subject: String, payload: ByteBuffer) -> Int {
        subject.utf8.count + payload.readableBytes + 26  // "PUB ", " ", up to 18 digits, two CRLFs
    }

    /// `SUB <subject> <sid>\r\n`.
    static func writeSubscribe(subject: String, sid: Int, into buffer: inout ByteBuffer) {
        buffer.writeString("SUB \(subject) \(sid)\r\n")
    }

    /// `UNSUB <sid>\r\n`.
    static func writeUnsubscribe(sid: Int, into buffer: inout ByteBuffer) {
        buffer.writeString("UNSUB \(sid)\r\n")
    }

    static let ping = "PING\r\n"
    static let pong = "PONG\r\n"
}

/// The fields of `CONNECT`. Messages the client publishes are not sent back to it (`echo: false`), and
/// the server sends `INFO` again when its cluster changes (`protocol: 1`).
struct NATSConnectOptions: Encodable, Equatable {
    var verbose = false
    var pedantic = false
    var lang = "swift"
    var version = "1.0.0"
    var `protocol` = 1
    var echo = false
    var headers = false
    var name: String?
    var user: String?
    var pass: String?
    var authToken: String?

    enum CodingKeys: String, CodingKey {
        case verbose, pedantic, lang, version, `protocol`, echo, headers, name, user, pass
        case authToken = "auth_token"
    }
}

/// Subjects as the core protocol takes them: tokens of printable characters separated by dots, no blank.
public enum NATSSubject {
    /// Whether a client may publish to or subscribe to this subject (wildcards `*` and `>` allowed).
    public static func isValid(_ subject: String) -> Bool {
        guard !subject.isEmpty, subject.utf8.count <= 4_000 else { return false }
        for token in subject.split(separator: ".", omittingEmptySubsequences: false) {
            guard !token.isEmpty else { return false }
            for byte in token.utf8 where byte <= 0x20 || byte == 0x7F { return false }
        }
        return true
    }
}
