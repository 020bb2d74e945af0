import Testing
import TypewireCore

@testable import TypewireServer

@Suite("ActivityBoard: one entry per user and thread")
struct ActivityBoardThreadTests {
    @Test func typingInAThreadIsAnEntryOfItsOwn() {
        var board = ActivityBoard(ttl: 5_000)
        _ = board.set(.typing, in: "c", connection: 1, user: "alice", name: "Alice", now: 1_000)
        _ = board.set(.typing, in: "c", connection: 2, user: "alice", name: "Alice", now: 1_500, thread: "7")
        _ = board.set(.typing, in: "c", connection: 3, user: "bob", name: "Bob", now: 2_000, thread: "7")
        #expect(
            board.entries(in: "c") == [
                ActivityEntry(user: "alice", name: "Alice", activity: .typing, since: 1_000, expiresAt: 6_000),
                ActivityEntry(user: "alice", name: "Alice", activity: .typing, since: 1_500, expiresAt: 6_500, thread: "7"),
                ActivityEntry(user: "bob", name: "Bob", activity: .typing, since: 2_000, expiresAt: 7_000, thread: "7"),
            ])
        #expect(board.activity(of: 2, in: "c", thread: "7") == .typing)
        #expect(board.activity(of: 2, in: "c") == .none, "the thread's composer is not the main timeline's")
    }

    @Test func aMessageInAThreadStopsThatThreadsTypingOnly() {
        var board = ActivityBoard(ttl: 5_000)
        _ = board.set(.typing, in: "c", connection: 1, user: "alice", name: "Alice", now: 1_000)
        _ = board.set(.typing, in: "c", connection: 1, user: "alice", name: "Alice", now: 1_000, thread: "7")
        _ = board.set(.typing, in: "c", connection: 1, user: "alice", name: "Alice", now: 1_000, thread: "8")
        let clearedSeven = board.clear(user: "alice", in: "c", thread: "7")
        #expect(clearedSeven)
        #expect(board.entries(in: "c").map(\.thread) == [nil, "8"])
        let clearedMain = board.clear(user: "alice", in: "c", thread: nil)
        #expect(clearedMain)
        #expect(board.entries(in: "c").map(\.thread) == ["8"])
        let clearedAgain = board.clear(user: "alice", in: "c", thread: "7")
        #expect(!clearedAgain, "nothing left there")
        let clearedAll = board.clear(user: "alice", in: "c")
        #expect(clearedAll, "a removal clears every thread")
        #expect(board.entries(in: "c").isEmpty)
    }

    @Test func aClosedSocketLeavesNoThreadBehind() {
        var board = ActivityBoard(ttl: 5_000)
        _ = board.set(.typing, in: "c", connection: 1, user: "alice", name: "Alice", now: 1_000, thread: "7")
        _ = board.set(.typing, in: "d", connection: 1, user: "alice", name: "Alice", now: 1_000)
        _ = board.set(.typing, in: "c", connection: 2, user: "bob", name: "Bob", now: 1_000, thread: "7")
        let changed = board.clear(connection: 1)
        #expect(Set(changed) == ["c", "d"])
        #expect(board.entries(in: "c").map(\.user) == ["bob"])
    }

    @Test func aDeviceHoldsAtMostAFewThreadsOfAConversation() {
        var board = ActivityBoard(ttl: 5_000)
        for index in 0..<(ActivityBoard.threadsPerDevice + 3) {
            _ = board.set(.typing, in: "c", connection: 1, user: "alice", name: "Alice", now: Int64(1_000 + index), thread: "\(index)")
        }
        let threads = board.entries(in: "c").compactMap(\.thread)
        #expect(threads.count == ActivityBoard.threadsPerDevice, "a client cannot grow the board by naming threads")
        #expect(threads == (3..<(ActivityBoard.threadsPerDevice + 3)).map(String.init), "the newest are kept")
    }

    @Test func anotherNodesSliceKeepsItsThreads() {
        var board = ActivityBoard(ttl: 5_000)
        let slice = [
            ActivityEntry(user: "bob", name: "Bob", activity: .typing, since: 1, expiresAt: 9, thread: "7"),
            ActivityEntry(user: "bob", name: "Bob", activity: .typing, since: 2, expiresAt: 9),
        ]
        let changed = board.replace(slice: slice, of: "n2", in: "c")
        #expect(changed)
        #expect(board.entries(in: "c") == slice)
        let again = board.replace(slice: slice, of: "n2", in: "c")
        #expect(!again, "the same slice changes nothing")
    }
}
