import Testing

@testable import TypewireBench

/// Reading the stage histograms of `/metrics` and turning two readings into a window's figures.
@Suite struct StageSampleTests {
    private static func metrics(lag: (UInt64, UInt64, UInt64), flush: (UInt64, UInt64)) -> String {
        """
        # TYPE typewire_loop_lag_seconds histogram
        typewire_loop_lag_seconds_bucket{le="0.00005"} \(lag.0)
        typewire_loop_lag_seconds_bucket{le="0.0001"} \(lag.1)
        typewire_loop_lag_seconds_bucket{le="0.01"} \(lag.2)
        typewire_loop_lag_seconds_bucket{le="+Inf"} \(lag.2)
        typewire_loop_lag_seconds_sum 0.5
        typewire_stage_seconds_bucket{stage="write_to_flush",le="0.00001"} \(flush.0)
        typewire_stage_seconds_bucket{stage="write_to_flush",le="0.001"} \(flush.1)
        typewire_stage_seconds_bucket{stage="write_to_flush",le="+Inf"} \(flush.1 + 1)
        typewire_stage_seconds_count{stage="write_to_flush"} \(flush.1 + 1)
        """
    }

    @Test func aWindowsFiguresAreTheDifferenceOfTwoReadings() {
        let before = StageSample.parse(Self.metrics(lag: (10, 10, 10), flush: (5, 5)))
        let after = StageSample.parse(Self.metrics(lag: (60, 158, 210), flush: (6, 105)))
        let figures = after.since(before)
        #expect(figures.map(\.stage) == ["write_to_flush", "loop_lag"])
        let lag = figures[1]
        #expect(lag.count == 200)
        #expect(lag.p50AtMost == 100)  // 148 of 200 within 100 µs
        #expect(lag.p99AtMost == 10_000)
        #expect(abs(lag.over100Micros - 0.26) < 1e-9)
        let flush = figures[0]
        #expect(flush.count == 100)
        #expect(flush.p50AtMost == 1_000)
        #expect(flush.p99AtMost == 1_000)
    }

    @Test func aQuantilePastTheLastBoundHasNoBound() {
        let before = StageSample()
        let after = StageSample.parse(Self.metrics(lag: (0, 0, 0), flush: (0, 1)))
        let flush = after.since(before)[0]
        #expect(flush.count == 2)
        #expect(flush.p50AtMost == 1_000)
        #expect(flush.p99AtMost == nil)
        #expect(flush.over100Micros == 1)
    }
}
