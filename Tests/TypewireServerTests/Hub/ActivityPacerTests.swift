import Testing

@testable import TypewireServer

@Suite("ActivityPacer: large groups get at most one activity update per interval")
final class ActivityPacerTests {
    var pacer = ActivityPacer(interval: 100, groupSize: 100, deliveriesPerSecond: 10_000)

    func change(_ conversation: String, _ subscribers: Int, at time: Int64) -> ActivityPacer.Decision {
        pacer.change(in: conversation, subscribers: subscribers, now: time)
    }

    func wake(_ conversation: String, at time: Int64) -> ActivityPacer.Wake {
        pacer.wake(conversation, now: time)
    }

    func takeEarly(_ conversation: String, at time: Int64) -> Bool {
        pacer.takeEarly(conversation, now: time)
    }

    @Test func smallConversationsAreNeverPaced() {
        for time in [0, 1, 2, 3] as [Int64] {
            #expect(change("c", 99, at: time) == .now)
        }
    }

    @Test func theFirstChangeGoesAtOnceAndTheRestOfTheIntervalIsCoalescedIntoOneUpdate() {
        #expect(change("big", 1_000, at: 1_000) == .now)
        #expect(change("big", 1_000, at: 1_010) == .at(1_100))
        #expect(change("big", 1_000, at: 1_050) == .scheduled)
        #expect(change("big", 1_000, at: 1_099) == .scheduled)
        #expect(wake("big", at: 1_100) == .due)
        #expect(wake("big", at: 1_100) == .nothing, "one update per schedule")
        // The scheduled update counts as the interval's update.
        #expect(change("big", 1_000, at: 1_150) == .at(1_200))
        #expect(wake("big", at: 1_200) == .due)
        #expect(change("big", 1_000, at: 1_400) == .now, "after a quiet interval, at once again")
    }

    @Test func aScheduledUpdateTakenEarlyStartsTheNextInterval() {
        #expect(change("big", 500, at: 0) == .now)
        #expect(change("big", 500, at: 20) == .at(100))
        #expect(takeEarly("big", at: 30), "a message takes the stop out early")
        #expect(change("big", 500, at: 40) == .at(130))
    }

    @Test func aTimerArmedForAnUpdateTakenEarlyDoesNotSendTheNextOneBeforeItsTime() {
        #expect(change("big", 500, at: 0) == .now)
        #expect(change("big", 500, at: 20) == .at(100))  // timer A, for 100
        #expect(takeEarly("big", at: 30))
        #expect(change("big", 500, at: 40) == .at(130))  // timer B, for 130
        #expect(wake("big", at: 100) == .notYet(130), "timer A finds B's update not yet due")
        #expect(wake("big", at: 130) == .due)
        #expect(wake("big", at: 130) == .nothing)
    }

    @Test func earlyTakesFindNothingWhenNothingIsScheduled() {
        #expect(change("big", 500, at: 0) == .now)
        #expect(!takeEarly("big", at: 10))
    }

    @Test func aVeryLargeGroupsUpdatesAreFurtherApartSoItsDeliveriesStayWithinTheBudget() {
        #expect(pacer.interval(subscribers: 100) == 100)
        #expect(pacer.interval(subscribers: 1_000) == 100)
        #expect(pacer.interval(subscribers: 5_000) == 500, "10 000 deliveries a second at most")
        #expect(change("huge", 5_000, at: 0) == .now)
        #expect(change("huge", 5_000, at: 100) == .at(500))
    }

    @Test func conversationsArePacedApart() {
        #expect(change("a", 200, at: 0) == .now)
        #expect(change("b", 200, at: 10) == .now)
        #expect(change("a", 200, at: 20) == .at(100))
        #expect(change("b", 200, at: 20) == .at(110))
    }
}
