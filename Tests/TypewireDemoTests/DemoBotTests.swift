import Testing
import TypewireClient
import TypewireCore
import TypewireDemo
import TypewireTesting

/// The demo bot against a real server, seen by a member of its conversation.
@Suite("DemoBot against a real server", .timeLimit(.minutes(1)))
struct DemoBotTests {
    @Test func itThinksThenStreamsItsAnswerWordByWordThenGoesIdle() async throws {
        try await TestServer.run { server in
            let bot = DemoBot(
                userID: "clawd", url: { server.socketURL }, conversations: { ["bot-clawd"] },
                timing: .init(thinking: .seconds(1), perWord: .milliseconds(40))  // thinking long enough to be seen on a loaded machine
            ) { try await server.token("clawd") }
            let botRun = Task { try await bot.run() }
            defer { botRun.cancel() }
            let alice = TypewireClient(url: server.socketURL) { try await server.token("alice") }
            let aliceRun = Task { try await alice.run() }
            defer { aliceRun.cancel() }
            let chat = await alice.conversation("bot-clawd")
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
