import Foundation

/// One target's figures in one scenario.
public struct TargetResult: Codable, Sendable {
    public var target: BenchTarget
    public var scenario: BenchScenario
    /// Sockets that reached `subscribed`.
    public var connections: Int
    /// Ready sockets over the time from the first connect to the last `subscribed`.
    public var connectionsPerSecond: Double
    /// End-to-end relay latency in microseconds.
    public var latencyP50: UInt64
    public var latencyP90: UInt64
    public var latencyP99: UInt64
    public var latencyP999: UInt64
    public var latencyMax: UInt64
    /// Latency samples in the window.
    public var samples: UInt64
    /// How late expired entries disappeared, in milliseconds (scenario `expiry`).
    public var expiryLatenessP50: UInt64
    public var expiryLatenessP99: UInt64
    public var expiryLatenessMax: UInt64
    public var expirySamples: UInt64
    public var framesSentPerSecond: Double
    public var framesDeliveredPerSecond: Double
    public var activityFramesReceived: UInt64
    public var messageFramesReceived: UInt64
    /// The server's CPU seconds in the window, and per frame delivered to all sockets in it.
    public var serverCPUSeconds: Double
    public var serverCPUMicrosPerDeliveredFrame: Double
    /// The part of it spent in the kernel (system time): on loopback that includes the receiving sockets' TCP
    /// work, which runs in the sender's system calls.
    public var serverSystemCPUMicrosPerDeliveredFrame: Double
    /// The generator's own CPU seconds in the window (all its processes).
    public var benchCPUSeconds: Double
    /// The server's resident memory, KiB.
    public var rssBeforeKiB: Double
    public var rssAfterConnectKiB: Double
    public var rssEndKiB: Double
    public var rssPerConnectionKiB: Double
    /// The shortest time between two `activity` frames at one socket, and the 1st percentile, in µs.
    public var activityGapMin: UInt64
    public var activityGapP1: UInt64
    /// The shortest time between the `serverTime`s of two `activity` frames at one socket, in ms.
    public var serverTimeGapMin: UInt64?
    /// `activity` frames one socket received per second, on average.
    public var activityFramesPerSocketPerSecond: Double
    /// The most entries one `activity` frame listed.
    public var mostEntries: Int
    public var errors: UInt64
    /// Latency samples (and expiries) expected but not recorded; nil where Typewire paces or caps the
    /// updates (``BenchOptions/serverCoalesces``), so samples cannot be counted against frames sent.
    public var lost: UInt64?
    public var errorNotes: [String]
    /// Scenario `receipts`: `read` frames sent a second in the window, the server's CPU per read, and the
    /// `receipts` and `unread` frames it sent per read.
    public var readsPerSecond: Double?
    public var serverCPUMicrosPerRead: Double?
    public var receiptFramesPerRead: Double?
    public var unreadFramesPerRead: Double?
    /// Scenario `tail`: the deliveries a second this window's step offered, and its round.
    public var offeredDeliveriesPerSecond: Double?
    public var round: Int?
    /// With `--stages`: where the window's time went inside Typewire (scenario `tail`), or the connecting's
    /// (the other scenarios).
    public var stages: [StageFigures]?
    /// Scenario `tail` with `--storm`: what the window's reconnect storm did; nil for a window without one.
    public var storm: StormFigures?

    init(
        target: BenchTarget, options: BenchOptions, tally: Tally, ready: Int, connectSeconds: Double, server: ServerSamples,
        benchCPUSeconds: Double
    ) {
        self.target = target
        scenario = options.scenario
        connections = ready
        connectionsPerSecond = connectSeconds > 0 ? Double(ready) / connectSeconds : 0
        let latency = tally.latency
        let some = latency.totalCount > 0
        latencyP50 = some ? latency.valueAtPercentile(50) : 0
        latencyP90 = some ? latency.valueAtPercentile(90) : 0
        latencyP99 = some ? latency.valueAtPercentile(99) : 0
        latencyP999 = some ? latency.valueAtPercentile(99.9) : 0
        latencyMax = some ? latency.max : 0
        samples = latency.totalCount
        let expiry = tally.expiryLateness
        expirySamples = expiry.totalCount
        expiryLatenessP50 = expirySamples > 0 ? expiry.valueAtPercentile(50) : 0
        expiryLatenessP99 = expirySamples > 0 ? expiry.valueAtPercentile(99) : 0
        expiryLatenessMax = expirySamples > 0 ? expiry.max : 0
        let window = options.hasLoad ? options.duration : 0
        framesSentPerSecond = window > 0 ? Double(tally.activitySent + tally.otherSent) / window : 0
        framesDeliveredPerSecond = window > 0 ? Double(tally.delivered) / window : 0
        activityFramesReceived = tally.activityReceived
        messageFramesReceived = tally.messagesReceived
        serverCPUSeconds = server.cpuSeconds
        serverCPUMicrosPerDeliveredFrame = tally.delivered > 0 ? server.cpuSeconds * 1e6 / Double(tally.delivered) : 0
        serverSystemCPUMicrosPerDeliveredFrame = tally.delivered > 0 ? server.systemCPUSeconds * 1e6 / Double(tally.delivered) : 0
        self.benchCPUSeconds = benchCPUSeconds
        rssBeforeKiB = server.rssBefore
        rssAfterConnectKiB = server.rssAfterConnect
        rssEndKiB = server.rssEnd
        rssPerConnectionKiB = ready > 0 ? (server.rssAfterConnect - server.rssBefore) / Double(ready) : 0
        let gaps = tally.activityGaps
        activityGapMin = gaps.totalCount > 0 ? gaps.min : 0
        activityGapP1 = gaps.totalCount > 0 ? gaps.valueAtPercentile(1) : 0
        serverTimeGapMin = tally.serverTimeGaps.totalCount > 0 ? tally.serverTimeGaps.min : nil
        activityFramesPerSocketPerSecond = window > 0 && ready > 0 ? Double(tally.activityReceived) / window / Double(ready) : 0
        mostEntries = tally.mostEntries
        errors = tally.errors
        let missingSamples = tally.expectedSamples > samples ? tally.expectedSamples - samples : 0
        let missingExpiries = tally.expectedExpiries > expirySamples ? tally.expectedExpiries - expirySamples : 0
        lost = options.serverCoalesces && options.scenario == .latency ? nil : missingSamples + missingExpiries
        errorNotes = tally.errorNotes
        if options.scenario == .receipts, window > 0, tally.readsSent > 0 {
            let reads = Double(tally.readsSent)
            readsPerSecond = reads / window
            serverCPUMicrosPerRead = server.cpuSeconds * 1e6 / reads
            receiptFramesPerRead = Double(tally.receiptsReceived) / reads
            unreadFramesPerRead = Double(tally.unreadReceived) / reads
        }
    }
}

/// The server's CPU in the window (all of it, and the kernel's part) and its memory at three points.
struct ServerSamples {
    var cpuSeconds = 0.0
    var systemCPUSeconds = 0.0
    var rssBefore = 0.0
    var rssAfterConnect = 0.0
    var rssEnd = 0.0
}

/// A whole run: each target's figures and, with both, Typewire's over the relay's.
public struct BenchReport: Codable, Sendable {
    public var options: BenchOptions
    public var results: [TargetResult]

    /// Why the run failed (errors or lost frames), or nil.
    public var failure: String? {
        let failures = results.compactMap { result -> String? in
            guard result.errors > 0 || (result.lost ?? 0) > 0 else { return nil }
            let notes = result.errorNotes.prefix(3).map { "\n  - \($0)" }.joined()
            return "\(result.target.rawValue): \(result.errors) errors, \(result.lost ?? 0) lost\(notes)"
        }
        return failures.isEmpty ? nil : failures.joined(separator: "\n")
    }

    /// The JSON object `--json` prints.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// A plain-text table: one row per figure, a column per target and the ratio; in scenario `tail`
    /// one row per step and target.
    public func table() -> String {
        if options.scenario.isStepped { return stepsTable() }
        let typewire = results.first { $0.target == .typewire }
        let relay = results.first { $0.target == .relay }
        let rows: [(String, (TargetResult) -> Double?, Int)] = [
            ("connections", { Double($0.connections) }, 0),
            ("connections/s", { $0.connectionsPerSecond }, 0),
            ("latency p50 (µs)", { Double($0.latencyP50) }, 0),
            ("latency p90 (µs)", { Double($0.latencyP90) }, 0),
            ("latency p99 (µs)", { Double($0.latencyP99) }, 0),
            ("latency p99.9 (µs)", { Double($0.latencyP999) }, 0),
            ("latency max (µs)", { Double($0.latencyMax) }, 0),
            ("latency samples", { Double($0.samples) }, 0),
            ("frames sent/s", { $0.framesSentPerSecond }, 1),
            ("frames delivered/s", { $0.framesDeliveredPerSecond }, 1),
            ("server CPU (s)", { $0.serverCPUSeconds }, 2),
            ("server CPU µs/delivered frame", { $0.serverCPUMicrosPerDeliveredFrame }, 2),
            ("  of which system (kernel)", { $0.serverSystemCPUMicrosPerDeliveredFrame }, 2),
            ("bench CPU (s)", { $0.benchCPUSeconds }, 2),
            ("server RSS before (KiB)", { $0.rssBeforeKiB }, 0),
            ("server RSS connected (KiB)", { $0.rssAfterConnectKiB }, 0),
            ("server RSS end (KiB)", { $0.rssEndKiB }, 0),
            ("server RSS/connection (KiB)", { $0.rssPerConnectionKiB }, 1),
            ("activity frames/socket/s", { $0.activityFramesPerSocketPerSecond }, 2),
            ("activity gap min (ms)", { Double($0.activityGapMin) / 1_000 }, 1),
            ("activity gap p1 (ms)", { Double($0.activityGapP1) / 1_000 }, 1),
            ("activity serverTime gap min (ms)", { $0.serverTimeGapMin.map(Double.init) }, 0),
            ("most entries in a frame", { Double($0.mostEntries) }, 0),
            ("reads/s", { $0.readsPerSecond }, 1),
            ("server CPU µs/read", { $0.serverCPUMicrosPerRead }, 2),
            ("receipts frames/read", { $0.receiptFramesPerRead }, 3),
            ("unread frames/read", { $0.unreadFramesPerRead }, 3),
            ("expiry lateness p50 (ms)", { Double($0.expiryLatenessP50) }, 0),
            ("expiry lateness p99 (ms)", { Double($0.expiryLatenessP99) }, 0),
            ("expiry lateness max (ms)", { Double($0.expiryLatenessMax) }, 0),
            ("errors", { Double($0.errors) }, 0),
            ("lost", { $0.lost.map(Double.init) }, 0),
        ]
        var lines = [["figure", "typewire", "relay", "typewire/relay"]]
        for (name, value, digits) in rows {
            let left = typewire.flatMap(value)
            let right = relay.flatMap(value)
            let ratio = left.flatMap { l in right.flatMap { r in r != 0 ? l / r : nil } }
            lines.append([name, Self.cell(left, digits), Self.cell(right, digits), Self.cell(ratio, 2)])
        }
        return Self.aligned(lines) + stagesTable()
    }

    /// Scenario `tail`: a row per step, round and target, with Typewire's CPU per delivery over the relay's in
    /// that round; with several rounds, each step's medians after them.
    private func stepsTable() -> String {
        var lines = [
            [
                "offered/s", "round", "target", "delivered/s", "p50 µs", "p90 µs", "p99 µs", "p99.9 µs", "max µs", "CPU µs/delivery",
                "vs relay", "lost", "errors", "storm",
            ]
        ]
        for result in results {
            lines.append([
                Self.cell(result.offeredDeliveriesPerSecond, 0), "\(result.round ?? 1)", result.target.rawValue,
                Self.cell(result.framesDeliveredPerSecond, 0), "\(result.latencyP50)", "\(result.latencyP90)", "\(result.latencyP99)",
                "\(result.latencyP999)", "\(result.latencyMax)", Self.cell(result.serverCPUMicrosPerDeliveredFrame, 2),
                Self.cell(cpuRatio(of: result), 2), Self.cell(result.lost.map(Double.init), 0), "\(result.errors)",
                result.storm.map {
                    "\($0.reconnected)/\($0.sockets) back in \(String(format: "%.1f", $0.secondsToReconnect)) s, \($0.failedAttempts) failed"
                } ?? "-",
            ])
        }
        let table = Self.aligned(lines) + stagesTable() + stormTable()
        guard options.rounds > 1 else { return table }
        var medians = [
            ["offered/s", "target", "median p50 µs", "median p99 µs", "worst p99 µs", "median CPU µs/delivery", "median vs relay"]
        ]
        for step in options.steps {
            for target in [BenchTarget.relay, .typewire] {
                let rounds = results.filter { $0.offeredDeliveriesPerSecond == step && $0.target == target && $0.storm == nil }
                guard !rounds.isEmpty else { continue }
                medians.append([
                    Self.cell(step, 0), target.rawValue, Self.cell(Self.median(rounds.map { Double($0.latencyP50) }), 0),
                    Self.cell(Self.median(rounds.map { Double($0.latencyP99) }), 0), "\(rounds.map(\.latencyP99).max() ?? 0)",
                    Self.cell(Self.median(rounds.map(\.serverCPUMicrosPerDeliveredFrame)), 2),
                    Self.cell(Self.median(rounds.compactMap(cpuRatio(of:))), 2),
                ])
            }
        }
        return table + "\n\n" + Self.aligned(medians)
    }

    /// With `--storm`: for each step and target, the p99 of the windows with a storm over that of the windows
    /// before them (the median over the rounds), and how long the storm's sockets took to come back.
    private func stormTable() -> String {
        guard options.storm > 0 else { return "" }
        var lines = [["offered/s", "target", "p99 µs without", "p99 µs with the storm", "with / without", "seconds to reconnect"]]
        for step in options.steps {
            for target in [BenchTarget.relay, .typewire] {
                let windows = results.filter { $0.offeredDeliveriesPerSecond == step && $0.target == target }
                let calm = windows.filter { $0.storm == nil }
                let stormy = windows.filter { $0.storm != nil }
                guard !stormy.isEmpty else { continue }
                let ratios = stormy.compactMap { window in
                    calm.first { $0.round == window.round }.flatMap {
                        $0.latencyP99 > 0 ? Double(window.latencyP99) / Double($0.latencyP99) : nil
                    }
                }
                lines.append([
                    Self.cell(step, 0), target.rawValue, Self.cell(Self.median(calm.map { Double($0.latencyP99) }), 0),
                    Self.cell(Self.median(stormy.map { Double($0.latencyP99) }), 0), Self.cell(Self.median(ratios), 2),
                    Self.cell(Self.median(stormy.compactMap { $0.storm?.secondsToReconnect }), 1),
                ])
            }
        }
        return "\n\n" + Self.aligned(lines)
    }

    /// With `--stages`: a row per stage of each Typewire window; the figures are bucket bounds.
    private func stagesTable() -> String {
        var lines = [["offered/s", "round", "stage", "count", "p50 ≤ µs", "p99 ≤ µs", "over 100 µs"]]
        for result in results {
            for stage in result.stages ?? [] {
                lines.append([
                    Self.cell(result.offeredDeliveriesPerSecond, 0), "\(result.round ?? 1)", stage.stage, "\(stage.count)",
                    stage.p50AtMost.map { Self.cell($0, 0) } ?? "more", stage.p99AtMost.map { Self.cell($0, 0) } ?? "more",
                    String(format: "%.2f %%", stage.over100Micros * 100),
                ])
            }
        }
        return lines.count > 1 ? "\n\n" + Self.aligned(lines) : ""
    }

    /// Typewire's CPU per delivery over the relay's in the same step and round.
    private func cpuRatio(of result: TargetResult) -> Double? {
        guard result.target == .typewire,
            let relay = results.first(where: {
                $0.target == .relay && $0.offeredDeliveriesPerSecond == result.offeredDeliveriesPerSecond && $0.round == result.round
                    && ($0.storm == nil) == (result.storm == nil)
            })
        else { return nil }
        guard relay.serverCPUMicrosPerDeliveredFrame > 0 else { return nil }
        return result.serverCPUMicrosPerDeliveredFrame / relay.serverCPUMicrosPerDeliveredFrame
    }

    private static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    private static func cell(_ value: Double?, _ digits: Int) -> String {
        guard let value, value.isFinite else { return "-" }
        return String(format: "%.\(digits)f", value)
    }

    /// The first column left-aligned, the others right-aligned, two spaces apart.
    private static func aligned(_ lines: [[String]]) -> String {
        let widths = (0..<(lines.first?.count ?? 0)).map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { line in
            line.enumerated().map { column, text in
                column == 0
                    ? text.padding(toLength: widths[0], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - text.count) + text
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
