import Testing
import TypewireCore

@Suite("ReadReporter: at most one read a second, none lost")
struct ReadReporterTests {
    typealias Reporter = ReadReporter<ContinuousClock.Instant>
    static let start = ContinuousClock.now
    static func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
    static func read(_ id: String, isPrivate: Bool = false) -> Reporter.Input { .read(.init(messageId: id, isPrivate: isPrivate)) }

    @Test func theFirstReadGoesAtOnceAndLaterOnesAtMostOnceAnIntervalNewestFirst() {
        var reporter = Reporter()
        #expect(reporter.handle(Self.read("1"), now: Self.at(0)) == .init(messageId: "1"))
        #expect(reporter.nextDeadline == nil, "nothing waits")
        #expect(reporter.handle(Self.read("2"), now: Self.at(100)) == nil)
        #expect(reporter.handle(Self.read("3", isPrivate: true), now: Self.at(400)) == nil)
        #expect(reporter.nextDeadline == Self.at(1_000))
        #expect(reporter.tick(now: Self.at(999)) == nil, "early")
        #expect(reporter.tick(now: Self.at(1_000)) == .init(messageId: "3", isPrivate: true), "the newest replaced the one before")
        #expect(reporter.tick(now: Self.at(3_000)) == nil && reporter.nextDeadline == nil)
        #expect(reporter.handle(Self.read("4"), now: Self.at(3_000)) == .init(messageId: "4"), "a read after a quiet interval goes at once")
    }

    @Test func aReadMadeOfflineOrPerhapsLostInTheDropGoesWhenTheConnectionIsBack() {
        var reporter = Reporter()
        _ = reporter.handle(Self.read("1"), now: Self.at(0))
        #expect(reporter.handle(.connectionLost, now: Self.at(10)) == nil)
        #expect(reporter.nextDeadline == nil, "nothing goes while offline")
        #expect(
            reporter.handle(.connectionRestored, now: Self.at(2_000)) == .init(messageId: "1"),
            "the last read may not have reached the server: sent again (marks move forward only)")
        _ = reporter.handle(.connectionLost, now: Self.at(2_100))
        #expect(reporter.handle(Self.read("2"), now: Self.at(5_000)) == nil)
        #expect(reporter.handle(.connectionRestored, now: Self.at(6_000)) == .init(messageId: "2"))
    }

    @Test func closingTheScreenHandsOverWhatWaitsAtOnce() {
        var reporter = Reporter()
        _ = reporter.handle(Self.read("1"), now: Self.at(0))
        _ = reporter.handle(Self.read("2"), now: Self.at(200))
        #expect(reporter.flush(now: Self.at(300)) == .init(messageId: "2"))
        #expect(reporter.flush(now: Self.at(301)) == nil && reporter.waiting == nil)
    }

    @Test func aMarkUnreadReplacesTheReadThatWaitsAndIsWhatGoesAgainAfterADrop() {
        var reporter = Reporter()
        let unread = Reporter.Report(messageId: "2", marksUnread: true)
        _ = reporter.handle(Self.read("1"), now: Self.at(0))
        _ = reporter.handle(Self.read("3"), now: Self.at(100))
        #expect(reporter.handle(.read(unread), now: Self.at(200)) == nil)
        #expect(reporter.tick(now: Self.at(1_000)) == unread, "the read of 3 would undo it: it is replaced")
        _ = reporter.handle(.connectionLost, now: Self.at(1_100))
        #expect(reporter.handle(.connectionRestored, now: Self.at(3_000)) == unread, "the last report, not the read before it")
    }
}
