import Atomics
import NIOCore
import Prometheus

/// Where a frame's time goes inside the server, stage by stage, for `--stage-metrics`: histograms in
/// `/metrics` that `typewire bench --stages` reads before and after each window. Off by default (each stage
/// costs a clock read and a histogram's lock per frame or batch).
///
/// An activity frame passes `read_to_shard` (the socket has read and checked it → its conversation's shard
/// starts it), then `typewire_relay_latency_seconds` (the shard fans it out), `hop_to_loop` (a frame queued
/// for a socket of another loop → that loop writes it) and `write_to_flush` (the first frame written to a
/// socket in a turn → the socket is flushed). `typewire_loop_lag_seconds` says how late a timer of each loop fires: a loop busy
/// with one piece of work for long makes every socket on it wait that long.
///
/// A socket's handshake passes `hello_verify` (its token checked), `hello_connect` (the hub registers it: the
/// user's settings and blocks read, presence announced, `welcome` queued) and `subscribe` (the membership
/// checked, the participants and recent messages read, `subscribed` queued).
package final class StageTimings: Sendable {
    let readToShard: DurationHistogram
    let hopToLoop: DurationHistogram
    let writeToFlush: DurationHistogram
    let loopLag: DurationHistogram
    let helloVerify: DurationHistogram
    let helloConnect: DurationHistogram
    let subscribe: DurationHistogram
    private let probing = ManagedAtomic(false)

    /// Buckets from 10 µs to 50 ms: the tail this measures sits between.
    static let buckets: [Duration] = [
        .microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500),
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(50),
    ]

    init(registry: PrometheusCollectorRegistry) {
        func stage(_ stage: String) -> DurationHistogram {
            registry.makeDurationHistogram(
                descriptor: MetricNameDescriptor(
                    namespace: "typewire", metricName: "stage", unitName: "seconds",
                    helpText: "Time a frame spends in one stage of the server (with --stage-metrics)."),
                labels: [("stage", stage)], buckets: Self.buckets
            )
        }
        readToShard = stage("read_to_shard")
        hopToLoop = stage("hop_to_loop")
        writeToFlush = stage("write_to_flush")
        helloVerify = stage("hello_verify")
        helloConnect = stage("hello_connect")
        subscribe = stage("subscribe")
        loopLag = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "typewire", metricName: "loop_lag", unitName: "seconds",
                helpText: "How late a timer of an event loop fires (with --stage-metrics)."),
            buckets: Self.buckets
        )
    }

    /// Records the time from `start` to now in `histogram`.
    func record(_ histogram: DurationHistogram, since start: NIODeadline) {
        histogram.recordNanoseconds(max(0, (NIODeadline.now() - start).nanoseconds))
    }

    /// Measures how late a timer of each loop fires, every `interval`, until ``stopProbing()``.
    func startProbing(_ loops: [any EventLoop], every interval: TimeAmount = .milliseconds(10)) {
        probing.store(true, ordering: .relaxed)
        for loop in loops { arm(loop, every: interval) }
    }

    /// Stops the probe: each loop's next timer is its last.
    func stopProbing() {
        probing.store(false, ordering: .relaxed)
    }

    private func arm(_ loop: any EventLoop, every interval: TimeAmount) {
        guard probing.load(ordering: .relaxed) else { return }
        let due = NIODeadline.now() + interval
        loop.scheduleTask(deadline: due) { [self] in
            record(loopLag, since: due)
            arm(loop, every: interval)
        }
    }
}
