import Foundation
import Testing

@testable import TypewireClient

/// The outbox's messages as values, and the file that keeps them.
@Suite("Unsent messages")
struct UnsentMessagesTests {
    static func message(_ id: String, by user: String?) -> UnsentMessages.Message {
        .init(clientMessageId: id, conversation: "c1", text: "text \(id)", user: user)
    }

    @Test func aUserClaimsTheirMessagesAndThoseWrittenBeforeAnyWelcomeNotAnothersOnes() {
        var unsent = UnsentMessages()
        unsent.add(Self.message("1", by: "alice"))
        unsent.add(Self.message("2", by: nil))
        unsent.add(Self.message("3", by: "bob"))
        let claimed = unsent.claim(by: "alice").map(\.clientMessageId)
        #expect(claimed == ["1", "2"])
        #expect(unsent.messages.map(\.user) == ["alice", "alice", "bob"], "the message written before a welcome is alice's now")
        #expect(unsent.claim(by: "bob").map(\.clientMessageId) == ["3"])
    }

    @Test func removingKeepsTheOthersInOrder() {
        var unsent = UnsentMessages()
        for id in ["1", "2", "3"] { unsent.add(Self.message(id, by: "alice")) }
        let removed = unsent.remove("2")
        let again = unsent.remove("2")
        #expect(removed)
        #expect(!again)
        #expect(unsent.messages.map(\.clientMessageId) == ["1", "3"])
    }

    @Test func pastItsCapacityTheOldestAreDropped() {
        var unsent = UnsentMessages()
        for index in 0..<(UnsentMessages.capacity + 2) { unsent.add(Self.message("\(index)", by: "alice")) }
        #expect(unsent.messages.count == UnsentMessages.capacity)
        #expect(unsent.messages.first?.clientMessageId == "2")
    }

    @Test func theFileKeepsWhatItWasGivenAndStartsEmpty() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = OutboxFile(url: folder.appendingPathComponent("nested/outbox.json"))
        #expect(try file.load() == UnsentMessages())
        var unsent = UnsentMessages()
        unsent.add(Self.message("1", by: "alice"))
        unsent.add(Self.message("2", by: nil))
        try file.save(unsent)
        #expect(try file.load() == unsent)
    }
}

@Suite("Unsent messages in threads")
struct UnsentThreadMessagesTests {
    @Test func aReplyKeepsItsThreadAndAFileFromBeforeThreadsStillReads() throws {
        let reply = UnsentMessages.Message(clientMessageId: "1", conversation: "c1", thread: "42", text: "me too", user: "alice")
        var unsent = UnsentMessages()
        unsent.add(reply)
        let decoded = try JSONDecoder().decode(UnsentMessages.self, from: JSONEncoder().encode(unsent))
        #expect(decoded.messages == [reply])
        let old = Data(#"{"messages":[{"clientMessageId":"2","conversation":"c1","text":"hi","user":"bob"}]}"#.utf8)
        let read = try JSONDecoder().decode(UnsentMessages.self, from: old)
        #expect(read.messages.map(\.thread) == [nil])
    }
}
