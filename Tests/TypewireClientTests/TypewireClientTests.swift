import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting
@testable import TypewireClient

/// The client against a real server on 127.0.0.1.
@Suite("TypewireClient against a real server", .timeLimit(.minutes(1)))
struct TypewireClientTests {
    static let direct = "direct-alice-bob"
    static let quickBackoff = TypewireClient.Configuration(backoff: .init(initial: .milliseconds(50), maximum: .milliseconds(200)))

    func client(_ user: String, of server: TestServer) -> TypewireClient {
        TypewireClient(url: server.socketURL, configuration: Self.quickBackoff) { try await server.token(user) }
    }

    /// The first element of a sequence that matches, within a deadline.
    func first<S: AsyncSequence & Sendable>(
        _ sequence: S, within timeout: Duration = .seconds(2), where matches: @escaping @Sendable (S.Element) -> Bool
    ) async throws -> S.Element where S.Element: Sendable {
        try await withThrowingTaskGroup(of: S.Element?.self) { group in
            group.addTask { for try await element in sequence where matches(element) { return element }; return nil }
            group.addTask { try await Task.sleep(for: timeout); return nil }
            defer { group.cancelAll() }
            guard let element = try await group.next() ?? nil else { throw ClientTestError.timedOut }
            return element
        }
    }

    func waitUntilConnected(_ client: TypewireClient) async throws {
        _ = try await first(await client.states()) { $0 == .connected }
    }

    /// Waits (polling, with a deadline) until the client's subscription to a conversation is confirmed.
    func waitUntilSubscribed(_ client: TypewireClient, to conversation: String, within timeout: Duration = .seconds(3)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !(await client.subscribedConversations.contains(conversation)) {
            guard ContinuousClock.now < deadline else { throw ClientTestError.timedOut }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Opens a conversation on a connected client and waits until the server confirmed the subscription.
    func openChat(_ client: TypewireClient, _ conversation: String = direct) async throws -> ConversationHandle {
        try await waitUntilConnected(client)
        let chat = await client.conversation(conversation)
        try await waitUntilSubscribed(client, to: conversation)
        return chat
    }

    @Test func twoClientsSeeEachOthersTypingWithinOneSecond() async throws {
        try await TestServer.run { server in
            let alice = client("alice", of: server)
            let bob = client("bob", of: server)
            let connections = [Task { await alice.run() }, Task { await bob.run() }]
            defer { connections.forEach { $0.cancel() } }
            let aliceChat = try await openChat(alice)
            let bobChat = try await openChat(bob)
            let start = ContinuousClock.now
            await aliceChat.setActivity(.typing)
            let seen = try await first(bobChat.typing, within: .seconds(1)) { $0.text != nil }
            #expect(ContinuousClock.now - start < .seconds(1))
            #expect(seen.text == "Alice is typing…")
            #expect(seen.typers.map(\.userID) == ["alice"])
            let id = try await aliceChat.send("Hi Bob")
            let message = try await first(bobChat.messages) { $0.id == id }
            #expect(message.text == "Hi Bob")
            let cleared = try await first(bobChat.typing) { _ in true }
            #expect(cleared == .idle, "the send cleared Alice's typing")
        }
    }

    @Test func afterAServerRestartClientsReconnectAndAMessageSentDuringTheOutageArrivesOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString)")
        var port = 0
        var clients: [TypewireClient] = []
        var connections: [Task<Void, Never>] = []
        defer { connections.forEach { $0.cancel() } }
        try await TestServer.run(folder: folder) { server in
            port = server.port
            clients = [client("alice", of: server), client("bob", of: server)]
            connections = clients.map { client in Task { await client.run() } }
            for client in clients { try await waitUntilConnected(client) }
        }
        let (alice, bob) = (clients[0], clients[1])
        let aliceChat = await alice.conversation(Self.direct)
        let bobChat = await bob.conversation(Self.direct)
        // The server is down: the message waits in the client.
        let sending = Task { try await aliceChat.send("sent during the outage") }
        try await TestServer.run(folder: folder, configure: { $0.port = port }) { server in
            try await waitUntilSubscribed(alice, to: Self.direct)
            try await waitUntilSubscribed(bob, to: Self.direct)
            let id = try await sending.value
            let delivered = try await first(bobChat.messages) { $0.id == id }
            #expect(delivered.text == "sent during the outage")
            // The state is restored: typing flows again after the reconnect.
            await aliceChat.setActivity(.typing)
            _ = try await first(bobChat.typing) { $0.text == "Alice is typing…" }
            // Stored exactly once: a fresh client's history has it once.
            let carol = client("alice", of: server)
            let check = Task { await carol.run() }
            defer { check.cancel() }
            let history = await carol.conversation(Self.direct)
            try await waitUntilSubscribed(carol, to: Self.direct)
            await history.close()
            var texts: [String] = []
            for await message in history.messages { texts.append(message.text) }
            #expect(texts.filter { $0 == "sent during the outage" }.count == 1)
        }
    }

    @Test func typingExpiresOnTimeWhileDisconnected() async throws {
        try await TestServer.run(configure: { $0.activityTTL = 600 }) { server in
            let alice = client("alice", of: server)
            let bob = client("bob", of: server)
            let aliceConnection = Task { await alice.run() }
            let bobConnection = Task { await bob.run() }
            defer { aliceConnection.cancel() }
            let aliceChat = try await openChat(alice)
            let bobChat = try await openChat(bob)
            await aliceChat.setActivity(.typing)
            _ = try await first(bobChat.typing) { $0.text != nil }
            let seenAt = ContinuousClock.now
            // Bob loses his connection: no update can reach him; only his roster's clock can clear Alice.
            bobConnection.cancel()
            _ = try await first(await bob.states()) { $0 == .stopped }
            let cleared = try await first(bobChat.typing, within: .seconds(2)) { _ in true }
            #expect(cleared == .idle)
            #expect(ContinuousClock.now - seenAt < .milliseconds(1_000), "cleared at the entry's expiry (600 ms ttl)")
            #expect(await bob.liveCounts.timers == 0, "the timer ended with the entry")
        }
    }

    @Test func openingAndClosingAHundredConversationsLeavesNothingBehind() async throws {
        try await TestServer.run { server in
            let alice = client("alice", of: server)
            let connection = Task { await alice.run() }
            defer { connection.cancel() }
            try await waitUntilConnected(alice)
            for round in 0..<100 {
                let id = [Self.direct, "group-six", "bot-clawd"][round % 3]
                let chat = await alice.conversation(id)
                try await waitUntilSubscribed(alice, to: id)
                await chat.setActivity(.typing)
                await chat.close()
                var drained = 0
                for await _ in chat.typing { drained += 1 }  // the sequence ends once closed
            }
            #expect(await alice.liveCounts.conversations == 0)
            #expect(await alice.liveCounts.timers == 0)
            // The server agrees: no subscription is left (the socket itself stays open).
            let deadline = ContinuousClock.now + .seconds(2)
            var subscriptions = -1.0
            while ContinuousClock.now < deadline {
                let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(server.port)/metrics")!)
                let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("typewire_subscriptions ") }
                subscriptions = line.flatMap { Double($0.split(separator: " ").last!) } ?? -1
                if subscriptions == 0 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(subscriptions == 0)
            // And closing a conversation ended the typing begun in it.
            let bob = client("bob", of: server)
            let bobConnection = Task { await bob.run() }
            defer { bobConnection.cancel() }
            let bobChat = await bob.conversation(Self.direct)
            try await waitUntilSubscribed(bob, to: Self.direct)
            let state = try await first(bobChat.typing) { _ in true }
            #expect(state == .idle)
        }
    }

    @Test func aRefusedSendFailsWithTheServersReasonAndARateLimitedOneIsRetried() async throws {
        try await TestServer.run(configure: { $0.messageBurst = 2; $0.messageRate = 2 }) { server in
            let alice = client("alice", of: server)
            let connection = Task { await alice.run() }
            defer { connection.cancel() }
            try await waitUntilConnected(alice)
            let chat = await alice.conversation(Self.direct)
            let tooLong = String(repeating: "x", count: server.configuration.maxMessageLength + 1)
            await #expect(throws: TypewireClientError.self) { try await chat.send(tooLong) }
            // Four sends at once with a burst of two: the refused ones come back later by themselves.
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<4 { group.addTask { try await chat.send("burst \(index)") } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 4)
        }
    }

    @Test func backoffGrowsAndIsJittered() {
        let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(1), jitter: 0.5)
        var random = SystemRandomNumberGenerator()
        for attempt in 1...8 {
            let ceiling = min(Duration.seconds(1), .milliseconds(100) * (1 << (attempt - 1)))
            let delay = backoff.delay(attempt: attempt, using: &random)
            #expect(delay <= ceiling && delay >= ceiling / 2, "attempt \(attempt): \(delay)")
        }
    }
}

enum ClientTestError: Error {
    case timedOut
}
