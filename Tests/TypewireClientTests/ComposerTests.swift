import Foundation
import Testing
import TypewireCore
import TypewireTesting
@testable import TypewireClient

/// The composer against a real server: what a text field's events look like to the other member.
@Suite("Composer against a real server", .timeLimit(.minutes(1)))
struct ComposerTests: ClientTesting {
    @Test func typingShowsAtOnceAndSendingClearsIt() async throws {
        try await TestServer.run { server in
            try await withChats(["alice", "bob"], of: server) { _, chats in
                let (aliceChat, bobChat) = (chats[0], chats[1])
                let composer = await aliceChat.composer()
                composer.textDidChange("H")
                composer.textDidChange("He")
                _ = try await first(bobChat.typing, within: .seconds(1)) { $0.text == "Alice is typing…" }
                let id = try await composer.send("Hello")
                _ = try await first(bobChat.typing) { $0 == .idle }
                let message = try await first(bobChat.messages) { $0.id == id }
                #expect(message.text == "Hello")
            }
        }
    }

    @Test func refreshesKeepTypingAliveLongerThanTheTTL() async throws {
        // A ttl of 1.5 s: without the composer's refresh every 300 ms, Bob would lose Alice after 1.5 s.
        // Alice keeps typing (an idle timeout of a minute) until the server has had 8 refreshes, over two ttls.
        try await TestServer.run(configure: { $0.activityTTL = 1_500 }) { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let (alice, aliceChat, bobChat) = (clients[0], chats[0], chats[1])
                let composer = await aliceChat.composer(configuration: .init(refreshInterval: .milliseconds(300), idleTimeout: .seconds(60)))
                composer.textDidChange("a")
                _ = try await first(bobChat.typing) { $0.text != nil }
                let shown = try await staysShownUntilStopped(
                    bobChat.typing, untilTheServerReceives: 8, moreFramesOf: "activity", on: server
                ) { composer.didClear() }
                #expect(shown, "Bob's indicator dropped while Alice was typing")
                try await waitUntil(alice) { $0.liveCounts.composerTimers == 0 }
            }
        }
    }

    @Test func theIdleStopClearsTypingAfterTheLastKey() async throws {
        // An idle timeout of 1 s and a ttl of a minute: what clears Bob's indicator is Alice's idle stop.
        try await TestServer.run(configure: { $0.activityTTL = 60_000 }) { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let (alice, aliceChat, bobChat) = (clients[0], chats[0], chats[1])
                let composer = await aliceChat.composer(configuration: .init(refreshInterval: .milliseconds(300), idleTimeout: .seconds(1)))
                let lastKey = ContinuousClock.now
                composer.textDidChange("a")
                _ = try await first(bobChat.typing) { $0.text != nil }
                _ = try await first(bobChat.typing) { $0 == .idle }
                let elapsed = ContinuousClock.now - lastKey
                #expect(elapsed >= .seconds(1), "cleared \(elapsed) after the last key: before the idle timeout")
                try await waitUntil(alice) { $0.liveCounts.composerTimers == 0 }
            }
        }
    }

    @Test func clearingTheInputLeavingAndGoingToTheBackgroundStopAtOnce() async throws {
        try await TestServer.run(configure: { $0.activityTTL = 60_000 }) { server in
            try await withChats(["alice", "bob"], of: server) { _, chats in
                let (aliceChat, bobChat) = (chats[0], chats[1])
                let composer = await aliceChat.composer(configuration: .init(idleTimeout: .seconds(60)))
                let stops: [(String, @Sendable () -> Void)] = [
                    ("whitespace only", { composer.textDidChange("   ") }),
                    ("cleared", { composer.didClear() }),
                    ("left", { composer.didLeave() }),
                    ("background", { composer.didEnterBackground() }),
                ]
                for (name, stop) in stops {
                    composer.textDidChange("draft")
                    _ = try await first(bobChat.typing) { $0.text != nil }
                    stop()
                    // The idle timeout and the ttl are a minute: a clear within the wait is the stop itself.
                    let cleared = try? await first(bobChat.typing) { $0 == .idle }
                    #expect(cleared != nil, "\(name) did not stop typing")
                }
            }
        }
    }

    @Test func typingGoingOnDuringAServerRestartIsAnnouncedAgain() async throws {
        var chats: [ConversationHandle] = []
        var composer: Composer?
        try await acrossARestart(["alice", "bob"]) { clients in
            for client in clients { chats.append(await client.conversation(Self.direct)) }
            composer = await chats[0].composer(configuration: .init(refreshInterval: .seconds(2), idleTimeout: .seconds(20)))
            composer!.textDidChange("typed while the server was down")
        } afterRestart: { _, _ in
            // No keystroke after the reconnect: the composer announces the typing still going on.
            let seen = try await first(chats[1].typing, within: .seconds(5)) { $0.text != nil }
            #expect(seen.text == "Alice is typing…")
            composer!.end()
            _ = try await first(chats[1].typing) { $0 == .idle }
        }
    }
}
