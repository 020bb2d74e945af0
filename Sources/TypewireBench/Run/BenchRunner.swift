import Foundation
import Logging

/// Runs `typewire bench`: for each target, starts the server (or uses the one given), opens the sockets
/// in this process or in worker processes, drives the load, reads the server's CPU and memory from /proc,
/// and collects one ``TargetResult``.
public struct BenchRunner: Sendable {
    /// A server that is already running: its socket URL, its PID, and the secret of its tokens; for a cluster,
    /// the node the publishers connect to and the PIDs of the nodes besides the first.
    public struct External: Sendable {
        public var url: String
        public var pid: Int32?
        public var jwtSecret: String?
        /// Scenario tail: where the publishers connect (another node of the cluster), if not to ``url``.
        public var publisherURL: String?
        /// Other processes whose CPU counts as the server's (the cluster's other nodes).
        public var otherPIDs: [Int32]
        public init(url: String, pid: Int32?, jwtSecret: String?, publisherURL: String? = nil, otherPIDs: [Int32] = []) {
            self.url = url
            self.pid = pid
            self.jwtSecret = jwtSecret
            self.publisherURL = publisherURL
            self.otherPIDs = otherPIDs
        }
    }

    public var options: BenchOptions
    public var targets: [BenchTarget]
    public var workers: Int
    public var external: External?
    /// Where progress goes (stderr), so stdout carries only the result.
    public var progress: @Sendable (String) -> Void
    /// The CPUs the servers it starts run on (a `taskset` list), or nil for any.
    public var serverCPUs: String?

    public init(
        options: BenchOptions, targets: [BenchTarget], workers: Int, external: External?, progress: @escaping @Sendable (String) -> Void
    ) {
        self.options = options
        self.targets = targets
        self.workers = workers
        self.external = external
        self.progress = progress
    }

    /// The longest a whole run may take, in seconds: connecting, warmup, window, drain and margins.
    public var deadlineSeconds: Double {
        let connect = 30 + Double(options.connections) / 100
        let expiry = options.scenario == .expiry ? 8.0 : 0
        let windows = Double(options.windows)
        return Double(targets.count) * (connect + windows * (options.warmup + options.duration + BenchOptions.drain) + expiry + 60)
    }

    /// Runs every target; the temporary folder is removed at the end.
    public func run() async throws -> BenchReport {
        try options.validate()
        guard (1...64).contains(workers) else { throw BenchError("--workers must be between 1 and 64.") }
        if options.scenario == .receipts, targets.contains(.relay) {
            throw BenchError("The receipts scenario measures Typewire's read receipts; the relay has none: use --target typewire.")
        }
        if options.scenario == .expiry, targets.contains(.relay), external == nil {
            throw BenchError("The expiry scenario measures Typewire's expiry; the relay has none: use --target typewire.")
        }
        let held = options.descriptorsHeld(byTargets: targets.count)
        if options.scenario.isStepped, held > BenchOptions.maxConnections {
            throw BenchError(
                "The \(options.scenario.rawValue) scenario keeps every target's \(options.connections + options.storm) sockets open at once: \(held) in all is over \(BenchOptions.maxConnections); use --target typewire."
            )
        }
        try FileLimits.raise(to: UInt64(held + 1_000), atLeast: UInt64(held + 100))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        if options.scenario.isStepped {
            guard workers == 1 else {
                throw BenchError("The \(options.scenario.rawValue) scenario runs in one generator process: leave out --workers.")
            }
            return try await runSteps(folder: folder)
        }
        var results: [TargetResult] = []
        for target in targets {
            progress("bench: \(target.rawValue), scenario \(options.scenario.rawValue), \(options.connections) sockets")
            results.append(try await measure(target, folder: folder))
        }
        return BenchReport(options: options, results: results)
    }

    private func measure(_ target: BenchTarget, folder: URL) async throws -> TargetResult {
        let (server, endpoint, pid) = try await server(target, folder: folder)
        do {
            let result = try await drive(target, endpoint: endpoint, pid: pid, folder: folder)
            await server?.stop()
            return result
        } catch {
            await server?.stop()
            throw error
        }
    }

    /// The server to measure: the one given with `--url`, or one started here (which the caller stops),
    /// with its endpoint and PID.
    func server(_ target: BenchTarget, folder: URL) async throws -> (ChildProcess?, BenchEndpoint, Int32?) {
        if let external {
            var endpoint = try BenchEndpoint(url: external.url, jwtSecret: target == .typewire ? external.jwtSecret : nil)
            if let publisherURL = external.publisherURL {
                endpoint.publisherPort = try BenchEndpoint(url: publisherURL, jwtSecret: nil).port
            }
            return (nil, endpoint, external.pid)
        }
        let (child, endpoint) = try await startServer(target, folder: folder)
        return (child, endpoint, child.pid)
    }

    /// The server's user and system CPU seconds from `windowStart` to `windowEnd` (CLOCK_MONOTONIC nanoseconds).
    /// With `others`, their CPU is added (the other nodes of a cluster).
    static func serverCPU(of pid: Int32?, others: [Int32] = [], from windowStart: UInt64, to windowEnd: UInt64) -> Task<
        (user: Double, system: Double), any Error
    > {
        Task {
            let pids = (pid.map { [$0] } ?? []) + others
            func times() -> [(user: Double, system: Double)] { pids.map { ProcessStats.cpuTimes(of: $0) ?? (0, 0) } }
            try await LoadWorker.sleep(until: windowStart)
            let before = times()
            try await LoadWorker.sleep(until: windowEnd)
            let after = times()
            let spent = zip(before, after).map { (user: max(0, $1.user - $0.user), system: max(0, $1.system - $0.system)) }
            return (user: spent.map(\.user).reduce(0, +), system: spent.map(\.system).reduce(0, +))
        }
    }

    /// Starts the relay, or seeds a fresh SQLite file and starts Typewire on it; both on a free port.
    func startServer(_ target: BenchTarget, folder: URL) async throws -> (ChildProcess, BenchEndpoint) {
        let child: ChildProcess
        var secret: String?
        switch target {
        case .relay:
            child = try ChildProcess(
                name: "relay", arguments: ["relay", "--host", "127.0.0.1", "--port", "0"], folder: folder, cpus: serverCPUs)
        case .typewire:
            let sqlite = folder.appendingPathComponent("bench.sqlite").path
            progress("bench: seeding \(options.conversations) conversations of \(options.members) members")
            try await BenchSeeder.seed(sqlite: sqlite, options: options)
            let key = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            secret = key
            child = try ChildProcess(
                name: "typewire",
                arguments: [
                    "serve", "--host", "127.0.0.1", "--port", "0", "--sqlite", sqlite, "--jwt-secret", key,
                    // The bench never sends over 10 activity frames a second per socket; the server's limits must not cut its bursts.
                    "--activity-rate", "1000", "--message-rate", "1000", "--reply-part-rate", "1000", "--public",
                    folder.appendingPathComponent("no-public").path,
                ] + (options.stages ? ["--stage-metrics"] : []), folder: folder, cpus: serverCPUs)
        }
        do {
            let port = try await child.listeningPort(within: 60)
            return (child, BenchEndpoint(host: "127.0.0.1", port: port, path: "/v1/socket", jwtSecret: secret))
        } catch {
            await child.stop()
            throw error
        }
    }

    private func drive(_ target: BenchTarget, endpoint: BenchEndpoint, pid: Int32?, folder: URL) async throws -> TargetResult {
        var server = ServerSamples()
        server.rssBefore = pid.flatMap { ProcessStats.residentKiB(of: $0) } ?? 0
        let pool = workers == 1 ? nil : try WorkerPool(count: workers, endpoint: endpoint, options: options, target: target, folder: folder)
        let local = workers == 1 ? LoadWorker(options: options, endpoint: endpoint, index: 0, workers: 1) : nil
        do {
            let timesStages = options.stages && target == .typewire
            let stagesBefore = timesStages ? await StageSample.read(host: endpoint.host, port: endpoint.port) : nil
            let phase = try await local?.connect()
            try await pool?.waitUntilConnected()
            let stagesConnected = timesStages ? await StageSample.read(host: endpoint.host, port: endpoint.port) : nil
            server.rssAfterConnect = pid.flatMap { ProcessStats.residentKiB(of: $0) } ?? 0
            let start = BenchClock.monotonicNanos() + 100_000_000
            let windowStart = start + UInt64(options.warmup * 1e9)
            let windowEnd = windowStart + UInt64((options.hasLoad ? options.duration : 0) * 1e9)
            let sampling = Self.serverCPU(of: pid, from: windowStart, to: windowEnd)
            let results: [WorkerResult]
            if let local, let phase {
                results = [try await local.run(phase, start: start)]
                await local.shutdown()
            } else if let pool {
                results = try await pool.run(start: start)
            } else {
                results = []
            }
            let cpu = try await sampling.value
            server.cpuSeconds = cpu.user + cpu.system
            server.systemCPUSeconds = cpu.system
            server.rssEnd = pid.flatMap { ProcessStats.residentKiB(of: $0) } ?? 0
            var tally = Tally()
            for result in results { tally.merge(result.tally) }
            let first = results.map(\.firstConnect).min() ?? 0
            let last = results.map(\.lastReady).max() ?? 0
            var result = TargetResult(
                target: target, options: options, tally: tally, ready: results.map(\.ready).reduce(0, +),
                connectSeconds: Double(last &- first) / 1e9, server: server, benchCPUSeconds: results.map(\.cpuSeconds).reduce(0, +)
            )
            if let stagesBefore, let stagesConnected { result.stages = stagesConnected.since(stagesBefore) }
            return result
        } catch {
            await pool?.stop()
            await local?.shutdown()
            throw error
        }
    }
}
