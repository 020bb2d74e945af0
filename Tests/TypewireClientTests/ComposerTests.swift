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

    @Test func refreshesKeepTypingAliveAndTheIdleStopClearsIt() async throws {
        // A ttl of 1.5 s: without the composer's refresh every 300 ms, Bob would lose Alice after 1.5 s.
        try await TestServer.run(configure: { $0.activityTTL = 1_500 }) { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let (alice, aliceChat, bobChat) = (clients[0], chats[0], chats[1])
                let composer = await aliceChat.composer(configuration: .init(refreshInterval: .milliseconds(300), idleTimeout: .seconds(1)))
                composer.textDidChange("a")
                _ = try await first(bobChat.typing) { $0.text != nil }
                // Alice keeps typing for 2.5 s (a key every 100 ms): Bob's indicator must not drop meanwhile.
                let watcher = Task { try? await first(bobChat.typing, within: .seconds(10)) { $0 == .idle } }
                for key in 0..<25 {
                    try await Task.sleep(for: .milliseconds(100))
                    composer.textDidChange(String(repeating: "a", count: key + 2))
                }
                let stoppedTyping = ContinuousClock.now
                // She stops: the idle stop (1 s) clears it.
                let cleared = await watcher.value
                #expect(cleared == .idle)
                let elapsed = ContinuousClock.now - stoppedTyping
                #expect(elapsed >= .milliseconds(800), "the indicator stayed while Alice typed (cleared \(elapsed) after her last key)")
                #expect(elapsed < .seconds(2))
                try await waitUntil(alice) { $0.liveCounts.composerTimers == 0 }
            }
        }
    }

    @Test func clearingTheInputLeavingAndGoingToTheBackgroundStopAtOnce() async throws {
        try await TestServer.run { server in
            try await withChats(["alice", "bob"], of: server) { _, chats in
                let (aliceChat, bobChat) = (chats[0], chats[1])
                let composer = await aliceChat.composer()
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
                    // The idle timeout is 3 s: a clear within 1 s is the stop itself.
                    let cleared = try? await first(bobChat.typing, within: .seconds(1)) { $0 == .idle }
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
