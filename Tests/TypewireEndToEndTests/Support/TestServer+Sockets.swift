import Testing
import TypewireServer
import TypewireTesting

extension TestServer {
    /// A socket that has said hello as this user.
    func socket(_ user: String) async throws -> TestSocket {
        try await TestSocket.connect(port: port, token: try await token(user))
    }

    /// A socket that has said hello as this user and subscribed to a conversation.
    func subscribedSocket(_ user: String, to conversation: String) async throws -> TestSocket {
        let socket = try await socket(user)
        socket.send(.subscribe(.init(conversation: conversation)))
        try await socket.next { if case .subscribed = $0 { true } else { false } }
        return socket
    }
}
