import Foundation

/// `--workers W`: W child processes of this executable, each driving every W-th socket.
///
/// Each child connects, prints `READY`, waits for the go file (the load's start on CLOCK_MONOTONIC, which
/// all processes share), runs, and prints `RESULT <json>` with its tally; the parent merges them.
struct WorkerPool: Sendable {
    private let children: [ChildProcess]
    private let goFile: URL
    private let options: BenchOptions

    init(count: Int, endpoint: BenchEndpoint, options: BenchOptions, target: BenchTarget, folder: URL) throws {
        self.options = options
        goFile = folder.appendingPathComponent("go-\(target.rawValue)")
        let encoded = String(decoding: try JSONEncoder().encode(options), as: UTF8.self)
        let url = "ws://\(endpoint.host):\(endpoint.port)\(endpoint.path)"
        var started: [ChildProcess] = []
        for index in 0..<count {
            let arguments =
                [
                    "bench", "--worker", "\(index)", "--workers", "\(count)", "--url", url, "--go-file", goFile.path, "--worker-options",
                    encoded,
                ]
                + (endpoint.jwtSecret.map { ["--jwt-secret", $0] } ?? [])
            started.append(try ChildProcess(name: "worker-\(target.rawValue)-\(index)", arguments: arguments, folder: folder))
        }
        children = started
    }

    /// Waits until every worker's sockets are subscribed.
    func waitUntilConnected() async throws {
        for child in children {
            try await child.waitForLine(WorkerMain.readyLine, within: 30 + Double(options.connections) / 100)
        }
    }

    /// Tells the workers when to start and collects their results.
    func run(start: UInt64) async throws -> [WorkerResult] {
        try "\(start)".write(to: goFile, atomically: true, encoding: .utf8)
        let bound = options.warmup + options.duration + BenchOptions.drain + 30
        var results: [WorkerResult] = []
        for child in children {
            guard let status = await child.waitForExit(within: bound) else {
                await stop()
                throw BenchError("\(child.name) did not finish in time; its log: \(child.log.path)")
            }
            guard let line = child.output.split(separator: "\n").last(where: { $0.hasPrefix(WorkerMain.resultPrefix) }),
                let result = try? JSONDecoder().decode(WorkerResult.self, from: Data(line.dropFirst(WorkerMain.resultPrefix.count).utf8))
            else {
                throw BenchError("\(child.name) exited with status \(status) and no result: \(child.output.suffix(2_000))")
            }
            results.append(result)
        }
        return results
    }

    func stop() async {
        for child in children { await child.stop() }
    }
}

/// The worker side of ``WorkerPool``: what `typewire bench --worker I` runs.
public enum WorkerMain {
    static let readyLine = "READY"
    static let resultPrefix = "RESULT "

    /// Connects, says `READY`, waits for the go file, runs, and prints `RESULT <json>`.
    public static func run(optionsJSON: String, url: String, jwtSecret: String?, index: Int, workers: Int, goFile: String) async throws {
        let options = try JSONDecoder().decode(BenchOptions.self, from: Data(optionsJSON.utf8))
        let worker = LoadWorker(
            options: options, endpoint: try BenchEndpoint(url: url, jwtSecret: jwtSecret), index: index, workers: workers)
        let phase = try await worker.connect()
        say(readyLine)
        let deadline = BenchClock.monotonicNanos() + 120_000_000_000
        var start: UInt64?
        while start == nil {
            start = (try? String(contentsOfFile: goFile, encoding: .utf8)).flatMap {
                UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            guard BenchClock.monotonicNanos() < deadline else { throw BenchError("worker \(index): no go file \(goFile) within 120 s") }
            if start == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        let result = try await worker.run(phase, start: start!)
        await worker.shutdown()
        say(resultPrefix + String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }

    /// Writes a line to stdout at once (the parent reads it from a file while this process runs).
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
