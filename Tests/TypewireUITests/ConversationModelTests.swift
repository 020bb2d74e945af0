import Foundation
import Testing
import TypewireCore
import TypewireTesting
import TypewireUI

@testable import TypewireClient

/// The observable models against a real server: what a SwiftUI screen would show.
@Suite("ConversationModel against a real server", .timeLimit(.minutes(1)))
@MainActor
struct ConversationModelTests {
    static let direct = "direct-alice-bob"

    /// Alice's and Bob's models of their direct conversation, both on screen, with their clients.
    private func withAliceAndBob(
        _ body: (_ alice: ConversationModel, _ bob: ConversationModel, _ clients: [TypewireClient]) async throws -> Void
    ) async throws {
        // A ttl and an idle timeout of a minute: what clears typing is the stop a test claims, never expiry or idling.
        try await TestServer.run(configure: {
            $0.typing.activityTTL = .seconds(60)
            $0.typing.idleTimeout = .seconds(60)
        }) { server in
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                let alice = ConversationModel(client: clients[0], conversationID: Self.direct)
                let bob = ConversationModel(client: clients[1], conversationID: Self.direct)
                await bob.appear()
                await alice.appear()
                try await body(alice, bob, clients)
                await alice.disappear()
                await bob.disappear()
            }
        }
    }

    /// Alice's model of her conversation with Clawd, on screen, and a reply Clawd has begun there (answering
    /// `asker`, if given), on a server whose stop grace and reply timeout are a minute but for what a test sets.
    private func withAliceAndABotReply(
        answering asker: String? = nil, stopGrace: Duration = .seconds(60), replyTimeout: Duration = .seconds(60),
        _ body: (_ alice: ConversationModel, _ reply: BotReply, _ clients: [TypewireClient]) async throws -> Void
    ) async throws {
        try await TestServer.run(configure: {
            $0.messages.stopGrace = stopGrace
            $0.messages.replyTimeout = replyTimeout
        }) { server in
            try await withConnectedClients(["alice", "clawd", "alice"], of: server) { clients in
                let alice = ConversationModel(client: clients[0], conversationID: "bot-clawd")
                await alice.appear()
                let chat = await clients[1].conversation("bot-clawd")
                try await body(alice, try await chat.beginReply(answering: asker), clients)
                await chat.close()
                await alice.disappear()
            }
        }
    }

    @Test func twoModelsSeeEachOtherTypeStopAndSend() async throws {
        try await withAliceAndBob { alice, bob, _ in
            try await eventually { bob.onlineMembers.contains("alice") && alice.onlineMembers.contains("bob") }
            alice.draft = "Hel"
            try await eventually { bob.typingText == "Alice is typing…" }
            #expect(bob.accessibilityText == "Alice is typing" && bob.typers.map(\.userID) == ["alice"])
            alice.draft = ""
            try await eventually { bob.typingText == nil }

            alice.draft = "Hello, Bob"
            try await eventually { bob.typingText != nil }
            await alice.send()
            #expect(alice.draft == "")
            #expect(alice.messages.last?.text == "Hello, Bob" && alice.messages.last?.isPending == false)
            try await eventually { bob.messages.last?.text == "Hello, Bob" }
            #expect(bob.typingText == nil, "the indicator is gone once the message shows")
            try await eventually { alice.messages.filter { $0.text == "Hello, Bob" }.count == 1 }  // her copy merged, not repeated
        }
    }

    @Test func aBotThinksUsesAToolStreamsAndFinishes() async throws {
        try await withAliceAndABotReply { alice, reply, _ in
            try await eventually { alice.reply == .thinking }
            #expect(alice.showsThinkingIndicator && !alice.showsStreamingCursor && alice.typingText == "Clawd is thinking…")
            #expect(alice.indicatorText == "Clawd is thinking…")
            try await reply.useTool("web_search")
            try await eventually { alice.reply == .tool("web_search") }
            #expect(alice.showsThinkingIndicator)
            try await reply.write("Typing indicators ")
            try await eventually { alice.reply == .streaming("Typing indicators ") }
            #expect(alice.showsStreamingCursor && !alice.showsThinkingIndicator && alice.messages.last?.isStreaming == true)
            #expect(alice.indicatorText == nil, "the cursor is the indicator while the reply streams")
            _ = try await reply.finish("matter.")
            try await eventually { alice.reply == .idle && alice.messages.last?.isStreaming == false }
            let replies = alice.messages.filter { $0.sender == "clawd" }
            #expect(
                replies.count == 1 && replies.first?.text == "Typing indicators matter.",
                "the stored reply took the streamed bubble's place")
            try await eventually { alice.messages.last?.messageID != nil }
        }
    }

    @Test func theAskerStopsABotsReplyAndItsBubbleKeepsTheWordsSoFarMarkedStopped() async throws {
        // A minute's grace: the end comes from the bot honouring the stop, not from the server.
        try await withAliceAndABotReply(answering: "alice") { alice, reply, _ in
            try await reply.write("Once upon a time")
            try await eventually { alice.messages.last?.isStreaming == true && alice.messages.last?.text == "Once upon a time" }
            let item = try #require(alice.messages.last)
            #expect(alice.canStop(item) && item.asker == "alice")
            await alice.stop(replyID: try #require(item.replyID))
            var stops = reply.cancellations.makeAsyncIterator()
            #expect(await stops.next() == "alice")
            _ = try await reply.finish(end: .cancelled)
            try await eventually { alice.messages.last?.replyEnd == .cancelled && alice.messages.last?.messageID != nil }
            let stopped = try #require(alice.messages.last)
            #expect(stopped.text == "Once upon a time" && !stopped.isStreaming && !alice.canStop(stopped))
        }
    }

    @Test func aReplyStreamedWhileOfflineShowsWholeAfterTheReconnectWithNoHoleAndNoRepeat() async throws {
        try await withAliceAndABotReply { alice, reply, clients in
            let otherDevice = await clients[2].conversation("bot-clawd")  // Alice's other device stays online
            var parts = otherDevice.replies.makeAsyncIterator()
            try await reply.write("One ")
            try await eventually { alice.messages.last?.text == "One " }
            await clients[0].disconnect()
            try await reply.write("two ")
            try await reply.write("three")
            // The server relayed every part (the other device has them) while this device was away. That
            // device may have subscribed after "One " went out: then its first frame is the catch-up, whole so
            // far (`text`), and a part is new only past the catch-up's number.
            var seen = ""
            var last: Int64 = 0
            while seen != "One two three", let part = await parts.next() {
                guard (part.seq ?? .max) > last else { continue }
                (seen, last) = (part.text ?? seen + part.delta, part.seq ?? last)
            }
            await clients[0].reconnectNow()
            try await eventually { alice.messages.last?.text == "One two three" && alice.messages.last?.isStreaming == true }
            _ = try await reply.finish(".")
            try await eventually { alice.messages.last?.isStreaming == false && alice.messages.last?.messageID != nil }
            #expect(alice.messages.filter { $0.sender == "clawd" }.map(\.text) == ["One two three."])
            await otherDevice.close()
        }
    }

    @Test func disappearingEndsTypingAndAHundredCyclesLeaveNothingBehind() async throws {
        try await withAliceAndBob { alice, bob, clients in
            alice.draft = "On my w"
            try await eventually { bob.typingText == "Alice is typing…" }
            await alice.disappear()
            try await eventually { bob.typingText == nil }
            #expect(alice.draft == "On my w", "the draft stays for the next appear")
            for _ in 0..<100 {
                await alice.appear()
                await alice.disappear()
            }
            await alice.enterBackground()
            await alice.enterForeground()  // it was not open: it stays closed
            #expect(!alice.isOpen)
            let counts = await clients[0].liveCounts
            #expect(counts == LiveCounts(), "open conversations, timers, composers left: \(counts)")
        }
    }

    /// One model in two windows (two screens showing it): closing one leaves the other following.
    @Test func aModelShownTwiceFollowsTheConversationUntilBothScreensWentAway() async throws {
        try await withAliceAndBob { alice, bob, clients in
            await alice.appear()  // a second window; withAliceAndBob showed the first
            alice.draft = "On my w"
            try await eventually { bob.typingText == "Alice is typing…" }
            await alice.disappear()
            #expect(alice.isOpen, "the other window still shows the conversation")
            #expect(await clients[0].liveCounts.conversations == 1)
            await alice.disappear()
            #expect(!alice.isOpen)
            try await eventually { bob.typingText == nil }  // the ttl is a minute: the close's stop did it
            await alice.appear()  // withAliceAndBob's own disappear follows
        }
    }

    @Test func whileTheClientIsAwayNobodyShowsOnlineAndTheReconnectSaysWhoIs() async throws {
        try await withAliceAndBob { alice, _, clients in
            try await eventually { alice.onlineMembers.contains("bob") }
            await clients[0].disconnect()
            try await eventually { alice.onlineMembers.isEmpty }  // Bob may have gone meanwhile: not shown online
            await clients[0].reconnectNow()
            try await eventually { alice.onlineMembers.contains("bob") }
        }
    }

    @Test func theHeaderSaysOnlineThenWhenTheMemberWasLastSeen() async throws {
        try await withAliceAndBob { alice, _, clients in
            try await eventually { alice.presenceText(for: "bob") == "online" }
            await clients[1].disconnect()
            try await eventually { alice.presenceText(for: "bob") == "last seen just now" }
            #expect(alice.presenceText(for: "bob", at: .now + 5 * 60) == "last seen 5 minutes ago")
            #expect(alice.presenceText(for: "carol") == nil, "not a member: nothing known")
            await clients[1].reconnectNow()
            try await eventually { alice.presenceText(for: "bob") == "online" }
        }
    }

    @Test func goingToTheBackgroundStopsTypingAndComingBackFollowsAgain() async throws {
        try await withAliceAndBob { alice, bob, _ in
            alice.draft = "Let me"
            try await eventually { bob.typingText != nil }
            await alice.enterBackground()
            try await eventually { bob.typingText == nil }  // her socket stays: presence is the app's connection, not the screen
            #expect(!alice.isOpen)
            await alice.enterForeground()
            #expect(alice.isOpen)
            try await eventually { alice.onlineMembers.contains("bob") }
            bob.draft = "Sure"
            try await eventually { alice.typingText == "Bob is typing…" }
        }
    }

    @Test func voiceOverHearsSomeoneStartOnceAndTheDotsRunOnlyWhileSomeoneIsActive() async throws {
        try await withAliceAndBob { alice, bob, _ in
            #expect(!bob.isIndicatorActive && bob.announcement == nil, "nothing ticks while nobody types")
            alice.draft = "H"
            try await eventually { bob.announcement?.text == "Alice is typing" }
            #expect(bob.isIndicatorActive && bob.indicatorAccessibilityText == "Alice is typing")
            let first = bob.announcement
            alice.draft = "Hello"  // keystrokes and the composer's refreshes say nothing new
            try await Task.sleep(for: .milliseconds(300))
            #expect(bob.announcement == first)
            alice.draft = ""
            try await eventually { !bob.isIndicatorActive }
            #expect(bob.announcement == first, "a stop is not announced")
        }
    }

    @Test func returnAtTheEndSendsAndAskedForNewlinesStay() async throws {
        try await withAliceAndBob { alice, bob, _ in
            alice.draft = "Line one"
            alice.allowNewline()  // Shift-Return
            alice.draft = "Line one\n"
            #expect(alice.draft == "Line one\n")
            alice.draft = "Line one\nline two"
            alice.draft = "Line one\nline two\n"  // Return
            try await eventually { alice.draft.isEmpty && alice.messages.last?.text == "Line one\nline two" }
            try await eventually { bob.messages.last?.text == "Line one\nline two" }
            alice.draft = "\n"  // Return in an empty field sends nothing
            #expect(alice.draft.isEmpty)
            alice.returnKeySends = false
            alice.draft = "no send\n"
            #expect(alice.draft == "no send\n")
        }
    }

    /// As Messages on iPhone: on the software keyboard Return is a newline and the button sends.
    @Test func onASoftwareKeyboardReturnIsANewlineAndTheButtonSends() async throws {
        try await withAliceAndBob { alice, bob, _ in
            alice.hasHardwareKeyboard = false
            alice.draft = "Line one"
            alice.draft = "Line one\n"  // Return
            #expect(alice.draft == "Line one\n" && alice.messages.isEmpty)
            alice.draft = "Line one\nline two"
            await alice.send()  // the send button
            try await eventually { bob.messages.last?.text == "Line one\nline two" }
            alice.hasHardwareKeyboard = true  // a keyboard connected
            alice.draft = "From the keyboard"
            alice.draft = "From the keyboard\n"
            try await eventually { alice.draft.isEmpty && alice.messages.last?.text == "From the keyboard" }
        }
    }

    @Test func aRefusedSendIsMarkedFailedWithItsErrorAndAWhitespaceDraftIsNotSent() async throws {
        try await withAliceAndBob { alice, _, _ in
            alice.draft = "   \n "
            await alice.send()
            #expect(alice.messages.isEmpty && alice.draft == "   \n ", "nothing to send")
            alice.draft = String(repeating: "😀", count: 5_000)  // 20 000 bytes: past the frame limit of 16 KiB
            await alice.send()
            let failed = try #require(alice.messages.last)
            #expect(failed.isFailed && !failed.isPending && failed.messageID == nil)
            #expect((alice.lastError as? TypewireClientError)?.code == .tooLarge)
            await alice.retry(itemID: failed.id)  // refused again by the server: failed, in its place
            #expect(alice.messages.map(\.id) == [failed.id] && alice.messages[0].isFailed && !alice.messages[0].isPending)
        }
    }

    @Test func someoneGoingOfflineLeavesTheOnlineMembers() async throws {
        try await TestServer.run { server in
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                let bob = ConversationModel(client: clients[1], conversationID: Self.direct)
                await bob.appear()
                try await eventually { bob.onlineMembers.contains("alice") }
                await clients[0].disconnect()
                try await eventually { !bob.onlineMembers.contains("alice") }
                await bob.disappear()
            }
        }
    }

    @Test func aBotThatGoesQuietLeavesNoIndicatorAndNoCursor() async throws {
        try await withAliceAndABotReply { alice, reply, clients in
            try await eventually { alice.reply == .thinking }  // she follows the conversation: the parts reach her
            try await reply.write("Half a ")
            try await eventually { alice.showsStreamingCursor }
            await clients[1].disconnect()  // the bot dies mid-reply
            try await eventually(within: .seconds(20)) { alice.reply == .idle && alice.messages.allSatisfy { !$0.isStreaming } }
            #expect(alice.indicatorText == nil && !alice.showsThinkingIndicator)
        }
    }

    @Test func aPreviewModelShowsWhatItIsGivenAndConnectsToNothing() async {
        let model = ConversationModel(
            previewOf: "preview", messages: [MessageItem(id: "1", sender: "clawd", senderName: "Clawd", text: "Hel", isStreaming: true)],
            typing: .idle, reply: .streaming("Hel")
        )
        await model.appear()
        #expect(!model.isOpen && model.showsStreamingCursor && model.messages.map(\.text) == ["Hel"])
    }
}
