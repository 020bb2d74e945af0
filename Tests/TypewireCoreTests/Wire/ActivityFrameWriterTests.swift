import Foundation
import Testing

@testable import TypewireCore

@Suite("ActivityFrameWriter: the hand-written activity frame decodes like JSONEncoder's")
struct ActivityFrameWriterTests {
    static let hostile = [
        "", "alice", "Zoë ✋ 🧑🏽‍💻", "quote \" and backslash \\", "slash / and </script>", "line\nbreak\ttab\rreturn",
        "\u{0}\u{1}\u{1f}\u{7f}", "\u{2028}\u{2029}", String(repeating: "x", count: 300),
    ]

    static var updates: [ActivityUpdate] {
        var updates = [ActivityUpdate(conversation: "c1", entries: [], serverTime: 0)]
        for (index, text) in hostile.enumerated() {
            let activities: [MemberActivity] = [.typing, .thinking, .toolUse(text), .toolUse(nil), .recordingAudio, .uploading]
            let entries = activities.enumerated().map { offset, activity in
                ActivityEntry(
                    user: text + "\(offset)", name: offset.isMultiple(of: 2) ? text : nil, activity: activity,
                    since: Int64(index) * 1_000 - 5, expiresAt: Int64.max - Int64(offset),
                    thread: offset.isMultiple(of: 3) ? text + "-parent" : nil
                )
            }
            updates.append(ActivityUpdate(conversation: text, entries: entries, total: 10 + index, serverTime: Int64.min + 1))
        }
        return updates
    }

    @Test(arguments: updates)
    func decodesToTheSameUpdateAsJSONEncoders(_ update: ActivityUpdate) throws {
        let written = ActivityFrameWriter.json(update)
        let reference = try JSONDecoder().decode(ServerFrame.self, from: JSONEncoder().encode(ServerFrame.activity(update)))
        #expect(try FrameCodec.decodeServerFrame(Data(written.utf8)) == reference)
        #expect(try JSONSerialization.jsonObject(with: Data(written.utf8)) is [String: Any], "valid JSON")
    }

    @Test func encodeTextWritesActivityInOneKnownForm() throws {
        let update = ActivityUpdate(conversation: "c1", entries: [], serverTime: 7)
        #expect(
            FrameCodec.encodeText(.activity(update)) == #"{"type":"activity","conversation":"c1","entries":[],"total":0,"serverTime":7}"#)
        let presence = ServerFrame.presence(.init(conversation: "c1", user: "bob", online: true))
        #expect(try FrameCodec.decodeServerFrame(Data(FrameCodec.encodeText(presence).utf8)) == presence)
    }
}
