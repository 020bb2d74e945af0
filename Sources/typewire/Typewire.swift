import ArgumentParser
import TypewireCore
import TypewireServer

/// The `typewire` command: the server, its tools, a client and the simulator.
@main
struct Typewire: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typewire",
        abstract: "Real-time typing indicators and presence for chat apps.",
        version: TypewireVersion.current,
        subcommands: [Serve.self, Token.self, Client.self, Simulate.self, Bench.self, Relay.self]
    )

    /// Sizes NIO's loops by the CPUs the process may run on (``EventLoopCount``), then runs the command.
    static func main() async {
        EventLoopCount.suggestForThisProcess()
        await main(nil)
    }
}
