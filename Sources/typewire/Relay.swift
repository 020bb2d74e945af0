import ArgumentParser
import Logging
import ServiceLifecycle
import TypewireBench
import TypewireServer

/// `typewire relay`: the bare broadcast server that `typewire bench` compares Typewire with.
struct Relay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the bare relay: the benchmark's baseline on the same WebSocket stack, with no auth, store or expiry.",
        discussion: "hello → welcome; subscribe → joins the room; activity and send frames go unchanged to everyone in the room."
    )

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = 8090

    func run() async throws {
        let logger = Logger(label: "typewire.relay")
        let host = self.host
        let relay = RelayServer.make(host: host, port: port, logger: logger) { port in
            ListeningLine.announce(host: host, port: port)
        }
        try await ServiceGroup(
            configuration: .init(services: [relay], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        ).run()
    }
}
