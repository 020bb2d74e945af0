import Testing

@testable import TypewireServer

@Suite("OpenReplies: the replies bots are streaming")
struct OpenRepliesTests {
    static func key(_ id: String, bot: String = "clawd") -> StreamKey {
        StreamKey(conversation: "c", messageId: id, bot: bot)
    }

    @Test func countsEachBotsOpenReplies() {
        var replies = OpenReplies()
        replies.set("a", for: Self.key("1"), at: 0)
        replies.set("ab", for: Self.key("1"), at: 5)  // the same reply, grown
        replies.set("x", for: Self.key("2"), at: 0)
        replies.set("y", for: Self.key("1", bot: "other"), at: 0)
        #expect(replies.count(of: "clawd") == 2)
        #expect(replies[Self.key("1")] == "ab")
        replies.remove(Self.key("1"))
        replies.remove(Self.key("1"))  // twice: counted once
        #expect(replies.count(of: "clawd") == 1)
        replies.forget(bot: "clawd")
        #expect(replies.count(of: "clawd") == 0)
        #expect(replies.count(of: "other") == 1)
    }

    @Test func forgetsABotsRepliesSilentSinceTheCutOffAndNoOtherBots() {
        var replies = OpenReplies()
        replies.set("old", for: Self.key("1"), at: 100)
        replies.set("new", for: Self.key("2"), at: 200)
        replies.set("other's", for: Self.key("3", bot: "other"), at: 100)
        replies.forgetSilent(of: "clawd", before: 150)
        #expect(replies[Self.key("1")] == nil)
        #expect(replies[Self.key("2")] == "new")
        #expect(replies.count(of: "clawd") == 1)
        #expect(replies[Self.key("3", bot: "other")] == "other's", "another bot's replies wait for its own next part")
    }
}
