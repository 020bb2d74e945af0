import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireClient

/// A bot's replies against a real server, as a member of the bot conversation sees them.
@Suite("BotReply against a real server", .timeLimit(.minutes(1)))
struct BotReplyTests: ClientTesting {
    static let botChat = "bot-clawd"

    @Test func thinkingToolUseAStreamedReplyAndTheStoredMessage() async throws {
        try await TestServer.run { server in
            try await withChats(["clawd", "alice"], in: Self.botChat, of: server) { clients, chats in
                let (clawd, botChat, aliceChat) = (clients[0], chats[0], chats[1])
                let reply = try await botChat.beginReply()
                _ = try await first(aliceChat.typing) { $0.text == "Clawd is thinking…" }
                try await reply.useTool("web_search")
                _ = try await first(aliceChat.typing) { $0.text == "Clawd is using web_search…" }
                try await reply.think()
                _ = try await first(aliceChat.typing) { $0.text == "Clawd is thinking…" }
                let words = ["Typing ", "indicators ", "are ", "small ", "but ", "they ", "matter"]
                for word in words { try await reply.write(word) }
                await #expect(throws: BotActivityError.self, "thinking in the middle of the text") { try await reply.think() }
                let id = try await reply.finish(".")
                // Alice saw the parts (coalesced, in order), then the whole reply as one stored message.
                var streamed = ""
                for await part in aliceChat.replies {
                    #expect(part.messageId == reply.messageId && part.user == "clawd")
                    streamed += part.delta
                    if part.final { break }
                }
                #expect(streamed == words.joined() + ".")
                let message = try await first(aliceChat.messages) { $0.id == id }
                #expect(message.text == words.joined() + ".")
                #expect(message.clientMessageId == "stream-\(reply.messageId)")
                _ = try await first(aliceChat.typing) { $0 == .idle }
                await #expect(throws: TypewireClientError.self, "the reply has ended") { try await reply.write("more") }
                try await waitUntil(clawd) { $0.liveCounts.replies == 0 && $0.pendingSends.isEmpty }
            }
        }
    }

    @Test func aStopReachesTheBotsCancellationsAndItsCancelledEndReachesTheAskerWithTheTextStored() async throws {
        // A minute's grace: the end comes from the bot honouring the stop, not from the server.
        try await TestServer.run(configure: { $0.messages.stopGrace = .seconds(60) }) { server in
            try await withChats(["clawd", "alice"], in: Self.botChat, of: server) { clients, chats in
                let (clawd, botChat, aliceChat) = (clients[0], chats[0], chats[1])
                let reply = try await botChat.beginReply(answering: "alice")
                try await reply.write("Once upon a time")
                var parts = aliceChat.replies.makeAsyncIterator()
                let first = await parts.next()
                #expect(first?.messageId == reply.messageId && first?.seq == 1)
                await aliceChat.stopReply(reply.messageId)
                var stops = reply.cancellations.makeAsyncIterator()
                #expect(await stops.next() == "alice")
                let id = try await reply.finish(end: .cancelled)
                let end = await parts.next()
                #expect(end?.final == true && end?.end == .cancelled && end?.by == "alice")
                let message = try await self.first(aliceChat.messages) { $0.id == id }
                #expect(message.text == "Once upon a time", "what the bot wrote before the stop is kept")
                #expect(await stops.next() == nil, "the stops end with the reply")
                try await waitUntil(clawd) { $0.liveCounts.replies == 0 && $0.pendingSends.isEmpty }
            }
        }
    }

    @Test func aBotThatIgnoresAStopIsEndedByTheServerAndItsNextWriteThrowsTurnEnded() async throws {
        try await TestServer.run(configure: {
            $0.messages.stopGrace = .milliseconds(200)
            $0.messages.replyTimeout = .seconds(60)
        }) { server in
            try await withChats(["clawd", "alice"], in: Self.botChat, of: server) { _, chats in
                let (botChat, aliceChat) = (chats[0], chats[1])
                let reply = try await botChat.beginReply()
                try await reply.write("I will not stop")
                var parts = aliceChat.replies.makeAsyncIterator()
                _ = await parts.next()
                await aliceChat.stopReply(reply.messageId)
                let end = await parts.next()
                #expect(end?.final == true && end?.end == .cancelled && end?.by == "alice", "ended by the server after the grace")
                // The next part goes out and is refused; a write after that refusal throws it.
                let refused = try await Self.firstThrow(within: livenessBound) {
                    try await reply.write(" ever")
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(refused.reason == .server(.turnEnded))
            }
        }
    }

    @Test func aReplyTheServerTimesOutEndsForTheBotAtOnce() async throws {
        try await TestServer.run(configure: { $0.messages.replyTimeout = .milliseconds(300) }) { server in
            try await withChats(["clawd", "alice"], in: Self.botChat, of: server) { _, chats in
                let (botChat, aliceChat) = (chats[0], chats[1])
                let reply = try await botChat.beginReply()
                try await reply.write("Thinking out loud")
                var parts = aliceChat.replies.makeAsyncIterator()
                _ = await parts.next()
                let end = await parts.next()
                #expect(end?.final == true && end?.end == .timedOut)
                var stops = reply.cancellations.makeAsyncIterator()
                #expect(await stops.next() == nil, "the stops end with the server's end")
                // The very next call says so; it does not send a part for the server to refuse.
                let error = await #expect(throws: TypewireClientError.self) { try await reply.write(" and on") }
                #expect(error?.reason == .server(.turnEnded))
            }
        }
    }

    @Test func aFailedReplyEndsForEveryMemberWithTheBotsReason() async throws {
        try await TestServer.run(configure: { $0.messages.replyTimeout = .seconds(60) }) { server in
            try await withChats(["clawd", "alice"], in: Self.botChat, of: server) { clients, chats in
                let (clawd, botChat, aliceChat) = (clients[0], chats[0], chats[1])
                let reply = try await botChat.beginReply()
                try await reply.write("Half an ans")
                var parts = aliceChat.replies.makeAsyncIterator()
                _ = await parts.next()
                await reply.fail(reason: "The model is down.")
                let end = await parts.next()
                #expect(end?.final == true && end?.end == .failed && end?.reason == "The model is down.")
                try await waitUntil(clawd) { $0.liveCounts.replies == 0 }
            }
        }
    }

    /// Runs `body` until it throws a ``TypewireClientError`` (within a deadline), and returns it.
    static func firstThrow(within timeout: Duration, _ body: () async throws -> Void) async throws -> TypewireClientError {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            do {
                try await body()
            } catch let error as TypewireClientError {
                return error
            }
        }
        throw ClientTestError.timedOut
    }

    @Test func anErrorIsMatchedToItsRequestByKindWhenIdsOfTwoKindsAreEqual() async throws {
        var configuration = Self.quickBackoff
        configuration.conversationWait = .milliseconds(500)  // an unknown conversation is waited for this long
        try await TestServer.run { server in
            try await withChats(["clawd"], in: Self.botChat, of: server, configuration: configuration) { clients, chats in
                // A reply whose id is also the id of a conversation the bot then opens, which does not exist.
                let reply = try await chats[0].beginReply(messageId: "no-such-conversation")
                _ = await clients[0].conversation("no-such-conversation")
                try await waitUntil(clients[0]) { $0.conversations["no-such-conversation"] == nil }  // the refusal ends that handle…
                try await reply.write("still ")
                let id = try await reply.finish("here")  // …and not the reply that shares its id
                #expect(!id.isEmpty)
            }
        }
    }

    @Test func thinkingLongerThanTheTTLStaysShownAndAFailedReplyClearsIt() async throws {
        // A ttl of 3 s with refreshes every 300 ms (a refresh may come 2.7 s late on a loaded machine); the bot
        // thinks until the server has had 21 refreshes (over two ttls): Alice's indicator must not drop
        // meanwhile. Failing the reply then clears it.
        try await TestServer.run(configure: {
            $0.typing.activityTTL = .seconds(3)
            $0.typing.refreshInterval = .milliseconds(300)
        }) { server in
            try await withChats(["clawd", "alice"], in: Self.botChat, of: server) { clients, chats in
                let (clawd, botChat, aliceChat) = (clients[0], chats[0], chats[1])
                let reply = try await botChat.beginReply()
                _ = try await first(aliceChat.typing) { $0.text == "Clawd is thinking…" }
                let shown = try await staysShownUntilStopped(
                    aliceChat.typing, untilTheServerReceives: 21, moreFramesOf: "activity", on: server
                ) { await reply.fail() }
                #expect(shown, "the thinking indicator went away while the bot was still thinking")
                try await waitUntil(clawd) { $0.liveCounts.replies == 0 }
            }
        }
    }

    @Test func aReplyCutByAServerRestartIsStoredWholeAndOnce() async throws {
        var reply: BotReply?
        try await acrossARestart(["clawd"]) { clients in
            reply = try await openChat(clients[0], Self.botChat).beginReply()
            try await reply!.write("First half, ")
        } duringOutage: { _ in
            try await reply!.write("written during the outage, ")
        } afterRestart: { server, clients in
            try await waitUntilSubscribed(clients[0], to: Self.botChat)
            try await reply!.write("and the end.")
            let id = try await reply!.finish()
            let stored = try await history(of: Self.botChat, as: "alice", on: server).filter {
                $0.clientMessageId == "stream-\(reply!.messageId)"
            }
            #expect(stored.map(\.id) == [id])
            #expect(stored.first?.text == "First half, written during the outage, and the end.")
        }
    }

    @Test func aPersonCannotStreamAReply() async throws {
        try await TestServer.run { server in
            try await withChats(["alice"], in: Self.botChat, of: server) { clients, chats in
                let (alice, chat) = (clients[0], chats[0])
                let reply = try await chat.beginReply()
                try await reply.write("pretending to be a bot")
                await #expect {
                    try await reply.finish()
                } throws: { error in
                    (error as? TypewireClientError)?.code == .forbidden
                }
                try await waitUntil(alice) { $0.liveCounts.replies == 0 && $0.pendingSends.isEmpty }
            }
        }
    }
}
