import Clocks
import Testing
import TypewireCore

@Suite("BotActivity: a streamed reply", .timeLimit(.minutes(1)))
final class BotActivityTests {
    typealias Bot = BotActivity<TestClock<Duration>.Instant>

    let clock = TestClock()
    var bot = Bot(configuration: .init(chunkTimeout: .seconds(5), thinkingTimeout: .seconds(30)))

    /// Runs the shell's deadline check at the clock's current instant.
    func tick() -> Bool { bot.tick(now: clock.now) }

    @Test func aWholeReply() throws {
        let test = self
        #expect(test.bot.state == .idle)
        #expect(!test.bot.showsThinkingIndicator && !test.bot.showsStreamingCursor)
        #expect(test.bot.activity == .none)

        try test.bot.handle(.startThinking, now: test.clock.now)
        #expect(test.bot.state == .thinking)
        #expect(test.bot.showsThinkingIndicator && !test.bot.showsStreamingCursor)
        #expect(test.bot.activity == .thinking)

        try test.bot.handle(.useTool("web_search"), now: test.clock.now)
        #expect(test.bot.state == .toolUse("web_search"))
        #expect(test.bot.showsThinkingIndicator)
        #expect(test.bot.activity == .toolUse("web_search"))

        try test.bot.handle(.startThinking, now: test.clock.now)
        try test.bot.handle(.chunk(isFinal: false), now: test.clock.now)
        #expect(test.bot.state == .typing)
        #expect(!test.bot.showsThinkingIndicator && test.bot.showsStreamingCursor)
        #expect(test.bot.activity == .typing)

        try test.bot.handle(.chunk(isFinal: false), now: test.clock.now)
        try test.bot.handle(.chunk(isFinal: true), now: test.clock.now)
        #expect(test.bot.state == .idle)
        #expect(!test.bot.showsThinkingIndicator && !test.bot.showsStreamingCursor)
        #expect(test.bot.nextDeadline == nil)
    }

    @Test func anErrorEndsTheReply() throws {
        for setUp: [Bot.Input] in [[.startThinking], [.startThinking, .useTool(nil)], [.startThinking, .chunk(isFinal: false)]] {
            let test = self
            for input in setUp { try test.bot.handle(input, now: test.clock.now) }
            try test.bot.handle(.fail, now: test.clock.now)
            #expect(test.bot.state == .idle)
        }
    }

    @Test func theServersEndEndsTheReplyAndEachWayOfEndingIsKept() async throws {
        let test = self
        let replies: [([Bot.Input], ReplyEnd)] = [
            ([.startThinking, .chunk(isFinal: false), .chunk(isFinal: true)], .finished),
            ([.startThinking, .useTool("search"), .fail], .failed),
            ([.startThinking, .chunk(isFinal: false), .end(.cancelled)], .cancelled),
            ([.startThinking, .end(.timedOut)], .timedOut),
        ]
        for (inputs, end) in replies {
            for input in inputs.dropLast() { try test.bot.handle(input, now: test.clock.now) }
            #expect(test.bot.lastEnd == nil, "no end while the reply is under way")
            try test.bot.handle(inputs.last!, now: test.clock.now)
            #expect(test.bot.state == .idle && test.bot.nextDeadline == nil && test.bot.lastEnd == end)
        }
        #expect(throws: BotActivityError.self, "an end with no reply under way") {
            try test.bot.handle(.end(.timedOut), now: test.clock.now)
        }
        #expect(test.bot.lastEnd == .timedOut)
        try test.bot.handle(.startThinking, now: test.clock.now)
        await test.clock.advance(by: .seconds(30))
        #expect(test.tick())
        #expect(test.bot.lastEnd == .timedOut, "its own timeout")
    }

    @Test func noChunkForTheTimeoutEndsTheReply() async throws {
        let test = self
        try test.bot.handle(.startThinking, now: test.clock.now)
        try test.bot.handle(.chunk(isFinal: false), now: test.clock.now)
        await test.clock.advance(by: .seconds(4))
        try test.bot.handle(.chunk(isFinal: false), now: test.clock.now)
        await test.clock.advance(by: .milliseconds(4_999))
        #expect(!test.tick(), "each chunk restarts the timeout")
        #expect(test.bot.state == .typing)
        await test.clock.advance(by: .milliseconds(1))
        #expect(test.bot.nextDeadline == test.clock.now)
        #expect(test.tick())
        #expect(test.bot.state == .idle)
        #expect(!test.bot.showsStreamingCursor)
    }

    @Test func thinkingForeverEndsToo() async throws {
        let test = self
        try test.bot.handle(.startThinking, now: test.clock.now)
        await test.clock.advance(by: .seconds(29))
        #expect(!test.tick())
        await test.clock.advance(by: .seconds(1))
        #expect(test.tick())
        #expect(test.bot.state == .idle)
    }

    @Test(
        arguments: [
            ([], BotActivity<TestClock<Duration>.Instant>.Input.chunk(isFinal: false)),
            ([], .chunk(isFinal: true)),
            ([], .useTool("x")),
            ([], .fail),
            ([.startThinking, .chunk(isFinal: false)], .startThinking),
            ([.startThinking, .chunk(isFinal: false)], .useTool("x")),
        ] as [([Bot.Input], Bot.Input)])
    func invalidTransitionsThrowAndKeepTheState(setUp: [Bot.Input], input: Bot.Input) throws {
        let test = self
        for step in setUp { try test.bot.handle(step, now: test.clock.now) }
        let before = test.bot.state
        let error = #expect(throws: BotActivityError.self) { try test.bot.handle(input, now: test.clock.now) }
        #expect(test.bot.state == before)
        #expect(error?.description.contains("cannot take") == true)
    }
}
