import Testing
import TypewireCore

@Suite("ReadState: unread counts and who has read what")
struct ReadStateTests {
    static func message(_ id: String, from sender: String, at time: Int64 = 0) -> ChatMessage {
        ChatMessage(conversation: "c1", id: id, sender: sender, senderName: nil, text: id, sentAt: time)
    }

    static func subscribed(unread: Int?, reads: [ReadMark]?, readCounts: [ReadCount]? = nil) -> ServerFrame.Subscribed {
        ServerFrame.Subscribed(
            conversation: "c1", participants: [], activity: .init(conversation: "c1", entries: [], serverTime: 0), recentMessages: [],
            unread: unread, reads: reads, readCounts: readCounts)
    }

    /// The order of the timeline "1" … "5".
    static func position(_ id: String) -> Int? { Int(id) }

    @Test func theServersCountsReplaceTheClientsAndOthersMessagesAddToThem() {
        var state = ReadState()
        state.subscribed(
            Self.subscribed(unread: 2, reads: [.init(user: "alice", messageId: "1", at: 10), .init(user: "bob", messageId: "2", at: 20)]),
            currentUser: "alice")
        #expect(state.unreadCount == 2 && state.ownMark == "1" && Set(state.marks.keys) == ["bob"])
        state.messageArrived(Self.message("4", from: "bob"), currentUser: "alice")
        #expect(state.unreadCount == 3 && state.marks["bob"]?.messageId == "4", "Bob has read what he sent")
        state.apply(ServerFrame.Unread(conversation: "c1", messageId: "3", count: 1))  // read on her phone
        #expect(state.unreadCount == 1 && state.ownMark == "3")
        state.messageArrived(Self.message("5", from: "alice"), currentUser: "alice")
        #expect(state.unreadCount == 0 && state.ownMark == "5", "a send is a read")
        // A typing-only server says nothing of read state: nothing is lost.
        state.subscribed(Self.subscribed(unread: nil, reads: nil), currentUser: "alice")
        #expect(state.ownMark == "5" && state.marks["bob"]?.messageId == "4")
    }

    @Test func theCountStopsAtTheServersCap() {
        var state = ReadState()
        state.subscribed(Self.subscribed(unread: 998, reads: []), currentUser: "alice")
        #expect(!state.unreadCountIsCapped)
        for id in ["a", "b", "c"] { state.messageArrived(Self.message(id, from: "bob"), currentUser: "alice") }
        #expect(state.unreadCount == WireProtocol.maxUnreadCount && state.unreadCountIsCapped)
    }

    @Test func seenByNamesTheMembersWhoseMarkIsAtOrPastAMessageInTheOrderTheyRead() {
        var state = ReadState()
        state.apply(
            ServerFrame.Receipts(
                conversation: "c1",
                reads: [
                    .init(user: "carol", messageId: "3", at: 30), .init(user: "bob", messageId: "2", at: 20),
                    .init(user: "dave", messageId: "1", at: 40), .init(user: "alice", messageId: "3", at: 35),
                    .init(user: "erin", messageId: "zz", at: 50),
                ]),
            currentUser: "alice")
        #expect(state.ownMark == "3" && state.marks["alice"] == nil, "her own mark is not another's")
        #expect(state.readers(of: "2", sentBy: "alice", position: Self.position) == .named(["bob", "carol"]))
        #expect(state.readers(of: "3", sentBy: "carol", position: Self.position) == .named([]), "not its sender")
        #expect(state.readers(of: "x", sentBy: "alice", position: Self.position) == .unknown, "a message the timeline lacks")
    }

    @Test func aLargeGroupCountsItsReaders() {
        var state = ReadState()
        state.subscribed(
            Self.subscribed(unread: 0, reads: [], readCounts: [.init(messageId: "5", readers: 37), .init(messageId: "4", readers: 40)]),
            currentUser: "alice")
        #expect(state.readers(of: "5", sentBy: "alice", position: Self.position) == .counted(37))
        #expect(state.readers(of: "1", sentBy: "alice", position: Self.position) == .unknown, "only the newest are counted")
        state.apply(
            ServerFrame.Receipts(conversation: "c1", reads: [], readCounts: [.init(messageId: "5", readers: 38)]), currentUser: "alice")
        #expect(state.readers(of: "5", sentBy: "alice", position: Self.position) == .counted(38))
    }

    @Test func aMessageIsDeliveredOnceOnEveryOtherMembersDeviceAndReadOnceEveryOneReadIt() {
        var state = ReadState()
        var snapshot = Self.subscribed(unread: 0, reads: [.init(user: "bob", messageId: "1", at: 10)])
        snapshot.delivered = [.init(user: "bob", messageId: "2", at: 20), .init(user: "alice", messageId: "9", at: 1)]
        state.subscribed(snapshot, currentUser: "alice")
        #expect(state.delivered.keys.sorted() == ["bob"], "her own delivered mark is not another's")
        let others: Set<String> = ["bob", "carol"]
        func progress(_ id: String, _ members: Set<String> = others) -> ReadState.Progress {
            state.progress(of: id, others: members, position: Self.position)
        }
        #expect(progress("2", ["bob"]) == .delivered && progress("1", ["bob"]) == .read && progress("3", ["bob"]) == .sent)
        #expect(progress("1") == .sent, "carol has nothing yet")
        state.apply(
            ServerFrame.Receipts(conversation: "c1", reads: [], delivered: [.init(user: "carol", messageId: "3", at: 30)]),
            currentUser: "alice")
        #expect(progress("2") == .delivered && progress("3") == .sent, "bob's device has 2, not 3")
        state.apply(ServerFrame.Receipts(conversation: "c1", reads: [.init(user: "carol", messageId: "1", at: 40)]), currentUser: "alice")
        #expect(progress("1") == .read && progress("2") == .delivered, "a read counts as delivered")
        state.apply(ServerFrame.Receipts(conversation: "c1", reads: [.init(user: "bob", messageId: "3", at: 50)]), currentUser: "alice")
        #expect(progress("3") == .delivered, "bob read it, carol's device has it")
        #expect(progress("3", []) == .sent && progress("x") == .sent, "no one else, or a message the timeline lacks")
        // A group too large to name its readers: read once every other member is counted.
        state.subscribed(Self.subscribed(unread: 0, reads: [], readCounts: [.init(messageId: "3", readers: 2)]), currentUser: "alice")
        #expect(progress("3") == .read && progress("3", ["bob", "carol", "dave"]) == .sent && progress("2") == .sent)
    }
}
