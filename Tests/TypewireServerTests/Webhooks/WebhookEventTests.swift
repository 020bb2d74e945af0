import Foundation
import Testing
import TypewireCore

@testable import TypewireServer

@Suite struct WebhookEventTests {
    private func document(_ payload: WebhookEvent.Payload) throws -> [String: Any] {
        let body = WebhookEvent(id: "evt_00000000000000010000000000000002", createdAt: 42, payload: payload).body()
        return try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    }

    @Test func everyEventHasItsIdTypeTimeAndData() throws {
        let message = ChatMessage(
            conversation: "c", id: "7", sender: "alice", senderName: "Alice", text: "hi", sentAt: 40, clientMessageId: "m1")
        let created = try document(.messageCreated(message, offline: ["bob", "carol"]))
        #expect(created["id"] as? String == "evt_00000000000000010000000000000002")
        #expect(created["type"] as? String == "message.created")
        #expect(created["createdAt"] as? Int == 42)
        let data = try #require(created["data"] as? [String: Any])
        #expect(data["offline"] as? [String] == ["bob", "carol"])
        #expect((data["message"] as? [String: Any])?["text"] as? String == "hi")
        #expect(Set(data.keys) == ["message", "offline"], "no field of another type")

        let members = try #require(
            try document(.membersChanged(conversation: "c", added: ["dave"], removed: [], deleted: false))["data"] as? [String: Any])
        #expect(members["conversation"] as? String == "c")
        #expect(members["added"] as? [String] == ["dave"])
        #expect(members["removed"] as? [String] == [])
        #expect(members["deleted"] as? Bool == false)

        let reply = try #require(try document(.replyStarted(conversation: "c", replyId: "r1", bot: "clawd"))["data"] as? [String: Any])
        #expect(reply as NSDictionary == ["conversation": "c", "replyId": "r1", "bot": "clawd"] as NSDictionary)
        let activity = try #require(
            try document(.activityChanged(conversation: "c", user: "clawd", activity: .toolUse("web_search")))["data"] as? [String: Any])
        #expect(
            activity as NSDictionary == ["conversation": "c", "user": "clawd", "activity": "tool", "detail": "web_search"] as NSDictionary)
        let inThread = try #require(
            try document(.activityChanged(conversation: "c", user: "bob", activity: .typing, thread: "42"))["data"] as? [String: Any])
        #expect(inThread as NSDictionary == ["conversation": "c", "user": "bob", "activity": "typing", "thread": "42"] as NSDictionary)
    }

    @Test func equalEventsAreEqualBytes() {
        let event = WebhookEvent(id: "evt_1", createdAt: 1, payload: .presenceChanged(user: "alice", online: true))
        #expect(event.body() == event.body())
        #expect(event.body() == #"{"createdAt":1,"data":{"online":true,"user":"alice"},"id":"evt_1","type":"presence.changed"}"#)
    }

    @Test func idsAreEvtAnd32HexDigitsAndDiffer() {
        var generator = SplitMix64(seed: 3)
        let ids = (0..<1_000).map { _ in WebhookEvent.makeID(using: &generator) }
        #expect(Set(ids).count == 1_000)
        #expect(ids.allSatisfy { $0.hasPrefix("evt_") && $0.count == 36 && $0.dropFirst(4).allSatisfy(\.isHexDigit) })
    }

    @Test func theDefaultTypesAreAllButActivityReadsAndReminders() {
        #expect(WebhookEventType.defaults == Set(WebhookEventType.allCases).subtracting([.activityChanged, .messageRead, .unreadReminder]))
    }

    @Test func aReadSaysWhoReadWhatAndWhenAndALaterOneOfTheSameTimelineReplacesIt() throws {
        let read = WebhookEvent.Payload.messageRead(
            conversation: "c", thread: "42", mark: ReadMark(user: "bob", messageId: "43", at: 40), isPrivate: true)
        let data = try #require(try document(read)["data"] as? [String: Any])
        #expect(
            data as NSDictionary
                == ["conversation": "c", "thread": "42", "user": "bob", "messageId": "43", "at": 40, "private": true] as NSDictionary)
        func key(_ user: String, thread: String?, conversation: String = "c") -> String? {
            WebhookEvent(
                id: "evt_1", createdAt: 1,
                payload: .messageRead(
                    conversation: conversation, thread: thread, mark: ReadMark(user: user, messageId: "1", at: 1), isPrivate: false)
            ).coalescingKey
        }
        #expect(key("bob", thread: nil) == key("bob", thread: nil))
        #expect(
            Set([key("bob", thread: nil), key("bob", thread: "42"), key("carol", thread: nil), key("bob", thread: nil, conversation: "d")])
                .count == 4)
    }
}
