import Foundation
import Testing
import TypewireServer
import TypewireTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `typewire serve` process with its output in a log file: one node of a test cluster on a shared
/// PostgreSQL database, or a single server that a test kills and restarts.
final class ServerProcess: Sendable {
    let port: Int
    let log: URL
    private let process: SpawnedProcess

    private init(process: SpawnedProcess, port: Int, log: URL) {
        self.process = process
        self.port = port
        self.log = log
    }

    /// The executable `swift build` made (CI builds it before the tests).
    static let executable = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/debug/typewire")

    /// The server API's key of a cluster's nodes.
    static let apiKey = "cluster-tests-api-key-0123456789abcdef"

    /// Starts a node of a cluster on a free port, with the server API, and waits until it listens.
    /// - Parameters:
    ///   - natsURL: The NATS servers its events travel through; nil: PostgreSQL's LISTEN/NOTIFY.
    ///   - extra: More arguments of `typewire serve`.
    static func start(postgresURL: String, name: String, natsURL: String? = nil, extra: [String] = []) async throws -> ServerProcess {
        try await start(
            name: name,
            arguments: ["--postgres-url", postgresURL, "--api-key", apiKey] + (natsURL.map { ["--nats-url", $0] } ?? []) + extra)
    }

    /// The value of a counter or gauge in the node's `/metrics` (0 if absent).
    func metric(_ name: String) async throws -> Double {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/metrics")!)
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// ``start(name:arguments:)`` on a port below the ephemeral range (``RestartPort``), another one tried if
    /// it is taken: for a server that is started again on the same port.
    static func startOnRestartablePort(name: String, arguments: [String]) async throws -> ServerProcess {
        for attempt in 1...RestartPort.attempts {
            do {
                return try await start(name: name, arguments: arguments + ["--port", "\(RestartPort.pick())"])
            } catch is ClusterTestError where attempt < RestartPort.attempts {
                continue  // it exited, most likely because the port was taken: another one
            }
        }
        throw ClusterTestError("no port for \(name) after \(RestartPort.attempts) tries")
    }

    /// A `GET` of the server API (`/v1/server/…`) with the nodes' key: the answer's body.
    func serverAPI(_ path: String) async throws -> String {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/server\(path)")!)
        request.setValue("Bearer \(Self.apiKey)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts `typewire serve --seed-demo` with the test secret and these arguments (`--port 0` unless they
    /// name a port), and waits until it listens.
    static func start(name: String, arguments: [String]) async throws -> ServerProcess {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw ClusterTestError("\(executable.path) is missing: run `swift build` before the cluster tests")
        }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-node-\(name)-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = try SpawnedProcess.spawn(
            executable.path,
            arguments: ["serve", "--seed-demo", "--jwt-secret", TestServer.secret] + (arguments.contains("--port") ? [] : ["--port", "0"])
                + arguments,
            log: log)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let port = ListeningLine.port(in: text) { return ServerProcess(process: process, port: port, log: log) }
            guard process.isRunning else { throw ClusterTestError("node \(name) exited: \(text.suffix(2_000))") }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        throw ClusterTestError("node \(name) did not listen within 30 s; log: \(log.path)")
    }

    /// A token for a demo user (under another name, if given), signed with the nodes' secret.
    func token(_ user: String, name: String? = nil) async throws -> String {
        var identity = DemoSeed.users.first { $0.userID == user } ?? Identity(userID: user, name: nil)
        if let name { identity.name = name }
        return try await TokenAuthority(secret: TestServer.secret).sign(identity)
    }

    /// A socket that said hello as this user (under another name, if given).
    func socket(_ user: String, name: String? = nil) async throws -> TestSocket {
        try await TestSocket.connect(port: port, token: try await token(user, name: name))
    }

    /// A socket that said hello as this user and subscribed to a conversation.
    func subscribedSocket(_ user: String, name: String? = nil, to conversation: String) async throws -> TestSocket {
        let socket = try await socket(user, name: name)
        socket.send(.subscribe(.init(conversation: conversation)))
        try await socket.next(within: .seconds(5)) { if case .subscribed = $0 { true } else { false } }
        return socket
    }

    /// Calls the node's REST API as a user; returns the status.
    func request(_ method: String, _ path: String, as user: String, json: String? = nil) async throws -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.setValue("Bearer \(try await token(user))", forHTTPHeaderField: "Authorization")
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// Kills the process at once (SIGKILL): no goodbye, no closing handshake; the kernel closes its sockets.
    func kill() async {
        process.signal(SIGKILL)
        await waitForExit(within: .seconds(5))
    }

    /// Freezes the process (SIGSTOP) or lets it go on (SIGCONT): a node that stalls.
    func pause(_ paused: Bool) {
        process.signal(paused ? SIGSTOP : SIGCONT)
    }

    /// Stops the process gracefully (SIGTERM), and kills it if it has not exited within 10 s.
    ///
    /// Waiting never blocks a thread: the test's own sockets must still answer the node's closing
    /// handshakes while it shuts down.
    func stop() async {
        guard process.isRunning else { return }
        process.terminate()
        if await !waitForExit(within: .seconds(10)) {
            Issue.record(
                "node on port \(port) did not stop within 10 s of SIGTERM (\(processState)); killed it (log: \(log.path))")
            await kill()
        }
    }

    /// The process's state as the kernel sees it (`/proc/PID/stat`: `Z` exited and not yet reaped, `S`
    /// sleeping, `R` running), and where each of its threads waits: what a stop that hangs is doing.
    private var processState: String {
        let pid = process.processIdentifier
        let state = kernelState ?? "gone"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let waits = threads.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/wchan", encoding: .utf8) }
        return "state \(state); threads waiting in \(Set(waits).sorted().joined(separator: ", "))"
    }

    /// The process's state letter in `/proc/PID/stat`; nil once it is gone.
    private var kernelState: String? {
        let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.split(separator: " ").first.map(String.init)
    }

    /// Whether the process has ended: Foundation says so, or the kernel does (`Z`: it exited, and Foundation
    /// has not reaped it yet, which a busy test process was once seen to delay past 10 s).
    private var hasExited: Bool {
        !process.isRunning || kernelState == "Z"
    }

    @discardableResult
    private func waitForExit(within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !hasExited, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return hasExited
    }
}

/// Runs a cluster of nodes on a new database for the body's duration.
func withCluster(
    nodes count: Int, bus: ClusterBusKind = .notify, extra: [String] = [],
    _ body: (_ nodes: [ServerProcess], _ postgresURL: String) async throws -> Void
) async throws {
    let url = try await TestDatabase.create()
    var nodes: [ServerProcess] = []
    do {
        // All start together: they migrate the schema and seed the demo once between them.
        try await withThrowingTaskGroup(of: ServerProcess.self) { group in
            for index in 1...count {
                group.addTask {
                    try await ServerProcess.start(postgresURL: url, name: "\(index)", natsURL: bus.natsURL(forNode: index), extra: extra)
                }
            }
            for try await node in group { nodes.append(node) }
        }
        nodes.sort { $0.port < $1.port }
        try await body(nodes, url)
    } catch {
        for node in nodes { await node.stop() }
        throw error
    }
    for node in nodes { await node.stop() }
}

/// The bus a test cluster's events travel on, for tests that run on both.
enum Bus: String, Sendable, CustomTestStringConvertible {
    case notify, nats

    /// The buses tests run on: NATS too where a `nats-server` is installed (always under CI=true).
    static let available: [Bus] = NATSTestServer.isEnabled ? [.notify, .nats] : [.notify]

    var testDescription: String { rawValue }
}

/// ``withCluster(nodes:bus:_:)`` on a bus: for NATS, on a NATS server of its own.
func withCluster(
    nodes count: Int, on bus: Bus, extra: [String] = [], _ body: (_ nodes: [ServerProcess], _ postgresURL: String) async throws -> Void
) async throws {
    guard bus == .nats else { return try await withCluster(nodes: count, bus: .notify, extra: extra, body) }
    let server = try await NATSTestServer.start()
    defer { Task { await server.kill() } }
    try await withCluster(nodes: count, bus: .nats([server.url]), extra: extra, body)
}

/// The bus a test cluster's events travel on.
enum ClusterBusKind: Sendable, CustomTestStringConvertible {
    /// PostgreSQL's LISTEN/NOTIFY.
    case notify
    /// These NATS servers: node N is given server N only (of the list, round robin), and learns the others of
    /// their NATS cluster from it.
    case nats([String])

    func natsURL(forNode index: Int) -> String? {
        guard case .nats(let urls) = self, !urls.isEmpty else { return nil }
        return urls[(index - 1) % urls.count]
    }

    var testDescription: String {
        switch self {
        case .notify: "LISTEN/NOTIFY"
        case .nats(let urls): "NATS (\(urls.count) servers)"
        }
    }
}

struct ClusterTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
