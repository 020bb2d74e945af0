import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app's backend may create a conversation a moment after the user opened it (docs/INTEGRATION.md
/// mirrors conversations from Firestore): the handle waits for it, for a bounded time.
@Suite("A conversation the server does not know yet", .timeLimit(.minutes(1)))
struct MirroringLagTests: ClientTesting {
    static let key = "mirroring-lag-tests-api-key-0123456789"

    @Test func aConversationCreatedAfterItWasOpenedIsFollowedOnceItExists() async throws {
        try await TestServer.run(configure: { $0.serverAPI.key = Self.key }) { server in
            try await withClients(["alice"], of: server) { clients in
                try await waitUntilConnected(clients[0])
                let chat = await clients[0].conversation("trip-new")
                try await eventually { await chat.isWaitingForConversation }
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/v1/server/conversations/trip-new")!)
                request.httpMethod = "PUT"
                request.setValue("Bearer \(Self.key)", forHTTPHeaderField: "Authorization")
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(#"{"kind":"group","title":"Trip","members":["alice","bob"]}"#.utf8)
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 201 || (response as? HTTPURLResponse)?.statusCode == 200)
                try await waitUntilSubscribed(clients[0], to: "trip-new")
                #expect(await !chat.isWaitingForConversation)
                #expect(await chat.endReason == nil)
            }
        }
    }

    @Test func aConversationThatNeverComesEndsItsHandleWithTheServersErrorAfterTheWait() async throws {
        var configuration = Self.quickBackoff
        configuration.conversationWait = .seconds(1)
        try await TestServer.run { server in
            let alice = client("alice", of: server, configuration: configuration)
            let connection = Task { try await alice.run() }
            defer { connection.cancel() }
            try await waitUntilConnected(alice)
            let chat = await alice.conversation("nowhere")
            try await eventually { await chat.isWaitingForConversation }
            for await _ in chat.typing {}  // ends with the handle
            #expect(await chat.endReason?.code == .unknownConversation)
        }
    }
}
