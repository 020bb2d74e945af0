import NIOConcurrencyHelpers
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireClient

/// Signing out, then another user signing in on the same client: nothing of the first is sent as the second.
@Suite("Sign-out", .timeLimit(.minutes(1)))
struct SignOutTests: ClientTesting {
    /// A client whose token provider gives `user`'s token, connected as alice with the direct chat open,
    /// then disconnected with one message of hers waiting: `body` gets the client, the chat and the send.
    func aliceWithAMessageWaiting(
        of server: TestServer, user: NIOLockedValueBox<String>,
        _ body: (TypewireClient, ConversationHandle, Task<String, any Error>) async throws -> Void
    ) async throws {
        var configuration = Self.quickBackoff
        configuration.outbox = nil
        let client = TypewireClient(url: server.socketURL, configuration: configuration) {
            try await server.token(user.withLockedValue { $0 })
        }
        let connection = Task { try await client.run() }
        defer { connection.cancel() }
        let chat = try await openChat(client)
        await client.disconnect()  // offline: the message waits
        let send = Task { try await chat.send("written by alice") }
        while await client.pendingSends.isEmpty { await Task.yield() }
        try await body(client, chat, send)
    }

    /// Whether `chat` got alice's message before a marker it sends now.
    func sawAlicesMessage(_ chat: ConversationHandle) async throws -> Bool {
        _ = try await chat.send("bob's marker")
        let seen = NIOLockedValueBox<[String]>([])
        _ = try await first(chat.messages) { message in
            seen.withLockedValue { $0.append(message.text) }
            return message.text == "bob's marker"
        }
        return seen.withLockedValue { $0 }.contains("written by alice")
    }

    @Test func signingOutFailsWhatWaitsEndsTheHandlesAndNothingIsSentAsTheNextUser() async throws {
        try await TestServer.run { server in
            let user = NIOLockedValueBox("alice")
            try await aliceWithAMessageWaiting(of: server, user: user) { client, _, send in
                await client.signOut()
                await #expect(throws: TypewireClientError.signedOut) { try await send.value }
                #expect(try await first(await client.states()) { _ in true } == .signedOut)
                #expect(await client.userID == nil)
                #expect(await client.endReason(of: Self.direct) == .signedOut, "the handle ended")
                user.withLockedValue { $0 = "bob" }
                await client.reconnectNow()
                let bobs = try await openChat(client)
                #expect(await client.userID == "bob")
                let saw = try await sawAlicesMessage(bobs)
                #expect(!saw, "alice's message was never sent as bob")
            }
        }
    }

    /// A token provider that changes users without a sign-out (the app forgot to call it): the messages
    /// queued for the first are failed, not sent as the second (before: sent again after the welcome, as bob).
    @Test func aMessageQueuedForOneUserIsNeverSentAsTheNextOneWelcomed() async throws {
        try await TestServer.run { server in
            let user = NIOLockedValueBox("alice")
            try await aliceWithAMessageWaiting(of: server, user: user) { client, chat, send in
                user.withLockedValue { $0 = "bob" }
                await client.reconnectNow()
                await #expect(throws: TypewireClientError.signedOut) { try await send.value }
                #expect(await client.userID == "bob")
                let saw = try await sawAlicesMessage(chat)
                #expect(!saw)
            }
        }
    }
}
