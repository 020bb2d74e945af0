import Foundation
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

/// End to end: a real server on 127.0.0.1, a real SQLite file, real WebSocket clients.
@Suite("typewire serve: typing over real sockets", .timeLimit(.minutes(1)))
struct TypingOverSocketsTests {
    static let direct = "direct-alice-bob"
    static let group = "group-six"

    func typing(_ conversation: String = direct) -> ClientFrame {
        .activity(.init(conversation: conversation, activity: .typing))
    }

    @Test func aTypesAndBSeesItStampedByTheServer() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            let bob = try await server.socket("bob")
            for socket in [alice, bob] {
                socket.send(.subscribe(.init(conversation: Self.direct)))
                try await socket.next { if case .subscribed = $0 { true } else { false } }
            }
            alice.send(typing())
            let update = try await bob.activity(in: Self.direct) { $0.map(\.user) == ["alice"] }
            let entry = try #require(update.entries.first)
            #expect(entry.name == "Alice")
            #expect(entry.activity == .typing)
            // Stamped when set, sent a moment later: the frame's own time is at or just after the stamp.
            let ttl = server.configuration.typing.activityTTL.wholeMilliseconds
            #expect(entry.expiresAt - entry.since == ttl, "server-stamped expiry on the wire")
            #expect((0...ttl).contains(update.serverTime - entry.since))
        }
    }

    @Test func aSendsAndBSeesTheStopNoLaterThanTheMessage() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            let bob = try await server.socket("bob")
            for socket in [alice, bob] { socket.send(.subscribe(.init(conversation: Self.direct))) }
            try await bob.next { if case .subscribed = $0 { true } else { false } }
            try await alice.next { if case .subscribed = $0 { true } else { false } }
            alice.send(typing())
            try await bob.activity(in: Self.direct) { !$0.isEmpty }
            alice.send(.send(.init(conversation: Self.direct, clientMessageId: "m-1", text: "Hi Bob")))
            try await alice.next { if case .ack(let ack) = $0 { ack.clientMessageId == "m-1" } else { false } }
            try await bob.next { if case .message(let message) = $0 { message.text == "Hi Bob" } else { false } }
            // Bob's frames in order: the update that clears Alice comes before the message.
            let texts = await bob.received
            let stop = try #require(texts.lastIndex { $0.contains(#""type":"activity""#) && $0.contains(#""entries":[]"#) })
            let message = try #require(texts.firstIndex { $0.contains(#""type":"message""#) })
            #expect(stop < message)
        }
    }

    @Test func anExplicitStopClearsTheIndicator() async throws {
        // A minute: cleared by the stop, not by expiry.
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            let alice = try await server.socket("alice")
            let bob = try await server.subscribedSocket("bob", to: Self.direct)
            alice.send(typing())
            try await bob.activity(in: Self.direct) { !$0.isEmpty }
            alice.send(.activity(.init(conversation: Self.direct, activity: .none)))
            try await bob.activity(in: Self.direct) { $0.isEmpty }
        }
    }

    @Test(arguments: ["close", "kill"])
    func closingOrKillingTheSocketClearsTheIndicator(how: String) async throws {
        // A minute: cleared by the close, not by expiry.
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            let alice = try await server.socket("alice")
            let bob = try await server.subscribedSocket("bob", to: Self.direct)
            alice.send(typing())
            try await bob.activity(in: Self.direct) { !$0.isEmpty }
            if how == "close" { alice.close() } else { alice.kill() }
            try await bob.activity(in: Self.direct) { $0.isEmpty }
            try await bob.next { if case .presence(let presence) = $0 { presence.user == "alice" && !presence.online } else { false } }
        }
    }

    @Test func anUnrefreshedActivityExpiresOnTheServer() async throws {
        try await TestServer.run(configure: { $0.typing.activityTTL = .milliseconds(300) }) { server in
            let alice = try await server.socket("alice")
            let bob = try await server.subscribedSocket("bob", to: Self.direct)
            let start = ContinuousClock.now
            alice.send(typing())
            try await bob.activity(in: Self.direct) { !$0.isEmpty }
            // Soon after it (the wait is a liveness bound; how soon is measured in docs/BENCHMARKS.md).
            try await bob.activity(in: Self.direct) { $0.isEmpty }
            #expect(ContinuousClock.now - start >= .milliseconds(300), "not before its expiry")
        }
    }

    @Test func aSocketIsNotSentTheUpdateOfItsOwnChangeButTheUsersOtherSocketsAre() async throws {
        try await TestServer.run { server in
            let phone = try await server.subscribedSocket("alice", to: Self.direct)
            let laptop = try await server.subscribedSocket("alice", to: Self.direct)
            let bob = try await server.subscribedSocket("bob", to: Self.direct)
            phone.send(typing())
            try await bob.activity(in: Self.direct) { $0.map(\.user) == ["alice"] }
            try await laptop.activity(in: Self.direct) { $0.map(\.user) == ["alice"] }
            bob.send(typing())
            try await phone.activity(in: Self.direct) { $0.map(\.user) == ["alice", "bob"] }
            // The phone's own update, had it been sent, was queued before Bob could see Alice, so before this one.
            let updates = await phone.received.filter { $0.contains(#""type":"activity""#) }
            #expect(updates.count == 1, "only Bob's change reached the phone: \(updates)")
        }
    }

    @Test func oneUserOnTwoDevicesStaysTypingWhenOneStops() async throws {
        // A minute: cleared by the stop, not by expiry.
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            let phone = try await server.socket("alice")
            let laptop = try await server.socket("alice")
            let bob = try await server.subscribedSocket("bob", to: Self.direct)
            // Two sockets are not ordered with each other: wait for each device's update in turn.
            laptop.send(typing())
            try await bob.activity(in: Self.direct) { $0.map(\.user) == ["alice"] }
            phone.send(typing())
            try await bob.activity(in: Self.direct) { $0.map(\.user) == ["alice"] }
            phone.send(.activity(.init(conversation: Self.direct, activity: .none)))
            let update = try await bob.activity(in: Self.direct) { _ in true }
            #expect(update.entries.map(\.user) == ["alice"], "one entry, still typing on the laptop")
            phone.close()
            laptop.send(.activity(.init(conversation: Self.direct, activity: .none)))
            try await bob.activity(in: Self.direct) { $0.isEmpty }
        }
    }

    @Test func aNonParticipantCanNeitherSubscribeNorSetActivity() async throws {
        try await TestServer.run { server in
            let carol = try await server.socket("carol")  // in the group, not in the direct chat
            let bob = try await server.subscribedSocket("bob", to: Self.direct)
            carol.send(.subscribe(.init(conversation: Self.direct)))
            let refused = try await carol.error()
            #expect(refused.code == .unknownConversation)
            carol.send(.subscribe(.init(conversation: "no-such-conversation")))
            let unknown = try await carol.error()
            #expect(unknown.code == refused.code, "a stranger cannot tell a private conversation from a missing one")
            carol.send(typing())
            #expect(try await carol.error().code == .unknownConversation)
            carol.send(.send(.init(conversation: Self.direct, clientMessageId: "x", text: "let me in")))
            #expect(try await carol.error().code == .unknownConversation)
            // Bob hears nothing from Carol: a marker from Alice arrives with no Carol before it.
            let alice = try await server.socket("alice")
            alice.send(typing())
            let update = try await bob.activity(in: Self.direct) { !$0.isEmpty }
            #expect(update.entries.map(\.user) == ["alice"])
            #expect(await bob.received.allSatisfy { !$0.contains("carol") || $0.contains("presence") })
        }
    }

    @Test func aUserIDInsideAFrameIsIgnored() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            let bob = try await server.subscribedSocket("bob", to: Self.direct)
            alice.sendRaw(#"{"type":"activity","conversation":"direct-alice-bob","activity":"typing","user":"bob","sub":"bob"}"#)
            let update = try await bob.activity(in: Self.direct) { !$0.isEmpty }
            #expect(update.entries.map(\.user) == ["alice"])
        }
    }

    @Test func sendingIsIdempotentByClientMessageID() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            let bob = try await server.subscribedSocket("bob", to: Self.direct)
            let send = ClientFrame.send(.init(conversation: Self.direct, clientMessageId: "retry-me", text: "once"))
            alice.send(send)
            alice.send(send)
            var ids: [String] = []
            for _ in 0..<2 {
                let frame = try await alice.next { if case .ack = $0 { true } else { false } }
                if case .ack(let ack) = frame { ids.append(ack.messageId) }
            }
            #expect(ids.count == 2 && ids[0] == ids[1], "both acks name the same stored message")
            alice.send(.send(.init(conversation: Self.direct, clientMessageId: "marker", text: "after")))
            try await bob.next { if case .message(let message) = $0 { message.text == "after" } else { false } }
            let messages = await bob.received.filter { $0.contains(#""type":"message""#) && $0.contains("retry-me") }
            #expect(messages.count == 1, "one broadcast for two sends")
        }
    }

    @Test func badInputGetsAnErrorCodeAndTheSocketKeepsWorking() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            let cases: [(String, ErrorCode)] = [
                ("not json", .malformedFrame),
                (#"{"type":"dance"}"#, .unknownType),
                (#"{"type":"subscribe"}"#, .invalidField),
                (#"{"type":"activity","conversation":"direct-alice-bob","activity":"juggling"}"#, .invalidField),
            ]
            for (text, code) in cases {
                alice.sendRaw(text)
                let failure = try await alice.error()
                #expect(failure.code == code, "\(text)")
            }
            alice.send(.send(.init(conversation: Self.direct, clientMessageId: "big", text: String(repeating: "x", count: 10_001))))
            #expect(try await alice.error().code == .tooLarge)
            alice.send(.subscribe(.init(conversation: Self.direct)))
            try await alice.next { if case .subscribed = $0 { true } else { false } }
        }
    }

    @Test func expiredAndTamperedTokensAreRefused() async throws {
        // The test server's hello timeout is a minute: only the refusal of the token can close the sockets here.
        try await TestServer.run { server in
            let expired = try await server.token("alice", lifetime: .seconds(-60))
            let valid = try await server.token("alice")
            var parts = valid.split(separator: ".").map(String.init)
            parts[2] = String(parts[2].reversed())
            let tampered = parts.joined(separator: ".")
            let header = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString()
                .replacingOccurrences(of: "=", with: "")
            let unsigned = ([header] + parts[1...1] + [""]).joined(separator: ".")
            for token in [expired, tampered, unsigned, "garbage"] {
                let socket = try await TestSocket.connect(port: server.port, token: nil)
                socket.send(.hello(.init(token: token)))
                let failure = try await socket.error()
                #expect(failure.code == .unauthorized)
                try await waitUntilClosed(socket)
                #expect(await socket.closeCode == .policyViolation, "closed with 1008 for the token \(token.prefix(20))…")
            }
        }
    }

    @Test func onlyAllowedBrowserOriginsMayOpenASocket() async throws {
        // The test server's hello timeout is a minute: only the refused upgrade can close the foreign socket here.
        try await TestServer.run(configure: { $0.http.allowedOrigins = ["https://chat.example"] }) { server in
            let foreign = try await TestSocket.connect(port: server.port, token: nil, origin: "https://evil.example")
            try await waitUntilClosed(foreign)
            #expect(await foreign.closeCode == nil, "refused at the upgrade (400), before any WebSocket frame")
            let allowed = try await TestSocket.connect(
                port: server.port, token: try await server.token("alice"), origin: "https://chat.example")
            let app = try await TestSocket.connect(port: server.port, token: try await server.token("bob"))
            let allowedClosed = await allowed.isClosed
            let appClosed = await app.isClosed
            #expect(!allowedClosed && !appClosed, "the allowed origin and a client without Origin connect")
        }
    }

    @Test func noHelloInTimeClosesTheSocket() async throws {
        try await TestServer.run(configure: { $0.sockets.helloTimeout = .milliseconds(1_000) }) { server in
            let socket = try await TestSocket.connect(port: server.port, token: nil)
            // Closed by the close frame, or, if a loaded client missed it while finishing its upgrade (seen
            // once in ten runs), by the server dropping the connection at the close timeout (15 s).
            try await waitUntilClosed(socket, within: .seconds(30))
        }
    }

    @Test func aRestartOnTheSameFileKeepsConversationsAndMessages() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestServer.run(folder: folder) { server in
            let alice = try await server.socket("alice")
            alice.send(.send(.init(conversation: Self.group, clientMessageId: "persist", text: "still here?")))
            try await alice.next { if case .ack = $0 { true } else { false } }
        }
        try await TestServer.run(folder: folder) { server in
            let bob = try await server.socket("bob")
            bob.send(.subscribe(.init(conversation: Self.group)))
            let frame = try await bob.next { if case .subscribed = $0 { true } else { false } }
            guard case .subscribed(let subscribed) = frame else { return }
            #expect(subscribed.recentMessages.map(\.text) == ["still here?"])
            #expect(subscribed.participants.count == 6)
        }
    }

    @Test func gracefulShutdownClosesSocketsWithGoingAway() async throws {
        var sockets: [TestSocket] = []
        try await TestServer.run { server in
            sockets.append(try await server.subscribedSocket("alice", to: Self.direct))
            sockets.append(try await server.socket("bob"))
        }
        for socket in sockets {
            try await waitUntilClosed(socket)
            #expect(await socket.closedGoingAway)
        }
    }

    private func waitUntilClosed(
        _ socket: TestSocket, within timeout: Duration = livenessBound, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if await socket.isClosed { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the server did not close the socket", sourceLocation: sourceLocation)
    }
}
