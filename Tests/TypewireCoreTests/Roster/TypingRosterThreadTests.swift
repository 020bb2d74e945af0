import Testing
import TypewireCore

@Suite("TypingRoster: each timeline its own")
struct TypingRosterThreadTests {
    let now = ContinuousClock.now
    let update = ActivityUpdate(
        conversation: "c1",
        entries: [
            ActivityEntry(user: "alice", name: "Alice", activity: .typing, since: 1, expiresAt: 5_000),
            ActivityEntry(user: "bob", name: "Bob", activity: .typing, since: 2, expiresAt: 5_000, thread: "42"),
            ActivityEntry(user: "carol", name: "Carol", activity: .typing, since: 3, expiresAt: 5_000, thread: "42"),
            ActivityEntry(user: "dave", name: "Dave", activity: .typing, since: 4, expiresAt: 5_000, thread: "43"),
        ],
        serverTime: 10)

    @Test func theMainTimelineShowsNoOneTypingInAThread() {
        var main = TypingRoster<ContinuousClock.Instant>(currentUserID: "me", participants: ["me", "alice", "bob", "carol", "dave"])
        main.apply(update, now: now)
        #expect(main.typers(at: now).map(\.userID) == ["alice"])
        #expect(main.unlisted == 0)
    }

    @Test func aThreadShowsOnlyItsOwnTypers() {
        var thread = TypingRoster<ContinuousClock.Instant>(
            currentUserID: "me", participants: ["me", "alice", "bob", "carol", "dave"], thread: "42")
        thread.apply(update, now: now)
        #expect(thread.typers(at: now).map(\.userID) == ["bob", "carol"])
        #expect(TypingText().replyingText(count: thread.typers(at: now).count) == "2 people are replying…")
    }
}
