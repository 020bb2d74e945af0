import Testing
import TypewireCore

@testable import TypewireServer

@Suite("ActivityBoard: per device, fanned out per user")
struct ActivityBoardTests {
    var board = ActivityBoard(ttl: 5_000)

    @Test func setStampsSinceAndExpiry() {
        var board = board
        let result1 = board.set(.typing, in: "c", connection: 1, user: "alice", name: "Alice", now: 1_000)
        #expect(result1)
        #expect(board.entries(in: "c") == [ActivityEntry(user: "alice", name: "Alice", activity: .typing, since: 1_000, expiresAt: 6_000)])
        let result2 = board.set(.typing, in: "c", connection: 1, user: "alice", name: "Alice", now: 3_000)
        #expect(result2, "a refresh moves expiresAt")
        #expect(board.entries(in: "c").first?.since == 1_000, "a refresh keeps since")
        #expect(board.entries(in: "c").first?.expiresAt == 8_000)
        let result3 = board.set(.thinking, in: "c", connection: 1, user: "alice", name: "Alice", now: 4_000)
        #expect(result3)
        #expect(board.entries(in: "c").first?.since == 4_000, "a new activity starts anew")
        let result4 = board.set(.none, in: "c", connection: 1, user: "alice", name: "Alice", now: 4_500)
        #expect(result4)
        #expect(board.entries(in: "c").isEmpty)
        let result5 = board.set(.none, in: "c", connection: 1, user: "alice", name: "Alice", now: 4_600)
        #expect(!result5, "nothing to clear")
    }

    @Test func twoDevicesOfOneUserAreOneEntry() {
        var board = board
        _ = board.set(.typing, in: "c", connection: 1, user: "alice", name: "Alice", now: 1_000)
        _ = board.set(.typing, in: "c", connection: 2, user: "alice", name: "Alice", now: 2_000)
        #expect(board.entries(in: "c") == [ActivityEntry(user: "alice", name: "Alice", activity: .typing, since: 1_000, expiresAt: 7_000)])
        _ = board.set(.none, in: "c", connection: 1, user: "alice", name: "Alice", now: 2_500)
        #expect(board.entries(in: "c").count == 1, "the laptop still types when the phone stops")
        let result6 = board.clear(connection: 2)
        #expect(result6 == ["c"])
        #expect(board.entries(in: "c").isEmpty)
    }

    @Test func slicesFromOtherNodesMergeWithLocalEntriesAndLeaveWithTheirNode() {
        var board = board
        _ = board.set(.typing, in: "c", connection: 1, user: "alice", name: "Alice", now: 1_000)
        let bob = ActivityEntry(user: "bob", name: "Bob", activity: .typing, since: 900, expiresAt: 5_900)
        let carol = ActivityEntry(user: "carol", name: "Carol", activity: .thinking, since: 1_100, expiresAt: 6_100)
        let changed1 = board.replace(slice: [bob], of: "node-b", in: "c")
        let changed2 = board.replace(slice: [carol], of: "node-c", in: "c")
        #expect(changed1 && changed2)
        #expect(board.entries(in: "c").map(\.user) == ["bob", "alice", "carol"], "one state, ordered by since")
        #expect(board.entries(in: "c", localOnly: true).map(\.user) == ["alice"], "a node shares only its own users")
        let unchanged = board.replace(slice: [bob], of: "node-b", in: "c")
        #expect(!unchanged, "the same slice again changes nothing")
        let stopped = board.replace(slice: [], of: "node-b", in: "c")
        #expect(stopped, "an empty slice is node b's stop")
        #expect(board.entries(in: "c").map(\.user) == ["alice", "carol"])
        #expect(board.clear(node: "node-c") == ["c"])
        #expect(board.entries(in: "c").map(\.user) == ["alice"], "a dead node's users go; local ones stay")
        _ = board.replace(slice: [bob], of: "node-b", in: "c")
        #expect(board.expire(now: 5_950) == ["c"], "remote entries expire by their own expiresAt")
        #expect(board.entries(in: "c").map(\.user) == ["alice"])
    }

    @Test func expiryDropsOnlyWhatRanOut() {
        var board = board
        _ = board.set(.typing, in: "c", connection: 1, user: "alice", name: nil, now: 1_000)
        _ = board.set(.typing, in: "d", connection: 2, user: "bob", name: nil, now: 3_000)
        #expect(board.nextExpiry == 6_000)
        let result7 = board.expire(now: 5_999)
        #expect(result7 == [])
        let result8 = board.expire(now: 6_000)
        #expect(result8 == ["c"])
        #expect(board.nextExpiry == 8_000)
        #expect(board.entries(in: "d").map(\.user) == ["bob"])
    }

    @Test func clearingAUserClearsAllTheirDevicesInOneConversation() {
        var board = board
        _ = board.set(.typing, in: "c", connection: 1, user: "alice", name: nil, now: 1_000)
        _ = board.set(.typing, in: "c", connection: 2, user: "alice", name: nil, now: 1_000)
        _ = board.set(.typing, in: "c", connection: 3, user: "bob", name: nil, now: 1_500)
        _ = board.set(.typing, in: "d", connection: 1, user: "alice", name: nil, now: 1_000)
        let result9 = board.clear(user: "alice", in: "c")
        #expect(result9)
        #expect(board.entries(in: "c").map(\.user) == ["bob"])
        #expect(board.entries(in: "d").map(\.user) == ["alice"])
        let result10 = board.clear(user: "alice", in: "c")
        #expect(!result10)
    }

    @Test func entriesAreInTheOrderUsersStarted() {
        var board = board
        _ = board.set(.typing, in: "c", connection: 3, user: "carol", name: nil, now: 3_000)
        _ = board.set(.typing, in: "c", connection: 1, user: "alice", name: nil, now: 1_000)
        _ = board.set(.typing, in: "c", connection: 2, user: "bob", name: nil, now: 2_000)
        #expect(board.entries(in: "c").map(\.user) == ["alice", "bob", "carol"])
    }
}
