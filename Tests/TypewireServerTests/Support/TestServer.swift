import Foundation
import Hummingbird
import Logging
import Testing
import ServiceLifecycle
import TypewireServer

/// A real `typewire serve` on 127.0.0.1 with a port of its own and a real SQLite file in a temporary
/// folder, seeded with the demo users and conversations.
struct TestServer {
    static let secret = "typewire-test-secret-not-for-production-use"

    let port: Int
    let authority: TokenAuthority
    let configuration: ServerConfiguration

    /// A token for a demo user (alice, bob, carol, dave, erin, frank, clawd) or anyone else.
    func token(_ user: String, name: String? = nil, lifetime: Duration = .seconds(3_600)) async throws -> String {
        let demo = DemoSeed.users.first { $0.userID == user }
        return try await authority.sign(demo ?? Identity(userID: user, name: name), lifetime: lifetime)
    }

    /// A socket that has said hello as this user.
    func socket(_ user: String) async throws -> TestSocket {
        try await TestSocket.connect(port: port, token: try await token(user))
    }

    /// A socket that has said hello as this user and subscribed to a conversation.
    func subscribedSocket(_ user: String, to conversation: String) async throws -> TestSocket {
        let socket = try await socket(user)
        socket.send(.subscribe(.init(conversation: conversation)))
        try await socket.next { if case .subscribed = $0 { true } else { false } }
        return socket
    }

    /// Runs a server for the body's duration.
    /// - Parameters:
    ///   - folder: Where the SQLite file lives; a new temporary folder if nil (pass one to restart on it).
    ///   - configure: Changes to the test configuration.
    static func run(
        folder: URL? = nil, configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (TestServer) async throws -> Void
    ) async throws {
        let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = ServerConfiguration(
            port: 0, sqlitePath: folder.appendingPathComponent("typewire.sqlite").path, jwtSecret: secret
        )
        configure(&configuration)
        var logger = Logger(label: "typewire.test")
        logger.logLevel = .warning
        let store = try await SQLiteChatStore.open(path: configuration.sqlitePath, logger: logger)
        try await DemoSeed.seed(into: store)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = try await TypewireApplication.make(configuration: configuration, store: store, logger: logger) { port in
            portContinuation.yield(port)
        }
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var portIterator = ports.makeAsyncIterator()
            guard let port = await portIterator.next() else { throw TestServerError.didNotStart }
            let server = TestServer(port: port, authority: try await TokenAuthority(secret: secret), configuration: configuration)
            do {
                try await body(server)
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
        try await store.close()
    }
}

enum TestServerError: Error {
    case didNotStart
}
