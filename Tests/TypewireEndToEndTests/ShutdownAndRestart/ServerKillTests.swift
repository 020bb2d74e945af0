import Foundation
import NIOConcurrencyHelpers
import Testing
import TypewireClient
import TypewireCore
import TypewireServer
import TypewireTesting

/// The server process killed with SIGKILL in the middle of traffic and started again on the same
/// SQLite file and port, with real `TypewireClient`s on the other side.
@Suite("Faults: the server killed and restarted", .timeLimit(.minutes(2)))
struct ServerKillTests {
    @Test func clientsComeBackByThemselvesAndEveryMessageIsStoredOnceWithNoAcknowledgedOneLost() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqlite = ["--sqlite", folder.appendingPathComponent("typewire.sqlite").path]
        let first = try await ServerProcess.startOnRestartablePort(name: "before-kill", arguments: sqlite)
        let url = "ws://127.0.0.1:\(first.port)/v1/socket"
        let authority = try await TokenAuthority(secret: TestServer.secret)
        let backoff = TypewireClient.Configuration(backoff: .init(initial: .milliseconds(50), maximum: .milliseconds(300)))
        func client(_ user: String) -> TypewireClient {
            TypewireClient(url: url, configuration: backoff) { try await authority.sign(DemoSeed.users.first { $0.userID == user }!) }
        }
        let alice = client("alice")
        let bob = client("bob")
        let connections = [Task { try await alice.run() }, Task { try await bob.run() }]
        defer { connections.forEach { $0.cancel() } }
        let aliceChat = await alice.conversation("direct-alice-bob")
        let bobChat = await bob.conversation("direct-alice-bob")

        // Alice sends 30 messages, one every 100 ms; the server dies once 5 of them were acknowledged (so that
        // "no acknowledged message lost" is tested with acknowledged messages, however slow the machine).
        let texts = (1...30).map { "message \($0) around the kill" }
        let acknowledgedBeforeKill = Acknowledgements()
        let sending = Task {
            try await withThrowingTaskGroup(of: (String, String).self) { group in
                for text in texts {
                    group.addTask {
                        let id = try await aliceChat.send(text)
                        acknowledgedBeforeKill.count()
                        return (text, id)
                    }
                    try await Task.sleep(for: .milliseconds(100))  // the pace of the sends, not a wait for a timer
                }
                return try await group.reduce(into: [String: String]()) { $0[$1.0] = $1.1 }
            }
        }
        try await eventually(within: .seconds(30)) { acknowledgedBeforeKill.total >= 5 }
        await first.kill()
        #expect(acknowledgedBeforeKill.total < texts.count, "the kill came in the middle of the sends")
        let restarted = try await ServerProcess.start(name: "after-kill", arguments: sqlite + ["--port", "\(first.port)"])

        let acknowledged = try await sending.value  // every send completes: retried until acknowledged
        #expect(acknowledged.count == texts.count)
        // State restored: both resubscribed by themselves, and typing flows again.
        await aliceChat.setActivity(.typing)
        var typing = bobChat.typing.makeAsyncIterator()
        var shown = false
        while let state = await typing.next() {
            if state.text == "Alice is typing…" {
                shown = true
                break
            }
        }
        #expect(shown, "Bob's typing stream ended before Alice's typing showed")
        // Stored exactly once each, under the id that was acknowledged.
        let store = try await SQLiteChatStore.open(path: sqlite[1])
        let history = try await store.messages(of: "direct-alice-bob", before: nil, limit: 200)
        try await store.close()
        for text in texts {
            let stored = history.filter { $0.text == text }
            #expect(stored.count == 1, "\(text) stored \(stored.count) times")
            #expect(stored.first?.id == acknowledged[text], "the acknowledged id is the stored one")
        }
        await restarted.stop()
    }
}

/// Acknowledged sends, counted from the sending tasks.
private final class Acknowledgements: Sendable {
    private let value = NIOLockedValueBox(0)
    var total: Int { value.withLockedValue { $0 } }
    func count() { value.withLockedValue { $0 += 1 } }
}
