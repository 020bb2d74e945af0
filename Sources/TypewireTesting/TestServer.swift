import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TypewireServer

/// A real `typewire serve` for tests: on 127.0.0.1 with a port of its own and a real SQLite file in a
/// temporary folder, seeded with the demo users and conversations. Its configuration is the server's default
/// but for a hello timeout of a minute (see ``run(folder:configure:wrapStore:isolation:_:)``).
///
/// ```swift
/// try await TestServer.run { server in
///     let token = try await server.token("alice")
///     // connect to ws://127.0.0.1:\(server.port)/v1/socket …
/// }
/// ```
public struct TestServer: Sendable {
    /// The secret test tokens are signed with.
    public static let secret = "typewire-test-secret-not-for-production-use"

    /// The port the server listens on.
    public let port: Int
    /// Signs tokens for the server.
    public let authority: TokenAuthority
    /// The configuration the server runs with.
    public var configuration: ServerConfiguration { settings.configuration }
    /// The configuration behind a reference: a test server is captured by many escaping async closures (token
    /// providers, URLs), and a closure context holding the whole configuration (over 600 bytes) crashed the
    /// test process with Swift 6.3.1 on Linux (a bad pointer in `swift_release`) once the configuration
    /// grew by one field.
    private let settings: Settings

    private final class Settings: Sendable {
        let configuration: ServerConfiguration
        init(_ configuration: ServerConfiguration) { self.configuration = configuration }
    }

    private init(port: Int, authority: TokenAuthority, configuration: ServerConfiguration) {
        self.port = port
        self.authority = authority
        self.settings = Settings(configuration)
    }

    /// The socket's URL.
    public var socketURL: String { "ws://127.0.0.1:\(port)/v1/socket" }

    /// A token for a demo user (alice, bob, carol, dave, erin, frank, clawd) or anyone else (a bot with `isBot`).
    public func token(_ user: String, name: String? = nil, isBot: Bool = false, lifetime: Duration = .seconds(3_600)) async throws
        -> String
    {
        let demo = DemoSeed.users.first { $0.userID == user }
        return try await authority.sign(demo ?? Identity(userID: user, name: name, isBot: isBot), lifetime: lifetime)
    }

    /// Runs a server for the body's duration, then shuts it down gracefully.
    /// - Parameters:
    ///   - folder: Where the SQLite file lives; a new temporary folder if nil (pass one to restart on it).
    ///   - configure: Changes to the test configuration (port 0 by default: a free one).
    ///   - wrapStore: Puts a store of the test's own in front of the SQLite store the server uses.
    ///   - isolation: Where the body runs: the caller's actor (a `@MainActor` test's models stay on it).
    public static func run(
        folder: URL? = nil, configure: (inout ServerConfiguration) -> Void = { _ in },
        wrapStore: (any ChatStore) -> any ChatStore = { $0 },
        isolation: isolated (any Actor)? = #isolation, _ body: (TestServer) async throws -> Void
    ) async throws {
        // A folder made here is removed at the end; one passed in is the caller's (to restart on it).
        let ownsFolder = folder == nil
        let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString)")
        defer { if ownsFolder { try? FileManager.default.removeItem(at: folder) } }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = ServerConfiguration(jwtSecret: secret)
        configuration.http.port = 0
        configuration.storage.sqlitePath = folder.appendingPathComponent("typewire.sqlite").path
        // A minute for a socket's `hello` (the server's default is 5 s): a test's socket says hello a moment after
        // its upgrade, which on a loaded machine running many tests can be later than 5 s, and the socket would
        // be closed for that rather than for what the test checks. A test of the timeout sets its own.
        configuration.sockets.helloTimeout = .seconds(60)
        configure(&configuration)
        var logger = Logger(label: "typewire.test")
        logger.logLevel = .warning
        let store = try await SQLiteChatStore.open(path: configuration.storage.sqlitePath, logger: logger)
        do {
            try await DemoSeed.seed(into: store)
            let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
            let server = try await TypewireApplication.make(configuration: configuration, store: wrapStore(store), logger: logger) { port in
                portContinuation.yield(port)
            }
            var groupConfiguration = ServiceGroupConfiguration(services: [server], logger: logger)
            groupConfiguration.maximumGracefulShutdownDuration = .seconds(5)  // a stuck shutdown fails, not hangs
            groupConfiguration.maximumCancellationDuration = .seconds(5)
            let services = ServiceGroup(configuration: groupConfiguration)
            try await serve(services, ports: ports, portContinuation: portContinuation, configuration: configuration, body)
        } catch {
            try? await store.close()  // a store must be closed before it goes, whatever the body did
            throw error
        }
        try await store.close()
    }

    private static func serve(
        _ services: ServiceGroup, ports: AsyncStream<Int>, portContinuation: AsyncStream<Int>.Continuation,
        configuration: ServerConfiguration, isolation: isolated (any Actor)? = #isolation, _ body: (TestServer) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { portContinuation.finish() }  // a server that could not listen ends the wait for its port
                try await services.run()
            }
            var portIterator = ports.makeAsyncIterator()
            guard let port = await portIterator.next() else { throw TestServerError.didNotStart }
            let running = TestServer(port: port, authority: try await TokenAuthority(secret: secret), configuration: configuration)
            do {
                try await body(running)
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
    }
}

/// Why a test server could not run.
public struct TestServerError: Error, CustomStringConvertible {
    let message: String
    static let didNotStart = TestServerError(message: "The test server stopped before it listened.")
    public var description: String { message }
}
