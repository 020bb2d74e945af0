import Foundation
import NIOCore
import NIOPosix
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

/// Claims of docs/PROTOCOL.md that no other test made: each one against a real server.
@Suite("typewire serve: what docs/PROTOCOL.md says, checked", .timeLimit(.minutes(1)))
struct ProtocolClaimsTests {
    @Test func aSecondHelloIsAnsweredInvalidFieldAndTheSocketStays() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            alice.send(.hello(.init(token: try await server.token("alice"))))
            let answer = try await alice.error()
            #expect(answer.code == .invalidField && answer.ref == "hello")
            alice.send(.subscribe(.init(conversation: "direct-alice-bob")))
            try await alice.next { if case .subscribed = $0 { true } else { false } }
        }
    }

    /// The release, in one place: `typewire --version`, `/healthz` and `welcome` say the same.
    @Test func theVersionIsTheSameOnTheCommandLineOnHealthzAndInWelcome() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            let welcome = try #require(await alice.received.first.map { try FrameCodec.decodeServerFrame(Data($0.utf8)) })
            guard case .welcome(let frame) = welcome else {
                Issue.record("the first frame is \(welcome)")
                return
            }
            #expect(frame.config.serverVersion == TypewireVersion.current)
            let health = try await server.requestWithHeaders("GET", "/healthz", as: "alice")
            #expect(health.body == "ok" && health.headers["Typewire-Version"] as? String == TypewireVersion.current)
        }
        let command = Process()
        command.executableURL = ServerProcess.executable
        command.arguments = ["--version"]
        let output = Pipe()
        command.standardOutput = output
        try command.run()
        command.waitUntilExit()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == TypewireVersion.current)
    }

    @Test func aPathThatIsNotPercentEncodingIsAnswered400() async throws {
        try await TestServer.run { server in
            // Percent-encoding of bytes that are not UTF-8 (Foundation's URL would re-encode a malformed "%ZZ").
            let answer = try await server.request("PUT", "/v1/blocks/%E0%A4", as: "alice")
            #expect(answer.status == 400 && answer.body.contains("percent-encoding"), "\(answer.status) \(answer.body)")
        }
    }

    @Test func aRequestPastTheBudgetIsAnswered429WithRetryAfter() async throws {
        try await TestServer.run(configure: {
            $0.http.requestsPerUser.burst = 3
            $0.http.requestsPerUser.rate = 0.001
        }) { server in
            for _ in 0..<3 { #expect(try await server.request("GET", "/v1/settings", as: "alice").status == 200) }
            let refused = try await server.requestWithHeaders("GET", "/v1/settings", as: "alice")
            #expect(refused.status == 429)
            #expect(refused.headers.first { "\($0.key)".lowercased() == "retry-after" }.map { "\($0.value)" } == "1")
        }
    }

    @Test func aReplyLongerThanAMessageIsRefusedTooLarge() async throws {
        try await TestServer.run(configure: { $0.messages.maxLength = 10 }) { server in
            let clawd = try await server.socket("clawd")
            clawd.send(.stream(.init(conversation: "bot-clawd", messageId: "r1", delta: "123456")))
            clawd.send(.stream(.init(conversation: "bot-clawd", messageId: "r1", delta: "7890ab")))
            let refused = try await clawd.error()
            #expect(refused.code == .tooLarge && refused.ref == "r1", "\(refused)")
        }
    }

    @Test func anHTTPConnectionIdleBetweenRequestsIsClosed() async throws {
        try await TestServer.run(configure: { $0.http.idleTimeout = .milliseconds(500) }) { server in
            let connection = try Socket.connect(port: server.port)
            defer { connection.close() }
            try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = try connection.readUntilClosed(within: .seconds(20))
            #expect(answer.hasPrefix("HTTP/1.1 200"), "answered, then kept alive")
            #expect(connection.closedAfter < .seconds(10), "closed by the idle timeout (500 ms), not by the test's bound")
        }
    }
}

/// A blocking TCP socket, for an HTTP exchange the test reads to the end.
private final class Socket {
    private let descriptor: Int32
    private let opened = ContinuousClock.now
    private(set) var closedAfter: Duration = .zero

    private init(descriptor: Int32) { self.descriptor = descriptor }

    static func connect(port: Int) throws -> Socket {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
        return Socket(descriptor: descriptor)
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(descriptor, bytes, bytes.count, 0) == bytes.count else { throw POSIXError(.EIO) }
    }

    /// Everything the server sends until it closes the connection.
    func readUntilClosed(within timeout: Duration) throws -> String {
        var timeval = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        closedAfter = ContinuousClock.now - opened
        return String(decoding: received, as: UTF8.self)
    }

    func close() { Glibc.close(descriptor) }
}
