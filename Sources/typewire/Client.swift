import ArgumentParser
import Foundation
import TypewireClient
import TypewireCore

/// `typewire client`: the Swift SDK's client from a shell, for trying a server by hand and for the fault
/// tests (`Tests/Faults`), which kill it, cut its network and relaunch it.
///
/// Reads commands from standard input, one a line: `type TEXT` (the input field now holds TEXT, as on a
/// keystroke), `clear` (the field was cleared), `send TEXT` (sent from the field: typing stops),
/// `typing` and `stop` (the activity set directly), `network-changed`, `quit`. Keystrokes go through the
/// SDK's ``Composer``, so its rules decide the frames (start at once, refreshes, the idle stop). Writes
/// what happens to standard output, one JSON object a line: `{"state": …}` for every connection state,
/// `{"acked": TEXT, "id": …}` when the server stored a message, `{"message": TEXT, "from": USER}` for
/// every message that arrives, `{"typing": TEXT}` for the indicator's text (empty when nobody types).
struct Client: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the Swift client: commands on standard input, events as JSON lines on standard output."
    )

    @Option(help: "The server's socket, e.g. ws://127.0.0.1:8080/v1/socket.")
    var url: String

    @Option(help: "The token to say hello with.")
    var token: String

    @Option(help: "The conversation to follow.")
    var conversation: String

    @Option(help: "The outbox file: messages not acknowledged are kept there and sent again by the next run.")
    var outbox: String?

    func run() async throws {
        var configuration = TypewireClient.Configuration()
        configuration.outbox = outbox.map { OutboxFile(url: URL(fileURLWithPath: $0)) }
        let token = token
        let client = TypewireClient(url: url, configuration: configuration) { token }
        let output = EventOutput()
        let states = await client.states()
        let connection = Task { try await client.run() }
        let watchers = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await state in states { output.write(["state": "\(state)"]) }
                }
                let chat = await client.conversation(conversation)
                group.addTask {
                    for await typing in chat.typing { output.write(["typing": typing.text ?? ""]) }
                }
                group.addTask {
                    for await message in chat.messages { output.write(["message": message.text, "from": message.sender]) }
                }
                let composer = await chat.composer()
                for await line in Self.standardInputLines() {
                    let (command, argument) = Self.split(line)
                    switch command {
                    case "send":
                        group.addTask {
                            if let id = try? await composer.send(argument) { output.write(["acked": argument, "id": id]) }
                        }
                    case "type": composer.textDidChange(argument)
                    case "clear": composer.didClear()
                    case "typing": await chat.setActivity(.typing)
                    case "stop": await chat.setActivity(.none)
                    case "network-changed": await client.networkChanged()
                    case "quit": break
                    default: output.write(["error": "unknown command: \(command)"])
                    }
                    if command == "quit" { break }
                }
                group.cancelAll()
            }
        }
        await watchers.value
        connection.cancel()
    }

    private static func split(_ line: String) -> (command: String, argument: String) {
        let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : "")
    }

    /// Standard input's lines, read on a thread of their own (reading blocks).
    private static func standardInputLines() -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        Thread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }.start()
        return lines
    }
}

/// JSON lines on standard output, written whole (one `write` each) from any task.
private struct EventOutput: Sendable {
    func write(_ event: [String: String]) {
        guard var line = try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]) else { return }
        line.append(0x0A)
        FileHandle.standardOutput.write(line)
    }
}
