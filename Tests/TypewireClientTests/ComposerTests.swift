import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireClient

/// The composer against a real server: what a text field's events look like to the other member.
@Suite("Composer against a real server", .timeLimit(.minutes(1)))
struct ComposerTests: ClientTesting {
    @Test func typingShowsAtOnceAndSendingClearsIt() async throws {
        // A ttl and an idle timeout of a minute: what clears Alice's typing is the send, not expiry or idling.
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            try await withChats(["alice", "bob"], of: server) { _, chats in
                let (aliceChat, bobChat) = (chats[0], chats[1])
                let composer = await aliceChat.composer(configuration: .init(idleTimeout: .seconds(60)))
                composer.textDidChange("H")
                composer.textDidChange("He")
                // "At once": the start leaves with the first keystroke; 5 s is a liveness bound for a loaded machine.
                _ = try await first(bobChat.typing, within: .seconds(5)) { $0.text == "Alice is typing…" }
                let id = try await composer.send("Hello")
                _ = try await first(bobChat.typing) { $0 == .idle }
                let message = try await first(bobChat.messages) { $0.id == id }
                #expect(message.text == "Hello")
            }
        }
    }

    /// The sender's throttle end to end: 20 keys a second for 3 s reach the server as a start and a refresh
    /// every 2 s, not a frame per key (the server's `/metrics` counts what arrived).
    @Test func typingFastSendsAStartAndARefreshEveryTwoSecondsNotAFramePerKey() async throws {
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            try await withChats(["alice"], of: server) { _, chats in
                let composer = await chats[0].composer(configuration: .init(refreshInterval: .seconds(2), idleTimeout: .seconds(60)))
                let before = try await framesReceived("activity", on: server)
                let started = ContinuousClock.now
                var text = ""
                for _ in 0..<60 {
                    text += "a"
                    composer.textDidChange(text)
                    try await Task.sleep(for: .milliseconds(50))
                }
                composer.didClear()  // the stop: nothing is sent after it
                let typed = started.duration(to: .now)
                // The start, at least the refresh at 2 s, and the stop.
                try await eventually { try await framesReceived("activity", on: server) >= before + 3 }
                let sent = try await framesReceived("activity", on: server) - before
                let mostRefreshes = Int(typed / .seconds(2))
                #expect(sent <= 2 + mostRefreshes, "\(sent) activity frames for 60 keys in \(typed)")
            }
        }
    }

    @Test func refreshesKeepTypingAliveLongerThanTheTTL() async throws {
        // A ttl of 3 s: without the composer's refresh every 300 ms, Bob would lose Alice after 3 s (a refresh
        // may come 2.7 s late on a loaded machine). Alice keeps typing (an idle timeout of a minute) until the
        // server has had 21 refreshes, over two ttls.
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(3) }) { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let (alice, aliceChat, bobChat) = (clients[0], chats[0], chats[1])
                let composer = await aliceChat.composer(
                    configuration: .init(refreshInterval: .milliseconds(300), idleTimeout: .seconds(60)))
                composer.textDidChange("a")
                _ = try await first(bobChat.typing) { $0.text != nil }
                let shown = try await staysShownUntilStopped(
                    bobChat.typing, untilTheServerReceives: 21, moreFramesOf: "activity", on: server
                ) { composer.didClear() }
                #expect(shown, "Bob's indicator dropped while Alice was typing")
                try await waitUntil(alice) { $0.liveCounts.composerTimers == 0 }
            }
        }
    }

    @Test func theIdleStopClearsTypingAfterTheLastKey() async throws {
        // An idle timeout of 3 s and a ttl of a minute: what clears Bob's indicator is Alice's idle stop. (Bob's
        // stream keeps the newest state: the timeout leaves a loaded machine time to show him the typing first.)
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let (alice, aliceChat, bobChat) = (clients[0], chats[0], chats[1])
                let composer = await aliceChat.composer(configuration: .init(refreshInterval: .milliseconds(300), idleTimeout: .seconds(3)))
                let lastKey = ContinuousClock.now
                composer.textDidChange("a")
                _ = try await first(bobChat.typing) { $0.text != nil }
                _ = try await first(bobChat.typing) { $0 == .idle }
                let elapsed = ContinuousClock.now - lastKey
                #expect(elapsed >= .seconds(3), "cleared \(elapsed) after the last key: before the idle timeout")
                try await waitUntil(alice) { $0.liveCounts.composerTimers == 0 }
            }
        }
    }

    @Test func clearingTheInputLeavingAndGoingToTheBackgroundStopAtOnce() async throws {
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
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

    @Test func aScreenClosingWhileAnotherHandleFollowsTheConversationStopsItsTyping() async throws {
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let (list, bobChat) = (chats[0], chats[1])  // Alice's list screen keeps the conversation open
                for round in 0..<20 {
                    let screen = await clients[0].conversation(Self.direct)
                    let composer = await screen.composer(configuration: .init(idleTimeout: .seconds(60)))
                    composer.textDidChange("draft \(round)")
                    _ = try await first(bobChat.typing) { $0.text != nil }
                    await screen.close()  // its composer's stop is on the lane as the handle closes
                    // The idle timeout and the ttl are a minute: a clear within the wait is the stop itself.
                    let cleared = try? await first(bobChat.typing) { $0 == .idle }
                    #expect(cleared != nil, "round \(round): Alice's typing stayed after her screen closed")
                }
                _ = list
            }
        }
    }

    @Test func aHandleReleasedWithoutClosingClosesItself() async throws {
        try await TestServer.run { server in
            try await withClients(["alice"], of: server) { clients in
                _ = try await openChat(clients[0])
                try await waitUntil(clients[0]) { $0.liveCounts == LiveCounts() }
            }
        }
    }

    /// The client keeps the composers of each view; a composer that kept its handle made a cycle, and a
    /// handle released with a composer never closed (before: the test timed out with the view still open).
    @Test func aHandleWithAComposerReleasedWithoutClosingClosesItself() async throws {
        try await TestServer.run { server in
            try await withClients(["alice"], of: server) { clients in
                let composer = try await openChat(clients[0]).composer()
                composer.textDidChange("typing, then the screen goes")
                try await waitUntil(clients[0]) { $0.liveCounts == LiveCounts() }
                #expect(!composer.hasTimer, "the composer ended with its view")
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

/// The composer's frames and the message it sends share one ordered lane.
@Suite("Composer: typing never overtakes the message", .timeLimit(.minutes(2)))
struct ComposerOrderTests: ClientTesting {
    @Test func typeAndSendAtOnceAThousandTimesAndTheReceiverNeverSeesTypingAfterTheMessage() async throws {
        let rounds = 1_000
        try await TestServer.run(configure: {
            // Budgets wide enough for one socket to type and send a thousand times in a few seconds.
            $0.budgets.messages.rate = 100_000
            $0.budgets.messages.burst = 100_000
            $0.budgets.activity.rate = 100_000
            $0.budgets.activity.burst = 100_000
            $0.budgets.frames.rate = 100_000
            $0.budgets.frames.burst = 100_000
        }) { server in
            let bob = FrameRecorder(url: server.socketURL, token: try await server.token("bob"), conversation: Self.direct)
            defer { bob.close() }
            try await eventually { await bob.received.contains { if case .subscribed = $0 { true } else { false } } }
            try await withChats(["alice"], of: server) { _, chats in
                let composer = await chats[0].composer()
                for round in 1...rounds {
                    composer.textDidChange("round \(round)")
                    try await composer.send("round \(round)")
                }
                // A last step on the same lane marks the end: nothing of Alice's may come between her last
                // message and it.
                await chats[0].setActivity(.recordingAudio)
                try await eventually(within: .seconds(60)) {
                    await bob.received.contains {
                        if case .activity(let update) = $0 { update.entries.contains { $0.activity == .recordingAudio } } else { false }
                    }
                }
            }
            // Before the k-th message Bob must have seen Alice start typing k times (each round's typing
            // frame arrives, and is cleared by that round's send, before that round's message).
            var startsSeen = 0
            var aliceTyping = false
            var messages = 0
            for frame in await bob.received {
                switch frame {
                case .activity(let update):
                    let typing = update.entries.contains { $0.user == "alice" && $0.activity == .typing }
                    if typing, !aliceTyping { startsSeen += 1 }
                    aliceTyping = typing
                case .message(let message) where message.sender == "alice":
                    messages += 1
                    #expect(
                        startsSeen == messages && !aliceTyping,
                        "message \(messages): typing started \(startsSeen) times before it, typing now: \(aliceTyping)")
                    if startsSeen != messages || aliceTyping { return }
                default:
                    break
                }
            }
            #expect(messages == rounds)
            #expect(startsSeen == rounds, "no typing shown after the last message")
        }
    }
}
