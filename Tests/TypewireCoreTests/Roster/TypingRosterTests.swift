import Clocks
import Testing
import TypewireCore

@Suite("TypingRoster: what the receiver shows", .timeLimit(.minutes(1)))
final class TypingRosterTests {
    typealias Roster = TypingRoster<TestClock<Duration>.Instant>

    let clock = TestClock()
    var roster = Roster(currentUserID: "me", participants: ["me", "alice", "bob", "carol", "dave"])

    /// An update built at server time 10 000 ms, entries living `ttl` ms from their start.
    func update(_ users: [(String, Int64)], ttl: Int64 = 5_000, serverTime: Int64 = 10_000) -> ActivityUpdate {
        ActivityUpdate(
            conversation: "c1",
            entries: users.map { user, since in
                ActivityEntry(user: user, name: user.capitalized, activity: .typing, since: since, expiresAt: since + ttl)
            },
            serverTime: serverTime
        )
    }

    func removeExpired() -> Bool { roster.removeExpired(now: clock.now) }

    func shown(_ roster: Roster) -> [String] { roster.typers(at: clock.now).map(\.userID) }

    @Test func appliesTheServersState() {
        let test = self
        test.roster.apply(test.update([("alice", 9_000), ("bob", 9_500)]), now: test.clock.now)
        #expect(test.shown(test.roster) == ["alice", "bob"])
        #expect(test.roster.typers(at: test.clock.now).first?.name == "Alice")
        test.roster.apply(test.update([("bob", 9_500)]), now: test.clock.now)
        #expect(test.shown(test.roster) == ["bob"], "a user missing from the update stopped")
        test.roster.apply(test.update([]), now: test.clock.now)
        #expect(test.shown(test.roster) == [])
    }

    @Test func remembersHowManyActiveMembersTheServerCountedButDidNotList() {
        let test = self
        var large = test.update([("alice", 9_000), ("bob", 9_100)])
        large.total = 5
        test.roster.apply(large, now: test.clock.now)
        #expect(test.roster.unlisted == 3)
        test.roster.apply(test.update([("alice", 9_000)]), now: test.clock.now)
        #expect(test.roster.unlisted == 0)
    }

    @Test func aUserListedInSeveralThreadsIsNotCountedAgainAsUnlisted() {
        let test = self
        // Listed: alice in three timelines and bob; counted: them and one more.
        var update = test.update([("alice", 9_000), ("bob", 9_100)])
        update.entries += (1...2).map {
            ActivityEntry(user: "alice", name: "Alice", activity: .typing, since: 9_000, expiresAt: 12_000, thread: "t\($0)")
        }
        update.total = 3
        test.roster.apply(update, now: test.clock.now)
        #expect(test.roster.unlisted == 1)
        #expect(ActivityUpdate(conversation: "c", entries: update.entries, serverTime: 9_000).total == 2)
    }

    @Test func dropsTheCurrentUser() {
        let test = self
        test.roster.apply(test.update([("me", 9_000), ("alice", 9_000)]), now: test.clock.now)
        #expect(test.shown(test.roster) == ["alice"])
    }

    @Test func dropsUsersWhoAreNotParticipants() {
        let test = self
        test.roster.apply(test.update([("mallory", 9_000), ("alice", 9_100)]), now: test.clock.now)
        #expect(test.shown(test.roster) == ["alice"])
        test.roster.setParticipants(["me", "bob"])
        #expect(test.shown(test.roster) == [], "a removed participant's entry goes at once")
        test.roster.apply(test.update([("alice", 9_100), ("bob", 9_200)]), now: test.clock.now)
        #expect(test.shown(test.roster) == ["bob"])
    }

    @Test func dropsUsersKnownToBeOffline() {
        let test = self
        test.roster.apply(test.update([("alice", 9_000), ("bob", 9_100)]), now: test.clock.now)
        test.roster.setOnline(false, user: "alice")
        #expect(test.shown(test.roster) == ["bob"])
        test.roster.apply(test.update([("alice", 9_000), ("bob", 9_100)]), now: test.clock.now)
        #expect(test.shown(test.roster) == ["bob"], "a stale update does not bring an offline user back")
        test.roster.setOnline(true, user: "alice")
        test.roster.apply(test.update([("alice", 9_000), ("bob", 9_100)]), now: test.clock.now)
        #expect(test.shown(test.roster) == ["bob", "alice"])
    }

    @Test func entriesExpireByTheInjectedClockEvenWithoutAStop() async {
        let test = self
        // Alice's entry has 4 s left (expires 14 000, server now 10 000); Bob's 1 s.
        test.roster.apply(test.update([("alice", 9_000), ("bob", 6_000)]), now: test.clock.now)
        #expect(test.roster.nextDeadline == test.clock.now.advanced(by: .seconds(1)))
        await test.clock.advance(by: .milliseconds(999))
        #expect(test.shown(test.roster) == ["bob", "alice"])
        await test.clock.advance(by: .milliseconds(1))
        #expect(test.shown(test.roster) == ["alice"], "Bob's entry is gone exactly at its expiry")
        #expect(test.removeExpired())
        #expect(test.roster.nextDeadline == test.clock.now.advanced(by: .seconds(3)))
        await test.clock.advance(by: .seconds(3))
        #expect(test.shown(test.roster) == [])
        #expect(test.removeExpired())
        #expect(test.roster.nextDeadline == nil)
        #expect(!test.removeExpired())
    }

    @Test func expiryIgnoresSkewBetweenServerAndClientClocks() async {
        let test = self
        // The server's clock is far ahead of anything the client knows; only expiresAt - serverTime counts.
        let skewed = test.update([("alice", 1_000_000_000)], ttl: 5_000, serverTime: 1_000_000_000)
        test.roster.apply(skewed, now: test.clock.now)
        await test.clock.advance(by: .milliseconds(4_999))
        #expect(test.shown(test.roster) == ["alice"])
        await test.clock.advance(by: .milliseconds(1))
        #expect(test.shown(test.roster) == [])
    }

    @Test func keepsAStableOrder() {
        let test = self
        test.roster.apply(test.update([("bob", 9_500), ("alice", 9_000)]), now: test.clock.now)
        #expect(test.shown(test.roster) == ["alice", "bob"], "newcomers in the order they started")
        // A refresh gives Alice a later `since` and lists her last: she keeps her place.
        test.roster.apply(test.update([("bob", 9_500), ("carol", 9_900), ("alice", 9_950)]), now: test.clock.now)
        #expect(test.shown(test.roster) == ["alice", "bob", "carol"])
        test.roster.apply(test.update([("carol", 9_900), ("dave", 9_990), ("bob", 9_500)]), now: test.clock.now)
        #expect(test.shown(test.roster) == ["bob", "carol", "dave"])
    }

    @Test func countsOneUserOnTwoDevicesOnce() async {
        let test = self
        // The laptop has typed since 9 000 and lives until 14 000; the phone began recording at 9 800 and
        // lapses at 11 000.
        var update = test.update([("alice", 9_000), ("alice", 9_800)])
        update.entries[0].expiresAt = 14_000
        update.entries[1].expiresAt = 11_000
        update.entries[1].activity = .recordingAudio
        test.roster.apply(update, now: test.clock.now)
        #expect(test.shown(test.roster) == ["alice"])
        #expect(test.roster.typers(at: test.clock.now).first?.activity == .recordingAudio, "the latest activity shows")
        await test.clock.advance(by: .seconds(2))
        #expect(test.shown(test.roster) == ["alice"], "the later expiry keeps her shown")
        await test.clock.advance(by: .seconds(2))
        #expect(test.shown(test.roster) == [])
    }

    @Test func ignoresEntriesWhoseActivityIsNone() {
        let test = self
        var update = test.update([("alice", 9_000)])
        update.entries[0].activity = .none
        test.roster.apply(update, now: test.clock.now)
        #expect(test.shown(test.roster) == [])
    }
}
