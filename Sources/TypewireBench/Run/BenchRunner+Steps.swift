import Foundation

/// Scenarios `tail` and `turns`: every target's server started and its sockets connected once, then one window per step
/// and round, the targets taking turns each time, so that a step's figures for Typewire and the relay come
/// from the same minute of this machine. With `--storm N`, each window is followed by a second one at the same
/// step in which N other sockets are dropped and reconnect (``LoadWorker/storm(_:at:)``).
extension BenchRunner {
    /// A target whose sockets are open.
    private struct Connected {
        var target: BenchTarget
        var server: ChildProcess?
        var pid: Int32?
        var endpoint: BenchEndpoint
        var worker: LoadWorker
        var phase: ConnectPhase
        /// The reconnect storm's sockets, if any.
        var storm: ConnectPhase?
        var rssBefore: Double
        var rssAfterConnect: Double
    }

    func runSteps(folder: URL) async throws -> BenchReport {
        var connected: [Connected] = []
        do {
            for target in targets {
                progress("bench: \(target.rawValue), scenario \(options.scenario.rawValue), \(options.connections) sockets")
                connected.append(try await connect(target, folder: folder))
            }
            var results: [TargetResult] = []
            for (index, step) in options.steps.enumerated() {
                for round in 1...options.rounds {
                    for target in connected.indices {
                        let name = connected[target].target.rawValue
                        progress("bench: \(name) at \(Int(step)) deliveries/s, round \(round) of \(options.rounds)")
                        for storms in options.storm > 0 ? [false, true] : [false] {
                            let first = index == 0 && round == 1 && !storms
                            var result = try await window(
                                &connected[target], rate: options.windowRates[index], countsConnectFailures: first, storms: storms)
                            result.offeredDeliveriesPerSecond = step
                            result.round = round
                            results.append(result)
                        }
                    }
                }
            }
            await finish(connected)
            return BenchReport(options: options, results: results)
        } catch {
            await finish(connected)
            throw error
        }
    }

    private func connect(_ target: BenchTarget, folder: URL) async throws -> Connected {
        let (server, endpoint, pid) = try await server(target, folder: folder)
        let rssBefore = pid.flatMap { ProcessStats.residentKiB(of: $0) } ?? 0
        let worker = LoadWorker(options: options, endpoint: endpoint, index: 0, workers: 1)
        do {
            let phase = try await worker.connect()
            let storm = options.storm > 0 ? try await worker.connectStorm() : nil
            let rssAfterConnect = pid.flatMap { ProcessStats.residentKiB(of: $0) } ?? 0
            return Connected(
                target: target, server: server, pid: pid, endpoint: endpoint, worker: worker, phase: phase, storm: storm,
                rssBefore: rssBefore, rssAfterConnect: rssAfterConnect)
        } catch {
            await worker.shutdown()
            await server?.stop()
            throw error
        }
    }

    /// One window at `rate`; with `storms`, the storm's sockets are dropped a second into it and reconnect.
    private func window(_ connected: inout Connected, rate: Double, countsConnectFailures: Bool, storms: Bool) async throws
        -> TargetResult
    {
        let pid = connected.pid
        let start = BenchClock.monotonicNanos() + 100_000_000
        let windowStart = start + UInt64(options.warmup * 1e9)
        let windowEnd = windowStart + UInt64(options.duration * 1e9)
        let sampling = Self.serverCPU(of: pid, others: external?.otherPIDs ?? [], from: windowStart, to: windowEnd)
        let endpoint = connected.endpoint
        let timesStages = options.stages && connected.target == .typewire
        let stages = Task { () -> [StageFigures]? in
            guard timesStages else { return nil }
            try await LoadWorker.sleep(until: windowStart)
            let before = await StageSample.read(host: endpoint.host, port: endpoint.port)
            try await LoadWorker.sleep(until: windowEnd)
            let after = await StageSample.read(host: endpoint.host, port: endpoint.port)
            guard let before, let after else { return nil }
            return after.since(before)
        }
        let worker = connected.worker
        let storm = storms ? connected.storm : nil
        let storming = storm.map { phase in Task { try await worker.storm(phase, at: windowStart + 1_000_000_000) } }
        var result = try await worker.drive(connected.phase, start: start, rate: rate)
        if countsConnectFailures {
            result.tally.countConnectFailures(of: connected.phase)
            if let storm = connected.storm { result.tally.countConnectFailures(of: storm) }
        }
        let stormed = try await storming?.value
        if let (phase, _) = stormed {
            connected.storm = phase
            result.tally.countConnectFailures(of: phase)
        }
        let cpu = try await sampling.value
        var server = ServerSamples()
        server.cpuSeconds = cpu.user + cpu.system
        server.systemCPUSeconds = cpu.system
        server.rssBefore = connected.rssBefore
        server.rssAfterConnect = connected.rssAfterConnect
        server.rssEnd = pid.flatMap { ProcessStats.residentKiB(of: $0) } ?? 0
        var figures = TargetResult(
            target: connected.target, options: options, tally: result.tally, ready: result.ready,
            connectSeconds: Double(result.lastReady &- result.firstConnect) / 1e9, server: server, benchCPUSeconds: result.cpuSeconds
        )
        figures.stages = try await stages.value
        figures.storm = stormed?.1
        return figures
    }

    private func finish(_ connected: [Connected]) async {
        for target in connected {
            await target.worker.close(target.phase)
            if let storm = target.storm { await target.worker.close(storm) }
            await target.worker.shutdown()
            await target.server?.stop()
        }
    }
}
