import Foundation
import Testing

/// `typewire bench` in a tiny configuration, so the tool cannot rot. No figure is asserted: they live in
/// docs/BENCHMARKS.md. The run must end by itself with status 0, measure both targets, and lose nothing.
@Suite("typewire bench", .timeLimit(.minutes(3)))
struct BenchCommandTests {
    /// The executable `swift build` made (CI builds it before the tests).
    private static let executable = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/debug/typewire")

    private static let tiny = [
        "bench", "--connections", "20", "--conversations", "2", "--members", "10", "--rate", "40",
        "--warmup", "1s", "--duration", "2s", "--json",
    ]

    @Test func aTinyRunMeasuresTypewireAndTheRelayAndLosesNothing() async throws {
        try await Self.check(arguments: Self.tiny)
    }

    @Test func twoWorkerProcessesMergeTheirCounts() async throws {
        try await Self.check(arguments: Self.tiny + ["--workers", "2"])
    }

    @Test func theTailScenarioMeasuresEachStepForBothTargets() async throws {
        let arguments = [
            "bench", "--scenario", "tail", "--conversations", "2", "--steps", "40,80", "--warmup", "1s", "--duration", "1s", "--json",
        ]
        let results = try await Self.check(arguments: arguments, connections: 22)
        let steps = results.map { "\($0["target"] as? String ?? "?") \($0["offeredDeliveriesPerSecond"] as? Double ?? 0)" }
        #expect(steps == ["relay 40.0", "typewire 40.0", "relay 80.0", "typewire 80.0"])
    }

    @Test func theTurnsScenarioTimesEveryBotsPartsForBothTargets() async throws {
        let arguments = [
            "bench", "--scenario", "turns", "--conversations", "2", "--steps", "44", "--warmup", "1s", "--duration", "2s", "--json",
        ]
        let results = try await Self.check(arguments: arguments, connections: 22)
        #expect(results.map { $0["target"] as? String } == ["relay", "typewire"])
        for result in results {
            // 2 bots × 2 parts a second × 2 s, each part timed by its conversation's 10 other sockets.
            #expect((result["samples"] as? Int ?? 0) >= 60, "\(result["target"] ?? "?"): \(result["samples"] ?? "?") samples")
        }
    }

    @Test func aReconnectStormBringsEverySocketBackAndLosesNothing() async throws {
        let arguments = [
            "bench", "--scenario", "tail", "--target", "typewire", "--conversations", "2", "--steps", "40", "--storm", "30",
            "--warmup", "1s", "--duration", "2s", "--json",
        ]
        let results = try await Self.results(of: arguments)
        #expect(results.count == 2, "a window without the storm, then one with it")
        #expect(results.first?["storm"] == nil)
        let storm = try #require(results.last?["storm"] as? [String: Any])
        #expect(storm["sockets"] as? Int == 30)
        #expect(storm["reconnected"] as? Int == 30)
        for result in results {
            #expect((result["samples"] as? Int ?? 0) > 0)
            #expect(result["lost"] as? Int == 0)
            #expect(result["errors"] as? Int == 0, "\(result["errorNotes"] ?? "?")")
        }
    }

    /// One conversation of 20: a message a second, each read by the 19 others within a second, and the
    /// server's receipts and unread frames counted per read.
    @Test func theReceiptsScenarioCountsEveryReadAndWhatItCaused() async throws {
        let arguments = [
            "bench", "--scenario", "receipts", "--target", "typewire", "--conversations", "1", "--members", "20", "--rate", "1",
            "--warmup", "1s", "--duration", "3s", "--json",
        ]
        let result = try #require(try await Self.results(of: arguments).first)
        #expect(result["errors"] as? Int == 0, "\(result["errorNotes"] ?? "?")")
        // 3 messages in the window, each read by 19 members: about 57 reads (those at the edges may fall out).
        let reads = (result["readsPerSecond"] as? Double ?? 0) * 3
        #expect((30...70).contains(reads), "\(reads) reads")
        // Each read tells the reader's own devices (`unread`); receipts go out at most once a second, to all 20.
        #expect((result["unreadFramesPerRead"] as? Double ?? 0) > 0.5)
        #expect((result["receiptFramesPerRead"] as? Double ?? 0) > 0.1)
    }

    @discardableResult
    private static func check(arguments: [String], connections: Int = 20) async throws -> [[String: Any]] {
        let results = try await results(of: arguments)
        #expect(Set(results.compactMap { $0["target"] as? String }) == ["typewire", "relay"])
        for result in results {
            let target = result["target"] as? String ?? "?"
            #expect((result["samples"] as? Int ?? 0) > 0, "\(target): no latency samples")
            #expect(result["lost"] as? Int == 0, "\(target): lost \(result["lost"] ?? "?")")
            #expect(result["errors"] as? Int == 0, "\(target): errors \(result["errorNotes"] ?? "?")")
            #expect((result["connectionsPerSecond"] as? Double ?? 0) > 0, "\(target): no connections/s")
            #expect(result["connections"] as? Int == connections, "\(target): \(result["connections"] ?? "?") connections")
        }
        return results
    }

    /// Runs `typewire bench … --json`, expects it to end with status 0, and returns its report's results.
    private static func results(of arguments: [String]) async throws -> [[String: Any]] {
        let (status, output, errors) = try await Self.run(arguments)
        #expect(status == 0, "typewire bench exited with \(status): \(errors.suffix(3_000))")
        let json = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") }, "no JSON in: \(output)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(report["results"] as? [[String: Any]])
    }

    /// Runs the built `typewire` and waits for it without blocking a thread of the cooperative pool.
    private static func run(_ arguments: [String]) async throws -> (Int32, String, String) {
        let executable = Self.executable
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw BenchTestError(message: "\(executable.path) is missing: run `swift build` before the tests")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-bench-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let err = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let deadline = ContinuousClock.now + .seconds(150)
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning {
            process.terminate()
            throw BenchTestError(message: "typewire bench did not stop by itself within 150 s")
        }
        return (
            process.terminationStatus,
            (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        )
    }
}

/// Why the bench could not be run.
struct BenchTestError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
