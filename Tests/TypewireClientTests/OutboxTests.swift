import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireClient

/// Messages not acknowledged when a client ends (an app killed by iOS) are sent again by the next client
/// on the same outbox file, once the same user is welcomed, and the server stores each once.
@Suite("Outbox file", .timeLimit(.minutes(1)))
struct OutboxTests: ClientTesting {
    @Test func messagesUnacknowledgedWhenTheClientEndsAreSentOnceByTheNextRunOfTheSameUser() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let serverFolder = folder.appendingPathComponent("server")
        try FileManager.default.createDirectory(at: serverFolder, withIntermediateDirectories: true)
        let outbox = OutboxFile(url: folder.appendingPathComponent("outbox.json"))
        var configuration = Self.quickBackoff
        configuration.outbox = outbox

        // The first run: alice is welcomed and opens the chat; then the server is gone and she writes two
        // messages, which wait; then her client ends, as a killed app's does.
        var port = 0
        var firstRun: Task<Void, any Error>?
        var firstChat: ConversationHandle?
        try await TestServer.runOnRestartablePort(folder: serverFolder) { server in
            port = server.port
            let alice = client("alice", of: server, configuration: configuration)
            firstRun = Task { try await alice.run() }
            firstChat = try await openChat(alice)
        }
        let sends = ["one", "two"].map { text in Task { [firstChat] in try await firstChat?.send(text) } }
        try await eventually { (try? outbox.load().messages.count) == 2 }
        firstRun?.cancel()
        sends.forEach { $0.cancel() }

        try await TestServer.run(folder: serverFolder, configure: { $0.http.port = port }) { server in
            // Bob on the same device (the same file) sends none of alice's messages.
            try await withClients(["bob"], of: server, configuration: configuration) { clients in
                _ = try await openChat(clients[0])
            }
            #expect(try await history(as: "bob", on: server).isEmpty)
            #expect(try outbox.load().messages.map(\.user) == ["alice", "alice"])

            // Alice's next run sends them, and the server stores each once.
            try await withClients(["alice"], of: server, configuration: configuration) { clients in
                try await waitUntilConnected(clients[0])
                try await eventually { (try? outbox.load().messages.isEmpty) == true }
            }
            let texts = try await history(as: "bob", on: server).map(\.text)
            #expect(texts.sorted() == ["one", "two"])
        }
    }
}
