import Foundation

/// A `nats-server` process for tests (Debian's `nats-server` package; `.ci/run` installs it), with its log
/// in a file. Servers started with each other's cluster ports as routes form a NATS cluster.
public final class NATSTestServer: Sendable {
    /// The port clients connect to.
    public let port: Int
    /// The port other servers of its cluster connect to.
    public let clusterPort: Int
    /// Its log.
    public let log: URL
    private let process: SpawnedProcess

    /// `nats://127.0.0.1:PORT`.
    public var url: String { "nats://127.0.0.1:\(port)" }

    private init(process: SpawnedProcess, port: Int, clusterPort: Int, log: URL) {
        self.process = process
        self.port = port
        self.clusterPort = clusterPort
        self.log = log
    }

    /// The `nats-server` binary, if one is installed.
    public static let binary: String? = ["/usr/bin/nats-server", "/usr/sbin/nats-server", "/usr/local/bin/nats-server"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Whether NATS tests run: with a `nats-server` installed, and always under `CI=true` (where a missing
    /// one fails them instead of skipping).
    public static let isEnabled = binary != nil || ProcessInfo.processInfo.environment["CI"] == "true"

    /// Why NATS tests are skipped, for `.enabled(if:)`.
    public static let skipReason = "NATS tests need nats-server (apt-get install nats-server; .ci/run installs it)"

    /// Starts a server on 127.0.0.1 and waits until it is ready.
    /// - Parameters:
    ///   - port: The client port; nil picks one below the ephemeral range (``RestartPort``), another if taken.
    ///   - clusterPort: The cluster port; nil picks one likewise.
    ///   - routes: Cluster ports of other servers to route to: together they form one cluster.
    ///   - user: A user and password the server requires of clients.
    ///   - tls: A certificate and key: the server then takes only TLS connections.
    public static func start(
        port: Int? = nil, clusterPort: Int? = nil, routes: [Int] = [], user: (name: String, password: String)? = nil,
        tls: TestCertificates? = nil
    ) async throws -> NATSTestServer {
        guard let binary else { throw NATSTestServerError(skipReason) }
        var lastError: (any Error)?
        for _ in 1...RestartPort.attempts {
            let port = port ?? Self.reservePort()
            let clusterPort = clusterPort ?? Self.reservePort()
            do {
                return try await launch(binary, port: port, clusterPort: clusterPort, routes: routes, user: user, tls: tls)
            } catch {
                lastError = error  // most likely a port was taken: others
            }
        }
        throw lastError ?? NATSTestServerError("nats-server did not start")
    }

    /// Ports handed out in this test process: two test servers never get the same one (a random pick would give
    /// some run's servers a client port equal to another's route port: the second one then exits).
    private static let handedOut = NSLock()
    nonisolated(unsafe) private static var used: Set<Int> = []

    /// A port below the ephemeral range that no test server of this process was given, and none will be.
    public static func reservePort() -> Int {
        handedOut.withLock {
            var port = RestartPort.pick()
            while used.contains(port) { port = RestartPort.pick() }
            used.insert(port)
            return port
        }
    }

    private static func launch(
        _ binary: String, port: Int, clusterPort: Int, routes: [Int], user: (name: String, password: String)?, tls: TestCertificates?
    ) async throws -> NATSTestServer {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-nats-\(port)-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        var arguments = [
            "-a", "127.0.0.1", "-p", "\(port)", "--cluster_name", "typewire-test", "--cluster", "nats://127.0.0.1:\(clusterPort)",
        ]
        if !routes.isEmpty { arguments += ["--routes", routes.map { "nats://127.0.0.1:\($0)" }.joined(separator: ",")] }
        if let user { arguments += ["--user", user.name, "--pass", user.password] }
        if let tls { arguments += ["--tls", "--tlscert", tls.certificate, "--tlskey", tls.key] }
        let process = try SpawnedProcess.spawn(binary, arguments: arguments, log: log)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            // The route port is bound after "Server is ready": a server whose route port was taken exits then.
            if text.contains("Server is ready"), text.contains("Listening for route connections"), process.isRunning {
                return NATSTestServer(process: process, port: port, clusterPort: clusterPort, log: log)
            }
            guard process.isRunning else { throw NATSTestServerError("nats-server exited: \(text.suffix(1_000))") }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw NATSTestServerError("nats-server did not start within 10 s; log: \(log.path)")
    }

    /// Kills the server at once (SIGKILL): its clients see their connections reset.
    public func kill() async {
        process.signal(SIGKILL)
        let deadline = ContinuousClock.now + .seconds(5)
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
    }

    /// Whether its log holds a text (e.g. that a route connected).
    public func logContains(_ text: String) -> Bool {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains(text)
    }

}

/// Why a test's NATS server could not start.
public struct NATSTestServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
