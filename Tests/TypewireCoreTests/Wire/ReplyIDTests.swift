import Testing
import TypewireCore

/// One row of TestVectors/reply-ids.json, the table the web demo's JavaScript checks too.
struct ReplyIDVector: Decodable, Sendable, CustomTestStringConvertible {
    var clientMessageId: String
    var replyMessageId: String?

    var testDescription: String { "\(clientMessageId) → \(replyMessageId ?? "nil")" }

    static let all = testVectors("reply-ids.json", as: ReplyIDVector.self)
}

@Suite("ReplyID: a streamed reply and its stored message")
struct ReplyIDTests {
    @Test(arguments: ReplyIDVector.all)
    func aClientMessageIdNamesItsReplyOrNone(_ vector: ReplyIDVector) {
        #expect(ReplyID.replyMessageId(of: vector.clientMessageId) == vector.replyMessageId)
        if let reply = vector.replyMessageId {
            #expect(ReplyID.clientMessageId(ofReply: reply) == vector.clientMessageId, "the way back")
        }
    }
}
