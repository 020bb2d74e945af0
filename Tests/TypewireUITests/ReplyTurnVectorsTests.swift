import Foundation
import Testing
import TypewireCore
import TypewireUI

/// One row of TestVectors/reply-turns.json, the table the web demo's JavaScript checks too
/// (Tests/JavaScript/timeline.test.mjs): a reply's frames as a receiver applies them, and the bubble after.
struct ReplyTurnVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Part: Decodable, Sendable {
        var delta: String
        var final: Bool
        var seq: Int64?
        var end: String?
        var by: String?
        var reason: String?
        var text: String?
    }

    var name: String
    var parts: [Part]
    var text: String
    var streaming: Bool
    var end: String?

    var testDescription: String { name }

    static let all: [ReplyTurnVector] = {
        struct Table: Decodable { var vectors: [ReplyTurnVector] }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try! JSONDecoder().decode(Table.self, from: Data(contentsOf: root.appendingPathComponent("TestVectors/reply-turns.json")))
            .vectors
    }()
}

@Suite("MessageTimeline: a reply's turn, by the table the web demo shares")
struct ReplyTurnVectorsTests {
    @Test(arguments: ReplyTurnVector.all)
    func aReplysFramesMakeTheBubbleTheTableSays(_ vector: ReplyTurnVector) {
        var timeline = MessageTimeline()
        for (index, part) in vector.parts.enumerated() {
            let frame = ServerFrame.StreamDelta(
                conversation: "c", messageId: "r", user: "clawd", delta: part.delta, final: part.final, seq: part.seq,
                end: part.end.map(ReplyEnd.init(rawValue:)), by: part.by, reason: part.reason, text: part.text)
            timeline.stream(frame, senderName: "Clawd", now: Int64(index))
        }
        #expect(timeline.items.count == 1)
        #expect(timeline.items.first?.text == vector.text)
        #expect(timeline.items.first?.isStreaming == vector.streaming)
        #expect(timeline.items.first?.replyEnd?.rawValue == vector.end)
    }
}
