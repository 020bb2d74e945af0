import Testing

@testable import TypewireServer

@Suite struct PendingCountScheduleTests {
    @Test func theFirstCountIsDueAtOnceAndFastOnesComeEveryInterval() {
        var schedule = PendingCountSchedule(intervalMilliseconds: 1_000)
        #expect(schedule.isDue(at: 0))
        schedule.counted(started: 0, ended: 2)
        #expect(!schedule.isDue(at: 999))
        #expect(schedule.isDue(at: 1_000), "a 2 ms count is 0.2 % of the interval: the next one comes on time")
        schedule.counted(started: 1_000, ended: 1_000)
        #expect(schedule.nextAt == 2_000)
    }

    @Test func aSlowCountPutsTheNextOneOffSoThatCountingTakesOnePercent() {
        var schedule = PendingCountSchedule(intervalMilliseconds: 1_000)
        // A backlog whose count takes 50 ms: the next one 5 s after it, not 1 s.
        schedule.counted(started: 10_000, ended: 10_050)
        #expect(!schedule.isDue(at: 11_000))
        #expect(!schedule.isDue(at: 15_049))
        #expect(schedule.isDue(at: 15_050))
        // It shrinks again: the next count is fast, and the one after it comes an interval later.
        schedule.counted(started: 15_050, ended: 15_051)
        #expect(schedule.nextAt == 16_050)
    }

    @Test func aClockThatGoesBackCountsAsNoTime() {
        var schedule = PendingCountSchedule(intervalMilliseconds: 1_000)
        schedule.counted(started: 5_000, ended: 4_000)
        #expect(schedule.nextAt == 6_000)
    }
}
