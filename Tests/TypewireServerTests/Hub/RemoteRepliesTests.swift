import Testing
import TypewireCore

@testable import TypewireServer

@Suite("RemoteReplies: the replies other nodes' bots stream, as the bus relays them")
struct RemoteRepliesTests {
    static func part(
        _ delta: String, seq: Int64, final: Bool = false, text: String? = nil, id: String = "r", conversation: String = "c"
    ) -> ServerFrame.StreamDelta {
        .init(conversation: conversation, messageId: id, user: "clawd", delta: delta, final: final, seq: seq, asker: "alice", text: text)
    }

    @Test func partsInOrderMakeACatchUpAndTheFinalPartEndsIt() {
        var replies = RemoteReplies()
        replies.apply(Self.part("One ", seq: 1), from: "n1", at: 0, timeout: 10_000)
        replies.apply(Self.part("two", seq: 2), from: "n1", at: 10, timeout: 10_000)
        replies.apply(Self.part("two", seq: 2), from: "n1", at: 11, timeout: 10_000)  // a repeat changes nothing
        #expect(
            replies.catchUp(in: "c", at: 20, timeout: 10_000)
                == [
                    .init(
                        conversation: "c", messageId: "r", user: "clawd", delta: "", final: false, seq: 2, asker: "alice", text: "One two")
                ])
        #expect(replies.replies("r", in: "c", at: 20, timeout: 10_000).map(\.reply.asker) == ["alice"])
        replies.apply(Self.part("", seq: 3, final: true), from: "n1", at: 30, timeout: 10_000)
        #expect(replies.catchUp(in: "c", at: 40, timeout: 10_000).isEmpty)
    }

    @Test func aMissingPartGivesNoCatchUpUntilAWholeTextMendsIt() {
        var replies = RemoteReplies()
        replies.apply(Self.part("One ", seq: 1), from: "n1", at: 0, timeout: 10_000)
        replies.apply(Self.part("three", seq: 3), from: "n1", at: 10, timeout: 10_000)  // part 2 was too large for the bus
        #expect(replies.catchUp(in: "c", at: 20, timeout: 10_000).isEmpty, "a hole: no catch-up")
        // The bot's node answered a sliceRequest:
        replies.apply(Self.part("", seq: 3, text: "One two three"), from: "n1", at: 30, timeout: 10_000)
        #expect(replies.catchUp(in: "c", at: 40, timeout: 10_000).map(\.text) == ["One two three"])
        // Joined mid-reply: the first part heard is not the first one.
        replies.apply(Self.part("late", seq: 5, id: "r2"), from: "n1", at: 40, timeout: 10_000)
        #expect(replies.catchUp(in: "c", at: 50, timeout: 10_000).map(\.messageId) == ["r"])
    }

    @Test func silentRepliesAndAGoneNodesRepliesAreForgotten() {
        var replies = RemoteReplies()
        replies.apply(Self.part("a", seq: 1), from: "n1", at: 0, timeout: 10_000)
        replies.apply(Self.part("b", seq: 1, id: "r2"), from: "n2", at: 5_000, timeout: 10_000)
        #expect(replies.catchUp(in: "c", at: 10_000, timeout: 10_000).map(\.messageId) == ["r2"], "r is silent past the timeout")
        replies.apply(Self.part("c", seq: 1, id: "r3"), from: "n2", at: 10_000, timeout: 10_000)
        #expect(replies.replies("r", in: "c", at: 0, timeout: 10_000).isEmpty, "a new reply forgets the silent ones")
        replies.forget(node: "n2")
        #expect(replies.catchUp(in: "c", at: 10_000, timeout: 10_000).isEmpty)
    }

    @Test func aConversationKeepsAtMostItsBoundOfReplies() {
        var replies = RemoteReplies()
        for index in 0...RemoteReplies.maxPerConversation {
            replies.apply(Self.part("x", seq: 1, id: "r\(index)"), from: "n1", at: 0, timeout: 10_000)
        }
        #expect(replies.catchUp(in: "c", at: 1, timeout: 10_000).count == RemoteReplies.maxPerConversation)
        replies.apply(Self.part("y", seq: 1, id: "late"), from: "n1", at: 10_000, timeout: 10_000)
        #expect(replies.catchUp(in: "c", at: 10_000, timeout: 10_000).map(\.messageId) == ["late"], "silent replies free their places")
    }
}
