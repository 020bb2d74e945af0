import Testing
import TypewireClient
import TypewireTesting

/// Runs clients of the users (reconnecting after 50-200 ms) for the body's duration, each connected before
/// the body starts.
func withConnectedClients(
    _ users: [String], of server: TestServer, isolation: isolated (any Actor)? = #isolation,
    _ body: ([TypewireClient]) async throws -> Void
) async throws {
    let configuration = TypewireClient.Configuration(backoff: .init(initial: .milliseconds(50), maximum: .milliseconds(200)))
    let clients = users.map { user in TypewireClient(url: server.socketURL, configuration: configuration) { try await server.token(user) } }
    let connections = clients.map { client in Task { try await client.run() } }
    defer { connections.forEach { $0.cancel() } }
    for client in clients {
        var connected = false
        for await state in await client.states() where state == .connected {
            connected = true
            break
        }
        try #require(connected, "the client's states ended before it connected")
    }
    try await body(clients)
}
