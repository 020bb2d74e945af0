import Testing
import TypewireClient
import TypewireCore
import TypewireDemo
import TypewireTesting

/// The demo bot against a real server, seen by a member of its conversation.
@Suite("DemoBot against a real server", .timeLimit(.minutes(1)))
struct DemoBotTests {
    /// Runs the demo bot with this timing and Alice's client, for the body, on Alice's conversation with it.
    static func withBot(on server: TestServer, timing: DemoBot.Timing, _ body: (ConversationHandle) async throws -> Void) async throws {
        let bot = DemoBot(userID: "clawd", url: { server.socketURL }, conversations: { ["bot-clawd"] }, timing: timing) {
            try await server.token("clawd")
        }
        let botRun = Task { try await bot.run() }
        defer { botRun.cancel() }
        let alice = TypewireClient(url: server.socketURL) { try await server.token("alice") }
        let aliceRun = Task { try await alice.run() }
        defer { aliceRun.cancel() }
        try await body(await alice.conversation("bot-clawd"))
    }

    @Test func itThinksThenStreamsItsAnswerWordByWordThenGoesIdle() async throws {
        try await TestServer.run { server in
            // Thinking long enough to be seen on a loaded machine.
            try await Self.withBot(on: server, timing: .init(thinking: .seconds(1), perWord: .milliseconds(40))) { chat in
                var typing = chat.typing.makeAsyncIterator()
                var messages = chat.messages.makeAsyncIterator()
                var replies = chat.replies.makeAsyncIterator()

                let id = try await chat.send("How do typing indicators work?")
                let question = try #require(await messages.next())
                #expect(question.id == id)
                var state = await typing.next()  // idle, unless the bot already thinks (the sequence keeps the newest)
                if state == .idle { state = await typing.next() }
                #expect(state?.text == "Clawd is thinking…")
                var streamed = ""
                var parts = 0
                while let part = await replies.next() {
                    streamed += part.delta
                    parts += 1
                    if part.final { break }
                }
                let answer = try #require(await messages.next())
                #expect(answer.sender == "clawd")
                #expect(answer.text == streamed)
                #expect(answer.text.hasPrefix("Hi Alice! You wrote “How do typing indicators work?”."))
                #expect(parts > 10, "streamed in many parts, not all at once")
                state = await typing.next()
                while state != .idle, state != nil { state = await typing.next() }
                #expect(state == .idle, "idle once the answer is stored")
            }
        }
    }

    @Test func aStopFromThePersonItAnswersEndsItsWritingAndKeepsTheWordsSoFar() async throws {
        // A minute's grace: the end comes from the bot honouring the stop, not from the server.
        try await TestServer.run(configure: { $0.messages.stopGrace = .seconds(60) }) { server in
            // 26 words: 5 s unless stopped.
            try await Self.withBot(on: server, timing: .init(thinking: .milliseconds(100), perWord: .milliseconds(200))) { chat in
                var messages = chat.messages.makeAsyncIterator()
                var replies = chat.replies.makeAsyncIterator()

                _ = try await chat.send("Tell me a long story")
                _ = await messages.next()
                let first = try #require(await replies.next())
                await chat.stopReply(first.messageId)
                var streamed = first.delta
                var end: ServerFrame.StreamDelta?
                while let part = await replies.next() {
                    streamed += part.delta
                    if part.final {
                        end = part
                        break
                    }
                }
                #expect(end?.end == .cancelled && end?.by == "alice", "ended by the bot as stopped")
                let kept = try #require(await messages.next())
                #expect(kept.sender == "clawd" && kept.text == streamed)
                #expect(!kept.text.hasSuffix("then it is stored."), "stopped before the end of its answer: \(kept.text)")
            }
        }
    }
}
