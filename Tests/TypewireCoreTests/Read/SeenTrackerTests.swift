import Testing
import TypewireCore

@Suite("SeenTracker: seen means on an active screen for a while")
struct SeenTrackerTests {
    typealias Tracker = SeenTracker<ContinuousClock.Instant>
    static let start = ContinuousClock.now
    static func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
    static func on(_ ids: Int...) -> [Tracker.Visible] { ids.map { .init(messageId: "m\($0)", position: Int64($0)) } }

    @Test func aMessageOnAnActiveScreenForTheDwellIsSeenTheNewestOnce() {
        var tracker = Tracker()
        #expect(tracker.activeChanged(true, now: Self.at(0)) == nil)
        #expect(tracker.visibleChanged(Self.on(1, 2, 3), now: Self.at(0)) == nil)
        #expect(tracker.nextDeadline == Self.at(1_000))
        #expect(tracker.tick(now: Self.at(999)) == nil)
        #expect(tracker.tick(now: Self.at(1_000)) == "m3", "the newest of those seen")
        #expect(tracker.tick(now: Self.at(5_000)) == nil && tracker.nextDeadline == nil, "answered once")
        // Scrolling up to older messages reads nothing new; a newer one arriving is seen after its dwell.
        #expect(tracker.visibleChanged(Self.on(1, 2), now: Self.at(5_000)) == nil)
        #expect(tracker.tick(now: Self.at(7_000)) == nil)
        #expect(tracker.visibleChanged(Self.on(2, 3, 4), now: Self.at(7_000)) == nil)
        #expect(tracker.tick(now: Self.at(8_000)) == "m4")
    }

    @Test func scrolledPastOrOnAnInactiveScreenIsNotSeen() {
        var tracker = Tracker()
        _ = tracker.activeChanged(true, now: Self.at(0))
        _ = tracker.visibleChanged(Self.on(1), now: Self.at(0))
        _ = tracker.visibleChanged(Self.on(2), now: Self.at(500))  // 1 scrolled away before its dwell
        #expect(tracker.tick(now: Self.at(1_400)) == nil, "m2 has been on screen 0.9 s, m1 left")
        // The app goes to the background (or a call covers the screen): nothing is seen while inactive.
        #expect(tracker.activeChanged(false, now: Self.at(1_400)) == nil)
        #expect(tracker.nextDeadline == nil && tracker.tick(now: Self.at(60_000)) == nil)
        _ = tracker.visibleChanged(Self.on(2, 3), now: Self.at(60_000))
        #expect(tracker.tick(now: Self.at(61_000)) == nil)
        // Back on screen: the dwell starts again.
        _ = tracker.activeChanged(true, now: Self.at(70_000))
        #expect(tracker.tick(now: Self.at(70_999)) == nil)
        #expect(tracker.tick(now: Self.at(71_000)) == "m3")
    }

    @Test func afterMarkUnreadWhatIsOnScreenIsSeenAgainOnlyOnceItLeftAndCameBack() {
        var tracker = Tracker()
        _ = tracker.activeChanged(true, now: Self.at(0))
        _ = tracker.visibleChanged(Self.on(1, 2, 3), now: Self.at(0))
        #expect(tracker.tick(now: Self.at(1_000)) == "m3")
        tracker.markedUnread(from: 2)
        #expect(tracker.nextDeadline == nil && tracker.tick(now: Self.at(10_000)) == nil, "still on screen: not read again")
        _ = tracker.visibleChanged(Self.on(1, 2), now: Self.at(10_000))  // 3 scrolls away; 1 and 2 stay held
        #expect(tracker.tick(now: Self.at(20_000)) == nil)
        _ = tracker.visibleChanged(Self.on(1, 2, 3), now: Self.at(20_000))  // 3 back: seen anew
        #expect(tracker.tick(now: Self.at(21_000)) == "m3", "answered again: the mark moved back before it")
        // The screen closes and opens again: everything on it is seen anew.
        tracker.markedUnread(from: 3)
        _ = tracker.activeChanged(false, now: Self.at(30_000))
        _ = tracker.activeChanged(true, now: Self.at(40_000))
        #expect(tracker.tick(now: Self.at(41_000)) == "m3")
        // From the very first place: the arithmetic does not trap.
        tracker.markedUnread(from: .min)
        #expect(tracker.reportedPosition == nil)
    }
}
