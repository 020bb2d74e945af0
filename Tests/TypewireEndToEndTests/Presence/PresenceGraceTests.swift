import Foundation
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

/// A socket that goes away (1001: the SDK's app went to the background) keeps its user online for the
/// presence grace: a quick switch back shows others nothing, a push for a message meanwhile still counts the
/// user offline, and past the grace they go offline.
@Suite("typewire serve: the presence grace of a socket that goes away", .timeLimit(.minutes(1)))
struct PresenceGraceTests {
    static let direct = "direct-alice-bob"
    static let secret = "webhook-test-secret-0123456789abcdef"

    @Test func aQuickSwitchBackShowsOthersNothingAndAPushMeanwhileCountsTheUserOffline() async throws {
        let receiver = WebhookReceiver()
        try await receiver.serve { url in
            try await TestServer.run(configure: {
                $0.sockets.presenceGrace = .seconds(60)  // longer than the test: only her socket coming back ends it
                $0.webhooks.endpoints = [url]
                $0.webhooks.secret = Self.secret
                $0.webhooks.pollInterval = .milliseconds(200)
            }) { server in
                let bob = try await server.socket("bob")
                bob.send(.subscribe(.init(conversation: Self.direct)))
                _ = try await bob.next { if case .subscribed = $0 { true } else { false } }
                var alice = try await server.socket("alice")
                _ = try await bob.next { if case .presence(let p) = $0 { p.user == "alice" && p.online } else { false } }
                let since = await bob.received.count
                await alice.goAway()
                try await eventually { try await server.metric("typewire_connections") == 1 }  // the server forgot her socket
                bob.send(.send(.init(conversation: Self.direct, clientMessageId: "m1", text: "While you were away")))
                let created = try await receiver.event("message.created") {
                    ($0.data["message"] as? [String: Any])?["text"] as? String == "While you were away"
                }
                #expect(created.data["offline"] as? [String] == ["alice"], "a push must not wait for the grace")
                alice = try await server.socket("alice")
                bob.send(.send(.init(conversation: Self.direct, clientMessageId: "m2", text: "Welcome back")))
                _ = try await bob.next(since: since) { if case .message(let m) = $0 { m.text == "Welcome back" } else { false } }
                let presence = await bob.received.dropFirst(since).filter { $0.contains(#""type":"presence""#) }
                #expect(presence.isEmpty, "bob saw her go and come back: \(presence)")
                #expect(!receiver.takenEvents.contains { $0.type == "presence.changed" && $0.data["online"] as? Bool == false })
                alice.close()
            }
        }
    }

    @Test func pastTheGraceTheUserGoesOfflineAndASocketClosedNormallyGoesAtOnce() async throws {
        let grace = Duration.seconds(3)
        try await TestServer.run(configure: { $0.sockets.presenceGrace = grace }) { server in
            let bob = try await server.socket("bob")
            bob.send(.subscribe(.init(conversation: Self.direct)))
            _ = try await bob.next { if case .subscribed = $0 { true } else { false } }
            let alice = try await server.socket("alice")
            _ = try await bob.next { if case .presence(let p) = $0 { p.user == "alice" && p.online } else { false } }
            let left = ContinuousClock.now
            await alice.goAway()
            _ = try await bob.next { if case .presence(let p) = $0 { p.user == "alice" && !p.online } else { false } }
            let shownOnline = left.duration(to: .now)
            #expect(shownOnline >= grace - .milliseconds(500), "offline after \(shownOnline), before the grace ran out")
            let again = try await server.socket("alice")
            _ = try await bob.next { if case .presence(let p) = $0 { p.user == "alice" && p.online } else { false } }
            let closed = ContinuousClock.now
            again.close()  // 1000: the app meant to leave
            _ = try await bob.next { if case .presence(let p) = $0 { p.user == "alice" && !p.online } else { false } }
            #expect(closed.duration(to: .now) < grace, "a normal close is not held")
        }
    }
}
