import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TypewireCore
import TypewireTesting
@testable import TypewireClient

/// Helpers the client suites share: clients of a test server, and waiting for what a sequence shows.
protocol ClientTesting {}

enum ClientTestError: Error {
    case timedOut
}

extension ClientTesting {
    static var direct: String { "direct-alice-bob" }
    static var quickBackoff: TypewireClient.Configuration {
        .init(backoff: .init(initial: .milliseconds(50), maximum: .milliseconds(200)))
    }

    func client(_ user: String, of server: TestServer) -> TypewireClient {
        TypewireClient(url: server.socketURL, configuration: Self.quickBackoff) { try await server.token(user) }
    }

    /// Runs clients of the given users, connecting, for the body's duration.
    func withClients(_ users: [String], of server: TestServer, _ body: ([TypewireClient]) async throws -> Void) async throws {
        let clients = users.map { client($0, of: server) }
        let connections = clients.map { client in Task { await client.run() } }
        defer { connections.forEach { $0.cancel() } }
        try await body(clients)
    }

    /// Runs clients of the given users, each with the conversation open and subscribed.
    func withChats(
        _ users: [String], in conversation: String = direct, of server: TestServer,
        _ body: ([TypewireClient], [ConversationHandle]) async throws -> Void
    ) async throws {
        try await withClients(users, of: server) { clients in
            var chats: [ConversationHandle] = []
            for client in clients { chats.append(try await openChat(client, conversation)) }
            try await body(clients, chats)
        }
    }

    /// Connects clients of the given users to a server, stops it, and starts a new one on the same
    /// SQLite file and port: `whileUp` runs before the stop, `duringOutage` while no server runs, and
    /// `afterRestart` with the new server.
    func acrossARestart(
        _ users: [String], whileUp: ([TypewireClient]) async throws -> Void = { _ in },
        duringOutage: ([TypewireClient]) async throws -> Void, afterRestart: (TestServer, [TypewireClient]) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString)")
        var port = 0
        var clients: [TypewireClient] = []
        var connections: [Task<Void, Never>] = []
        defer { connections.forEach { $0.cancel() } }
        try await TestServer.run(folder: folder) { server in
            port = server.port
            clients = users.map { client($0, of: server) }
            connections = clients.map { client in Task { await client.run() } }
            for client in clients { try await waitUntilConnected(client) }
            try await whileUp(clients)
        }
        try await duringOutage(clients)
        try await TestServer.run(folder: folder, configure: { $0.port = port }) { server in
            try await afterRestart(server, clients)
        }
    }

    /// The messages a fresh client of the user finds in the conversation's history.
    func history(of conversation: String = direct, as user: String, on server: TestServer) async throws -> [ChatMessage] {
        var messages: [ChatMessage] = []
        try await withClients([user], of: server) { clients in
            let chat = try await openChat(clients[0], conversation)
            await chat.close()
            for await message in chat.messages { messages.append(message) }
        }
        return messages
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

    /// Waits (polling, with a deadline) until a condition on the client holds.
    func waitUntil(
        _ client: TypewireClient, within timeout: Duration = .seconds(3), _ condition: @Sendable (isolated TypewireClient) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !(await client.check(condition)) {
            guard ContinuousClock.now < deadline else { throw ClientTestError.timedOut }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Whether a condition becomes true within the deadline (polled).
    func eventually(within timeout: Duration = .seconds(2), _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try await condition()
    }

    /// Waits until the client's subscription to a conversation is confirmed.
    func waitUntilSubscribed(_ client: TypewireClient, to conversation: String) async throws {
        try await waitUntil(client) { $0.subscribedConversations.contains(conversation) }
    }

    /// Opens a conversation on a connected client and waits until the server confirmed the subscription.
    func openChat(_ client: TypewireClient, _ conversation: String = direct) async throws -> ConversationHandle {
        try await waitUntilConnected(client)
        let chat = await client.conversation(conversation)
        try await waitUntilSubscribed(client, to: conversation)
        return chat
    }

    /// A REST request to the test server as a user; returns the status code.
    @discardableResult
    func request(_ method: String, _ path: String, as user: String, on server: TestServer) async throws -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!)
        request.httpMethod = method
        request.setValue("Bearer \(try await server.token(user))", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as! HTTPURLResponse).statusCode
    }
}

extension TypewireClient {
    /// Evaluates a condition on the actor (for tests).
    func check(_ condition: @Sendable (isolated TypewireClient) -> Bool) -> Bool { condition(self) }
}
