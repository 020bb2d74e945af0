import Foundation
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

/// Typing-only mode (`--no-messages`): typing as always, every frame that would store a message refused
/// with `messages_disabled`, and a bot's streamed reply relayed without being stored.
@Suite("typewire serve --no-messages", .timeLimit(.minutes(1)))
struct TypingOnlyTests {
    static let direct = "direct-alice-bob"

    @Test func typingWorksAndMessagesAreRefusedAndNeverStored() async throws {
        // A ttl of a minute: cleared by the stop, not by expiry.
        try await TestServer.run(configure: {
            $0.storage.storesMessages = false
            $0.typing.activityTTL = .seconds(60)
        }) { server in
            let alice = try await TestSocket.connect(port: server.port, token: nil)
            alice.send(.hello(.init(token: try await server.token("alice"))))
            let welcome = try await alice.next { if case .welcome = $0 { true } else { false } }
            guard case .welcome(let hello) = welcome else { return }
            #expect(hello.config.storesMessages == false)
            let bob = try await TestSocket.connect(port: server.port, token: try await server.token("bob"))
            for socket in [alice, bob] {
                socket.send(.subscribe(.init(conversation: Self.direct)))
                try await socket.next { if case .subscribed = $0 { true } else { false } }
            }
            alice.send(.activity(.init(conversation: Self.direct, activity: .typing)))
            _ = try await bob.activity(in: Self.direct) { $0.map(\.user) == ["alice"] }

            alice.send(.send(.init(conversation: Self.direct, clientMessageId: "m1", text: "hi")))
            let refused = try await alice.error()
            #expect(refused.code == .messagesDisabled && refused.ref == "m1")
            alice.send(.edit(.init(conversation: Self.direct, messageId: "1", text: "hello")))
            #expect(try await alice.error().code == .messagesDisabled)
            let history = try await server.request("GET", "/v1/conversations/\(Self.direct)/messages", as: "bob")
            #expect(history.status == 200 && history.body == #"{"messages":[]}"#)
            // Bob's typing indicator is unaffected by the refused send: Alice still types until she stops.
            alice.send(.activity(.init(conversation: Self.direct, activity: .none)))
            _ = try await bob.activity(in: Self.direct) { $0.isEmpty }
        }
    }

    @Test func aBotsStreamedReplyIsRelayedToTheMembersAndNothingIsStored() async throws {
        // A ttl of a minute: cleared by the stop, not by expiry.
        try await TestServer.run(configure: {
            $0.storage.storesMessages = false
            $0.typing.activityTTL = .seconds(60)
        }) { server in
            let alice = try await server.socket("alice")
            alice.send(.subscribe(.init(conversation: "bot-clawd")))
            try await alice.next { if case .subscribed = $0 { true } else { false } }
            let clawd = try await server.socket("clawd")
            clawd.send(.activity(.init(conversation: "bot-clawd", activity: .thinking)))
            _ = try await alice.activity(in: "bot-clawd") { $0.map(\.activity) == [.thinking] }
            clawd.send(.activity(.init(conversation: "bot-clawd", activity: .typing)))
            _ = try await alice.activity(in: "bot-clawd") { $0.map(\.activity) == [.typing] }
            clawd.send(.stream(.init(conversation: "bot-clawd", messageId: "r1", delta: "Typing indicators ")))
            clawd.send(.stream(.init(conversation: "bot-clawd", messageId: "r1", delta: "matter.", isFinal: true)))
            var parts: [ServerFrame.StreamDelta] = []
            while parts.last?.final != true {
                let frame = try await alice.next { if case .stream = $0 { true } else { false } }
                if case .stream(let part) = frame { parts.append(part) }
            }
            #expect(
                parts.map(\.delta) == ["Typing indicators ", "matter."] && parts.allSatisfy { $0.user == "clawd" && $0.messageId == "r1" })
            _ = try await alice.activity(in: "bot-clawd") { $0.isEmpty }  // the final part ended the bot's activity
            let history = try await server.request("GET", "/v1/conversations/bot-clawd/messages", as: "alice")
            #expect(history.status == 200 && history.body == #"{"messages":[]}"#, "nothing stored: \(history.body)")
            // A person still cannot stream, on this server as on any.
            alice.send(.stream(.init(conversation: "bot-clawd", messageId: "r2", delta: "pretend", isFinal: true)))
            #expect(try await alice.error().code == .forbidden)
        }
    }

    @Test func threadsAreTheAppsOwnMessageIds() async throws {
        // The app keeps its messages (a Firestore document's id names a thread), so any id without
        // invisible characters, up to 128 bytes, names one; a longer one is refused before the board holds it.
        // A ttl of a minute: cleared by the stop, not by expiry.
        try await TestServer.run(configure: {
            $0.storage.storesMessages = false
            $0.typing.activityTTL = .seconds(60)
        }) { server in
            let (alice, bob) = (try await server.socket("alice"), try await server.socket("bob"))
            for socket in [alice, bob] {
                socket.send(.subscribe(.init(conversation: Self.direct)))
                try await socket.next { if case .subscribed = $0 { true } else { false } }
            }
            let thread = "Kq3xP9sTz1Lm0aBcDeFg"
            alice.send(.activity(.init(conversation: Self.direct, activity: .typing, thread: thread)))
            let update = try await bob.activity(in: Self.direct) { !$0.isEmpty }
            #expect(update.entries.map(\.thread) == [thread])
            alice.send(.activity(.init(conversation: Self.direct, activity: .typing, thread: String(repeating: "x", count: 129))))
            let refused = try await alice.error()
            #expect(refused.code == .invalidField && refused.ref == "activity")
            alice.send(.activity(.init(conversation: Self.direct, activity: .typing, thread: "a\u{200B}b")))
            #expect(try await alice.error().code == .invalidField)
            alice.send(.activity(.init(conversation: Self.direct, activity: .none, thread: thread)))
            _ = try await bob.activity(in: Self.direct) { $0.isEmpty }
        }
    }

    @Test func aWelcomeWithoutTheFieldMeansMessagesAreStored() throws {
        let old = #"{"activityTTL":4800,"refreshInterval":2000,"idleTimeout":3000}"#
        let decoded = try JSONDecoder().decode(ServerFrame.ClientConfiguration.self, from: Data(old.utf8))
        #expect(decoded.storesMessages)
    }

    @Test func historyStoredBeforeTheSwitchIsNotServed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestServer.run(folder: folder) { server in
            let alice = try await server.socket("alice")
            alice.send(.send(.init(conversation: Self.direct, clientMessageId: "m1", text: "kept from before")))
            try await alice.next { if case .ack = $0 { true } else { false } }
        }
        try await TestServer.run(folder: folder, configure: { $0.storage.storesMessages = false }) { server in
            let history = try await server.request("GET", "/v1/conversations/\(Self.direct)/messages", as: "bob")
            #expect(history.status == 200 && history.body == #"{"messages":[]}"#, "typing-only mode serves no message: \(history.body)")
            let bob = try await server.socket("bob")
            bob.send(.subscribe(.init(conversation: Self.direct)))
            let subscribed = try await bob.next { if case .subscribed = $0 { true } else { false } }
            guard case .subscribed(let state) = subscribed else { return }
            #expect(state.recentMessages.isEmpty, "nor does `subscribed`")
        }
    }
}
