import Testing
import TypewireCore

@testable import TypewireUI

@Suite struct BotRepliesTests {
    let start = ContinuousClock.now

    private func typer(_ user: String, _ activity: MemberActivity) -> Typer {
        Typer(userID: user, name: user.capitalized, activity: activity)
    }

    private func phases(_ replies: BotReplies) -> [String: ReplyPhase] {
        Dictionary(uniqueKeysWithValues: replies.phases(name: { _ in nil }, streamingText: { "\($0)'s text" }).map { ($0.bot, $0.phase) })
    }

    @Test func twoBotsHaveRepliesOfTheirOwn() {
        var replies = BotReplies()
        replies.typersChanged([typer("clawd", .thinking), typer("scout", .toolUse("search"))], now: start)
        #expect(phases(replies) == ["clawd": .thinking, "scout": .tool("search")])
        #expect(replies.bots == ["clawd", "scout"], "in the order they began")

        replies.chunk(from: "clawd", isFinal: false, now: start + .seconds(1))
        #expect(phases(replies) == ["clawd": .streaming("clawd's text"), "scout": .tool("search")], "one writes, the other still works")

        replies.chunk(from: "clawd", isFinal: true, now: start + .seconds(2))
        replies.typersChanged([typer("scout", .thinking)], now: start + .seconds(2))
        #expect(phases(replies) == ["scout": .thinking], "a finished reply is gone; the other is untouched")
        #expect(replies.bots == ["scout"])
    }

    @Test func aBotThatLeavesWithoutWritingEndsOnlyItsOwnReply() {
        var replies = BotReplies()
        replies.typersChanged([typer("clawd", .thinking), typer("scout", .thinking)], now: start)
        replies.chunk(from: "scout", isFinal: false, now: start)
        replies.typersChanged([typer("scout", .typing)], now: start + .seconds(1))
        #expect(phases(replies) == ["scout": .streaming("scout's text")])
    }

    @Test func aQuietBotIsGivenUpAloneAndTheDeadlineIsTheEarliest() throws {
        var replies = BotReplies()
        replies.typersChanged([typer("clawd", .thinking)], now: start)
        replies.chunk(from: "clawd", isFinal: false, now: start)
        let clawdsDeadline = try #require(replies.nextDeadline)
        replies.typersChanged([typer("clawd", .typing), typer("scout", .thinking)], now: start + .seconds(1))
        #expect(replies.nextDeadline == clawdsDeadline, "the earliest of the two")
        let gaveUp = replies.tick(now: clawdsDeadline)
        #expect(gaveUp == ["clawd"])
        #expect(phases(replies) == ["scout": .thinking])
    }

    @Test func aPartFromABotWithNoActivityStartsItsReply() {
        var replies = BotReplies()
        replies.chunk(from: "scout", isFinal: false, now: start)
        #expect(phases(replies) == ["scout": .streaming("scout's text")])
        replies.typersChanged([], now: start)
        #expect(phases(replies) == ["scout": .streaming("scout's text")], "streaming is not thinking: leaving the typers does not end it")
    }

    @Test func peopleAreNotBots() {
        var replies = BotReplies()
        replies.typersChanged([typer("alice", .typing), typer("bob", .recordingAudio)], now: start)
        #expect(replies.bots.isEmpty)
        #expect(replies.nextDeadline == nil)
    }
}
