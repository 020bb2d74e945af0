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

@Suite("TypingRoster: who replies in each thread")
struct TypingRosterReplyingTests {
    let now = ContinuousClock.now
    let members: Set<String> = ["me", "alice", "bob", "carol", "dave"]

    private func update(_ entries: [ActivityEntry]) -> ActivityUpdate {
        ActivityUpdate(conversation: "c1", entries: entries, serverTime: 0)
    }

    @Test func theMainTimelineCountsEachThreadsMembers() {
        var main = TypingRoster<ContinuousClock.Instant>(currentUserID: "me", participants: members)
        main.apply(
            update([
                ActivityEntry(user: "alice", name: "Alice", activity: .typing, since: 1, expiresAt: 5_000),
                ActivityEntry(user: "bob", name: "Bob", activity: .typing, since: 2, expiresAt: 5_000, thread: "42"),
                ActivityEntry(user: "carol", name: "Carol", activity: .thinking, since: 3, expiresAt: 5_000, thread: "42"),
                // Bob on a second device, in the same thread: one member.
                ActivityEntry(user: "bob", name: "Bob", activity: .typing, since: 4, expiresAt: 6_000, thread: "42"),
                ActivityEntry(user: "dave", name: "Dave", activity: .typing, since: 4, expiresAt: 5_000, thread: "43"),
                ActivityEntry(user: "me", name: "Me", activity: .typing, since: 5, expiresAt: 5_000, thread: "43"),
                ActivityEntry(user: "alice", name: "Alice", activity: .none, since: 6, expiresAt: 5_000, thread: "44"),
            ]), now: now)
        #expect(main.replying(at: now) == ["42": 2, "43": 1], "the user's own typing and a stop count for no one")
        #expect(main.typers(at: now).map(\.userID) == ["alice"])
    }

    @Test func countsFollowExpiryPresenceAndMembership() {
        var main = TypingRoster<ContinuousClock.Instant>(currentUserID: "me", participants: members)
        main.apply(
            update([
                ActivityEntry(user: "bob", name: "Bob", activity: .typing, since: 2, expiresAt: 3_000, thread: "42"),
                ActivityEntry(user: "carol", name: "Carol", activity: .typing, since: 3, expiresAt: 5_000, thread: "42"),
                ActivityEntry(user: "dave", name: "Dave", activity: .typing, since: 4, expiresAt: 5_000, thread: "43"),
            ]), now: now)
        #expect(main.nextDeadline == now + .seconds(3), "a thread's entry wakes the shell too")
        #expect(main.replying(at: now + .seconds(3)) == ["42": 1, "43": 1])
        let removed = main.removeExpired(now: now + .seconds(3))
        #expect(removed)
        #expect(main.nextDeadline == now + .seconds(5))
        main.setOnline(false, user: "carol")
        #expect(main.replying(at: now) == ["43": 1])
        main.setParticipants(["me", "alice", "bob", "carol"])
        #expect(main.replying(at: now).isEmpty)
        #expect(main.nextDeadline == nil)
    }

    @Test func aThreadsRosterCountsNoOtherThread() {
        var thread = TypingRoster<ContinuousClock.Instant>(currentUserID: "me", participants: members, thread: "42")
        thread.apply(
            update([ActivityEntry(user: "dave", name: "Dave", activity: .typing, since: 4, expiresAt: 5_000, thread: "43")]), now: now)
        #expect(thread.replying(at: now).isEmpty)
        #expect(thread.nextDeadline == nil)
    }

    @Test func eachUpdateReplacesTheCounts() {
        var main = TypingRoster<ContinuousClock.Instant>(currentUserID: "me", participants: members)
        main.apply(update([ActivityEntry(user: "bob", name: "Bob", activity: .typing, since: 2, expiresAt: 5_000, thread: "42")]), now: now)
        main.apply(update([]), now: now)
        #expect(main.replying(at: now).isEmpty)
    }
}
