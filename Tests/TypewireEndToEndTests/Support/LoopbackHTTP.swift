import Hummingbird
import Logging

/// Serves a router on a free port of 127.0.0.1 for the body's duration (the key sets and webhook receivers
/// the tests stand up), then stops it.
func serveOnLoopback(_ router: Router<BasicRequestContext>, label: String, _ body: (_ port: Int) async throws -> Void) async throws {
    let (ports, port) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: label)
    logger.logLevel = .critical  // the cancelled server at the end logs its cancellation
    let application = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { port.yield($0.localAddress?.port ?? 0) }, logger: logger
    )
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await application.runService() }
        guard let bound = await ports.first(where: { _ in true }) else { throw LoopbackHTTPError() }
        do {
            try await body(bound)
        } catch {
            group.cancelAll()
            throw error
        }
        group.cancelAll()
    }
}

/// The loopback server did not start.
struct LoopbackHTTPError: Error {}
