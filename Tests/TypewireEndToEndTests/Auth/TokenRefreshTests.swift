import Foundation
import Testing
import TypewireCore
import TypewireTesting

/// `refresh` over real sockets: a fresh token for the same user moves the socket's expiry and touches
/// nothing else; one for another user closes the socket. That the old token's expiry no longer closes a
/// refreshed socket is shown with the loop's time in `SocketHandlerTests`.
@Suite("Token refresh over a real socket", .timeLimit(.minutes(1)))
struct TokenRefreshTests {
    static let direct = "direct-alice-bob"

    @Test func aRefreshIsAnsweredWithTheNewExpiryAndTheSocketGoesOnAsItWas() async throws {
        try await TestServer.run { server in
            let bob = try await server.subscribedSocket("bob", to: Self.direct)
            let alice = try await TestSocket.connect(port: server.port, token: try await server.token("alice", lifetime: .seconds(60)))
            alice.send(.subscribe(.init(conversation: Self.direct)))
            try await alice.next { if case .subscribed = $0 { true } else { false } }
            let asked = Date()
            alice.send(.refresh(.init(token: try await server.token("alice", lifetime: .seconds(3_600)))))
            let answer = try await alice.next { if case .refreshed = $0 { true } else { false } }
            guard case .refreshed(let refreshed) = answer else { return }
            let expected = (asked.timeIntervalSince1970 + 3_600) * 1_000
            #expect(abs(Double(refreshed.expiresAt) - expected) < 10_000, "the new token's expiry: \(refreshed.expiresAt)")
            alice.send(.activity(.init(conversation: Self.direct, activity: .typing)))
            try await bob.activity(in: Self.direct) { $0.contains { $0.user == "alice" } }
            let offline = await bob.received.filter { $0.contains(#""type":"presence""#) && $0.contains(#""online":false"#) }
            #expect(offline.isEmpty, "Alice never went offline for Bob: \(offline)")
        }
    }

    @Test func aTokenForAnotherUserIsRefusedAndClosesTheSocketWith1008() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            alice.send(.refresh(.init(token: try await server.token("bob"))))
            let refusal = try await alice.error()
            #expect(refusal.code == .unauthorized && refusal.request == "refresh", "\(refusal)")
            try await eventually { await alice.isClosed }
            #expect(await alice.closeCode == .policyViolation)
        }
    }
}
