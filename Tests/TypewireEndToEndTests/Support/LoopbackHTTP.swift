import Hummingbird
import Logging
import ServiceLifecycle

/// Serves a router on a free port of 127.0.0.1 for the body's duration (the key sets and webhook receivers
/// the tests stand up), then stops it.
///
/// Stopped by a graceful shutdown, never by cancelling its task: a server task cancelled while a connection
/// it accepted waits to be served leaves that connection's `NIOAsyncChannel` unclosed, and NIO traps
/// ("Deinited NIOAsyncWriter without calling finish()", apple/swift-nio#3481). The server under test keeps
/// sending to a webhook receiver until the end, so a connection can arrive at that moment.
func serveOnLoopback(_ router: Router<BasicRequestContext>, label: String, _ body: (_ port: Int) async throws -> Void) async throws {
    let (ports, port) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: label)
    logger.logLevel = .critical
    let application = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { port.yield($0.localAddress?.port ?? 0) }, logger: logger
    )
    var configuration = ServiceGroupConfiguration(services: [application], logger: logger)
    configuration.maximumGracefulShutdownDuration = .seconds(10)  // a stuck shutdown fails the test, not hangs it
    configuration.maximumCancellationDuration = .seconds(5)
    let services = ServiceGroup(configuration: configuration)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            defer { port.finish() }  // a server that could not listen ends the wait for its port
            try await services.run()
        }
        guard let bound = await ports.first(where: { _ in true }) else { throw LoopbackHTTPError() }
        do {
            try await body(bound)
        } catch {
            await services.triggerGracefulShutdown()
            throw error
        }
        await services.triggerGracefulShutdown()
        try await group.waitForAll()
    }
}

/// The loopback server did not start.
struct LoopbackHTTPError: Error {}
