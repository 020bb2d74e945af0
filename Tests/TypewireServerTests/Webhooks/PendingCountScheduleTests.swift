import Testing

@testable import TypewireServer

@Suite struct PendingCountScheduleTests {
    @Test func theFirstCountIsDueAtOnceAndFastOnesComeEveryInterval() {
        var schedule = PendingCountSchedule(intervalMilliseconds: 1_000)
        #expect(schedule.isDue(at: 0))
        schedule.counted(at: 0, took: 2)
        #expect(!schedule.isDue(at: 999))
        #expect(schedule.isDue(at: 1_000), "a 2 ms count is 0.2 % of the interval: the next one comes on time")
        schedule.counted(at: 1_000, took: 0)
        #expect(schedule.nextAt == 2_000)
    }

    @Test func aSlowCountPutsTheNextOneOffSoThatCountingTakesOnePercent() {
        var schedule = PendingCountSchedule(intervalMilliseconds: 1_000)
        // A backlog whose count takes 50 ms: the next one 5 s after it, not 1 s.
        schedule.counted(at: 10_000, took: 50)
        #expect(!schedule.isDue(at: 11_000))
        #expect(!schedule.isDue(at: 15_049))
        #expect(schedule.isDue(at: 15_050))
        // It shrinks again: the next count is fast, and the one after it comes an interval later.
        schedule.counted(at: 15_050, took: 1)
        #expect(schedule.nextAt == 16_050)
    }

    @Test func oneVerySlowCountPutsTheNextOffByTenIntervalsAtMost() {
        var schedule = PendingCountSchedule(intervalMilliseconds: 1_000)
        // A count that waited 400 ms behind others' writes: 40 s by the 1 % rule, 10 s by the bound.
        schedule.counted(at: 20_000, took: 400)
        #expect(!schedule.isDue(at: 29_999))
        #expect(schedule.isDue(at: 30_000))
        schedule.counted(at: 30_000, took: .max)
        #expect(schedule.nextAt == 40_000, "no time a clock reports overflows the schedule")
    }

    @Test func aClockThatGoesBackCountsAsNoTime() {
        var schedule = PendingCountSchedule(intervalMilliseconds: 1_000)
        schedule.counted(at: 5_000, took: -1_000)
        #expect(schedule.nextAt == 6_000)
    }
}
