import Foundation
import NIOConcurrencyHelpers
import TypewireCore
import TypewireTesting

@testable import TypewireClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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

    func client(_ user: String, of server: TestServer, configuration: TypewireClient.Configuration = Self.quickBackoff) -> TypewireClient {
        TypewireClient(url: server.socketURL, configuration: configuration) { try await server.token(user) }
    }

    /// Runs clients of the given users, connecting, for the body's duration.
    func withClients(
        _ users: [String], of server: TestServer, configuration: TypewireClient.Configuration = Self.quickBackoff,
        _ body: ([TypewireClient]) async throws -> Void
    ) async throws {
        let clients = users.map { client($0, of: server, configuration: configuration) }
        let connections = clients.map { client in Task { try await client.run() } }
        defer { connections.forEach { $0.cancel() } }
        try await body(clients)
    }

    /// Runs clients of the given users, each with the conversation open and subscribed.
    func withChats(
        _ users: [String], in conversation: String = direct, of server: TestServer,
        configuration: TypewireClient.Configuration = Self.quickBackoff,
        _ body: ([TypewireClient], [ConversationHandle]) async throws -> Void
    ) async throws {
        try await withClients(users, of: server, configuration: configuration) { clients in
            var chats: [ConversationHandle] = []
            for client in clients { chats.append(try await openChat(client, conversation)) }
            try await body(clients, chats)
        }
    }

    /// Connects clients of the given users to a server, stops it, and starts a new one on the same
    /// SQLite file and port: `whileUp` runs before the stop, `duringOutage` while no server runs, and
    /// `afterRestart` with the new server.
    func acrossARestart(
        _ users: [String], configuration: TypewireClient.Configuration = Self.quickBackoff,
        whileUp: ([TypewireClient]) async throws -> Void = { _ in },
        duringOutage: ([TypewireClient]) async throws -> Void, afterRestart: (TestServer, [TypewireClient]) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString)")
        var port = 0
        var clients: [TypewireClient] = []
        var connections: [Task<Void, any Error>] = []
        defer {
            connections.forEach { $0.cancel() }
            try? FileManager.default.removeItem(at: folder)
        }
        try await TestServer.runOnRestartablePort(folder: folder) { server in
            port = server.port
            clients = users.map { client($0, of: server, configuration: configuration) }
            connections = clients.map { client in Task { try await client.run() } }
            for client in clients { try await waitUntilConnected(client) }
            try await whileUp(clients)
        }
        try await duringOutage(clients)
        try await TestServer.run(folder: folder, configure: { $0.http.port = port }) { server in
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
        _ sequence: S, within timeout: Duration = livenessBound, where matches: @escaping @Sendable (S.Element) -> Bool
    ) async throws -> S.Element where S.Element: Sendable {
        try await withThrowingTaskGroup(of: S.Element?.self) { group in
            group.addTask {
                for try await element in sequence where matches(element) { return element }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let element = try await group.next() ?? nil else { throw ClientTestError.timedOut }
            return element
        }
    }

    /// Messages of a sequence up to and including the one with id `last`.
    func collect(_ messages: AsyncStream<ChatMessage>, until last: String) async throws -> [ChatMessage] {
        try await withThrowingTaskGroup(of: [ChatMessage]?.self) { group in
            group.addTask {
                var seen: [ChatMessage] = []
                for await message in messages {
                    seen.append(message)
                    if message.id == last { return seen }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: livenessBound)
                return nil
            }
            defer { group.cancelAll() }
            guard let seen = try await group.next() ?? nil else { throw ClientTestError.timedOut }
            return seen
        }
    }

    func waitUntilConnected(_ client: TypewireClient) async throws {
        _ = try await first(await client.states()) { $0 == .connected }
    }

    /// Waits (polling, with a deadline) until a condition on the client holds.
    func waitUntil(
        _ client: TypewireClient, within timeout: Duration = livenessBound, _ condition: @Sendable (isolated TypewireClient) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !(await client.check(condition)) {
            guard ContinuousClock.now < deadline else { throw ClientTestError.timedOut }
            try await Task.sleep(for: .milliseconds(5))
        }
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

    /// How many frames of a type the server has received, from its `/metrics`.
    func framesReceived(_ type: String, on server: TestServer) async throws -> Int {
        try await metric("typewire_frames_in_total{type=\"\(type)\"}", on: server)
    }

    /// How many sockets the server holds, from its `/metrics`.
    func connections(on server: TestServer) async throws -> Int {
        try await metric("typewire_connections", on: server)
    }

    /// A line of the server's `/metrics` (0 if absent).
    private func metric(_ name: String, on server: TestServer) async throws -> Int {
        let (body, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(server.port)/metrics")!)
        let prefix = name + " "
        let line = String(decoding: body, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Double($0.dropFirst(prefix.count)) }.map { Int($0) } ?? 0
    }

    /// Whether a typing indicator stays shown until the server has received `count` more frames of a
    /// type (a sender's refreshes, which time the wait without a sleep) and goes away only after `stop`.
    ///
    /// The indicator's sequence has one consumer: it is read here until it shows `.idle`.
    /// - Throws: If the frames or the clear do not come within ``livenessBound``.
    func staysShownUntilStopped<S: AsyncSequence & Sendable>(
        _ typing: S, untilTheServerReceives count: Int, moreFramesOf type: String, on server: TestServer,
        then stop: () async -> Void
    ) async throws -> Bool where S.Element == TypingState {
        let stopped = Flag()
        let clearedAfterStop = Task { () -> Bool in
            for try await state in typing where state == .idle { return stopped.isSet }
            return false
        }
        let before = try await framesReceived(type, on: server)
        try await eventually { try await framesReceived(type, on: server) >= before + count }
        stopped.set()
        await stop()
        return try await withThrowingTaskGroup(of: Bool?.self) { group in
            group.addTask { try await clearedAfterStop.value }
            group.addTask {
                try await Task.sleep(for: livenessBound)
                return nil
            }
            defer { group.cancelAll() }
            guard let cleared = try await group.next() ?? nil else { throw ClientTestError.timedOut }
            return cleared
        }
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

/// A flag one task sets and others read.
final class Flag: Sendable {
    private let value = NIOLockedValueBox(false)
    var isSet: Bool { value.withLockedValue { $0 } }
    func set() { value.withLockedValue { $0 = true } }
}

extension TypewireClient {
    /// Evaluates a condition on the actor (for tests).
    func check(_ condition: @Sendable (isolated TypewireClient) -> Bool) -> Bool { condition(self) }
}
