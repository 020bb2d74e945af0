import Foundation
import Testing

@testable import TypewireCore

@Suite("ServerFrameWriter: every hand-written server frame is the JSON JSONEncoder writes")
struct ServerFrameWriterTests {
    static let hostile = ActivityFrameWriterTests.hostile

    /// Every frame type, with hostile strings, and optional fields both present and absent.
    static var frames: [ServerFrame] {
        var frames: [ServerFrame] = []
        for (index, text) in hostile.enumerated() {
            let present = index.isMultiple(of: 2)
            let message = ChatMessage(
                conversation: text, id: text + "id", sender: text + "s", senderName: present ? text : nil, text: text,
                sentAt: Int64(index) - 3, clientMessageId: present ? text : nil, editedAt: present ? Int64.max : nil,
                thread: present ? nil : text)
            let participants = [
                ConversationMember(id: text, name: present ? text : nil, online: present),
                ConversationMember(id: "b", name: "B", online: !present, isBot: present),
                ConversationMember(
                    id: "c", name: nil, online: false, lastSeenAt: present ? Int64.max : nil, lastSeen: present ? nil : .withinMonth),
            ]
            let activity = ActivityFrameWriterTests.updates[index % ActivityFrameWriterTests.updates.count]
            frames += [
                .welcome(
                    .init(
                        user: participants[0], serverTime: Int64.min,
                        config: .init(
                            activityTTL: 6_000, refreshInterval: 2_000, idleTimeout: 5_000, storesMessages: present,
                            pingInterval: present ? 30_000 : nil, maxMessageLength: present ? 4_000 : nil,
                            maxFrameSize: present ? nil : 65_536, serverVersion: present ? text : nil)
                    )),
                .subscribed(
                    .init(
                        conversation: text, participants: present ? participants : [], activity: activity,
                        recentMessages: present ? [message, message] : [], presence: present ? false : nil,
                        unread: present ? index : nil, reads: present ? [.init(user: text, messageId: "\(index)", at: Int64.max)] : nil,
                        delivered: present ? nil : [.init(user: text, messageId: text, at: Int64.min)])),
                .presence(.init(conversation: text, user: text + "u", online: present)),
                .presence(
                    .init(
                        conversation: text, user: text + "u", online: false, lastSeenAt: present ? Int64(index) * 60_000 : nil,
                        lastSeen: present ? nil : .recently)),
                .message(message),
                .ack(.init(clientMessageId: text, messageId: "\(index)")),
                .stream(
                    .init(conversation: text, messageId: text + "r", user: "bot", delta: text, final: present, thread: present ? text : nil)
                ),
                .stream(
                    .init(
                        conversation: text, messageId: text + "r", user: "bot", delta: "", final: true, seq: present ? Int64(index) : nil,
                        end: present ? .cancelled : .init(rawValue: text), by: present ? text : nil, reason: present ? nil : text,
                        asker: present ? nil : text, text: present ? text : nil)),
                .cancel(.init(conversation: text, messageId: text + "r", by: text + "u")),
                .error(
                    .init(
                        code: .init(rawValue: present ? text : "forbidden"), message: text, ref: present ? text : nil,
                        request: present ? nil : text)),
                .refreshed(.init(expiresAt: Int64(index) * 1_000_000)),
                .receipts(
                    .init(
                        conversation: text, thread: present ? text : nil,
                        reads: present ? [.init(user: text, messageId: text, at: Int64.min), .init(user: "b", messageId: "1", at: 0)] : [],
                        delivered: present ? [.init(user: "c", messageId: text, at: 1)] : nil)),
                .unread(.init(conversation: text, thread: present ? nil : text, messageId: text, count: index)),
                .activity(activity),
            ]
        }
        return frames
    }

    @Test(arguments: frames)
    func writesTheSameJSONValueAsJSONEncoder(_ frame: ServerFrame) throws {
        let written = Data(FrameCodec.encodeText(frame).utf8)
        let reference = FrameCodec.encode(frame)
        #expect(try FrameCodec.decodeServerFrame(written) == frame)
        // The same keys and values, nil fields left out alike: compared as JSON values, not as bytes
        // (the order of keys differs).
        let writtenObject = try #require(try JSONSerialization.jsonObject(with: written) as? NSDictionary)
        let referenceObject = try #require(try JSONSerialization.jsonObject(with: reference) as? NSDictionary)
        #expect(writtenObject.isEqual(referenceObject), "\(String(decoding: written, as: UTF8.self))")
    }

    @Test func aWelcomeIsWrittenInOneKnownForm() {
        let welcome = ServerFrame.welcome(
            .init(
                user: .init(id: "alice", name: nil, online: true), serverTime: 7,
                config: .init(activityTTL: 6_000, refreshInterval: 2_000, idleTimeout: 5_000, pingInterval: 30_000)))
        #expect(
            FrameCodec.encodeText(welcome)
                == #"{"type":"welcome","user":{"id":"alice","online":true},"serverTime":7,"config":{"activityTTL":6000,"#
                + #""refreshInterval":2000,"idleTimeout":5000,"storesMessages":true,"pingInterval":30000}}"#)
    }
}
