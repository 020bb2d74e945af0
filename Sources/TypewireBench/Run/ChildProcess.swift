import Foundation
import NIOConcurrencyHelpers
import TypewireServer

/// A child process of the benchmark (a server or a worker), its output in a log file.
///
/// Waiting never blocks a thread: it polls. ``stop()`` sends SIGTERM, then SIGKILL after 5 s.
final class ChildProcess: Sendable {
    let name: String
    let log: URL
    private let process: Process

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Starts this executable again with these arguments; with `cpus` (a `taskset` list like `0` or `0,1`)
    /// it runs on those CPUs only.
    init(name: String, arguments: [String], folder: URL, cpus: String? = nil) throws {
        self.name = name
        log = folder.appendingPathComponent("\(name).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        process = Process()
        if let cpus {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
            process.arguments = ["--cpu-list", cpus, Self.executable.path] + arguments
        } else {
            process.executableURL = Self.executable
            process.arguments = arguments
        }
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw BenchError("Cannot start \(Self.executable.path) \(arguments.joined(separator: " ")): \(error)")
        }
        ChildRegistry.shared.add(pid)
    }

    /// This executable (`/proc/self/exe`).
    static var executable: URL {
        URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    }

    /// The log so far.
    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Waits until the log has the listening line (``ListeningLine``) and returns its port.
    func listeningPort(within seconds: Double) async throws -> Int {
        let deadline = BenchClock.monotonicNanos() + UInt64(seconds * 1e9)
        while BenchClock.monotonicNanos() < deadline {
            let text = output
            if let port = ListeningLine.port(in: text) { return port }
            guard process.isRunning else { throw BenchError("\(name) exited before it listened: \(text.suffix(2_000))") }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw BenchError("\(name) did not listen within \(Int(seconds)) s; its log: \(log.path)")
    }

    /// Waits until the log has a line equal to `line`.
    func waitForLine(_ line: String, within seconds: Double) async throws {
        let deadline = BenchClock.monotonicNanos() + UInt64(seconds * 1e9)
        while BenchClock.monotonicNanos() < deadline {
            if output.split(separator: "\n").contains(where: { $0 == line }) { return }
            guard process.isRunning else { throw BenchError("\(name) exited: \(output.suffix(2_000))") }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw BenchError("\(name) did not print \(line) within \(Int(seconds)) s; its log: \(log.path)")
    }

    /// Waits until it exits by itself; returns its status.
    func waitForExit(within seconds: Double) async -> Int32? {
        let deadline = BenchClock.monotonicNanos() + UInt64(seconds * 1e9)
        while process.isRunning, BenchClock.monotonicNanos() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// SIGTERM, then SIGKILL if it still runs 5 s later.
    func stop() async {
        if process.isRunning {
            kill(pid, SIGTERM)
            if await waitForExit(within: 5) == nil {
                kill(pid, SIGKILL)
                _ = await waitForExit(within: 5)
            }
        }
        ChildRegistry.shared.remove(pid)
    }
}

/// The children still running, so that the global deadline can kill them.
public final class ChildRegistry: Sendable {
    /// The one registry.
    public static let shared = ChildRegistry()
    private let running = NIOLockedValueBox<Set<Int32>>([])

    func add(_ pid: Int32) { running.withLockedValue { _ = $0.insert(pid) } }
    func remove(_ pid: Int32) { running.withLockedValue { _ = $0.remove(pid) } }

    /// Kills every child (the deadline passed).
    public func killAll() {
        running.withLockedValue { for pid in $0 { kill(pid, SIGKILL) } }
    }
}
