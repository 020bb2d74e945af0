import AsyncHTTPClient
import Foundation
import NIOCore

/// What one stage of the server took in a window, from the histograms `typewire serve --stage-metrics` keeps
/// (``StageSample``): how many frames or batches passed it, and the bucket bounds its median and 99th
/// percentile fall under.
public struct StageFigures: Codable, Sendable, Equatable {
    /// The stage: `read_to_shard`, `shard`, `hop_to_loop`, `write_to_flush`, `loop_lag`, `hello_verify`,
    /// `hello_connect` or `subscribe`.
    public var stage: String
    public var count: UInt64
    /// The upper bound of the bucket holding the median and the 99th percentile, in µs; nil past the last bucket.
    public var p50AtMost: Double?
    public var p99AtMost: Double?
    /// The share over 100 µs (for `loop_lag`: a loop that left its sockets waiting that long).
    public var over100Micros: Double
}

/// The server's stage histograms at one moment, read from `/metrics`: the cumulative count of each bucket
/// bound (seconds) of each stage.
struct StageSample: Sendable {
    private(set) var buckets: [String: [Double: UInt64]] = [:]

    /// The series read, by the stage names ``StageFigures`` uses.
    private static let series: [(prefix: String, stage: String)] =
        [stage("read_to_shard"), ("typewire_relay_latency_seconds_bucket{", "shard"), stage("hop_to_loop"), stage("write_to_flush")]
        + [("typewire_loop_lag_seconds_bucket{", "loop_lag"), stage("hello_verify"), stage("hello_connect"), stage("subscribe")]

    /// A series of `typewire_stage_seconds`, by its `stage` label.
    private static func stage(_ name: String) -> (prefix: String, stage: String) {
        (#"typewire_stage_seconds_bucket{stage=""# + name + #"","#, name)
    }

    /// Reads `http://host:port/metrics`; nil if it cannot.
    static func read(host: String, port: Int) async -> StageSample? {
        let request = HTTPClientRequest(url: "http://\(host):\(port)/metrics")
        guard let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(10)), response.status == .ok,
            let body = try? await response.body.collect(upTo: 16 << 20)
        else { return nil }
        return parse(String(buffer: body))
    }

    /// Reads the bucket lines of Prometheus text, e.g. `typewire_loop_lag_seconds_bucket{le="0.0001"} 12`.
    static func parse(_ text: String) -> StageSample {
        var sample = StageSample()
        for line in text.split(separator: "\n") {
            guard let series = series.first(where: { line.hasPrefix($0.prefix) }),
                let le = line.range(of: #"le=""#), let close = line[le.upperBound...].firstIndex(of: "\""),
                let space = line.lastIndex(of: " "), let count = UInt64(line[line.index(after: space)...])
            else { continue }
            let bound = line[le.upperBound..<close]
            sample.buckets[series.stage, default: [:]][bound == "+Inf" ? .infinity : Double(bound) ?? .nan] = count
        }
        return sample
    }

    /// Each stage's figures between `earlier` and this sample, in the order of ``series``.
    func since(_ earlier: StageSample) -> [StageFigures] {
        Self.series.compactMap { series -> StageFigures? in
            guard let now = buckets[series.stage] else { return nil }
            let before = earlier.buckets[series.stage] ?? [:]
            let bounds = now.keys.filter { !$0.isNaN }.sorted()
            let counts = bounds.map { now[$0]! - min(now[$0]!, before[$0] ?? 0) }
            let total = counts.last ?? 0
            func bound(at quantile: Double) -> Double? {
                guard total > 0, let index = counts.firstIndex(where: { Double($0) >= quantile * Double(total) }) else { return nil }
                return bounds[index].isFinite ? bounds[index] * 1e6 : nil
            }
            let within100 = bounds.lastIndex { $0 <= 0.000_100_000_1 }.map { counts[$0] } ?? 0
            return StageFigures(
                stage: series.stage, count: total, p50AtMost: bound(at: 0.5), p99AtMost: bound(at: 0.99),
                over100Micros: total > 0 ? Double(total - within100) / Double(total) : 0
            )
        }
    }
}
