import Testing
import TypewireCore

@Suite("LastSeen: the buckets of a hidden last seen, and the minute of an exact one")
struct LastSeenTests {
    static let day: Int64 = 86_400_000

    @Test func eachBucketEndsWhereTheNextBegins() {
        let now: Int64 = 1_800_000_000_000
        #expect(LastSeen(lastSeenAt: now, now: now) == .recently)
        #expect(LastSeen(lastSeenAt: now - 3 * Self.day, now: now) == .recently)
        #expect(LastSeen(lastSeenAt: now - 3 * Self.day - 1, now: now) == .withinWeek)
        #expect(LastSeen(lastSeenAt: now - 7 * Self.day, now: now) == .withinWeek)
        #expect(LastSeen(lastSeenAt: now - 7 * Self.day - 1, now: now) == .withinMonth)
        #expect(LastSeen(lastSeenAt: now - 30 * Self.day, now: now) == .withinMonth)
        #expect(LastSeen(lastSeenAt: now - 30 * Self.day - 1, now: now) == .longAgo)
        #expect(LastSeen(lastSeenAt: now + 60_000, now: now) == .recently, "a clock behind the writer's")
    }

    @Test func extremeTimesDoNotTrap() {
        #expect(LastSeen(lastSeenAt: .min, now: .max) == .longAgo)
        #expect(LastSeen(lastSeenAt: .max, now: .min) == .recently)
        #expect(LastSeen.floored(.min + 1) <= .min + 1)
    }

    @Test func anExactLastSeenIsFlooredToTheMinute() {
        #expect(LastSeen.floored(1_800_000_059_999) == 1_800_000_000_000)
        #expect(LastSeen.floored(1_800_000_000_000) == 1_800_000_000_000)
        #expect(LastSeen.floored(-1) == -60_000)
    }

    @Test func theWireNamesAreSnakeCase() throws {
        #expect(
            [LastSeen.recently, .withinWeek, .withinMonth, .longAgo].map(\.rawValue) == [
                "recently", "within_week", "within_month", "long_ago",
            ])
    }
}
