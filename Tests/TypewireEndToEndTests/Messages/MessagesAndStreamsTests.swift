import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

@Suite("typewire serve: edits, bot streams, size limits", .timeLimit(.minutes(1)))
struct MessagesAndStreamsTests {
    static let direct = "direct-alice-bob"
    static let bot = "bot-clawd"

    @Test func onlyTheSenderEditsAndEveryoneSeesTheEdit() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            let bob = try await server.subscribedSocket("bob", to: Self.direct)
            alice.send(.send(.init(conversation: Self.direct, clientMessageId: "m", text: "Helo")))
            let ack = try await alice.next { if case .ack = $0 { true } else { false } }
            guard case .ack(let stored) = ack else { return }
            bob.send(.edit(.init(conversation: Self.direct, messageId: stored.messageId, text: "hijacked")))
            #expect(try await bob.error().code == .forbidden)
            alice.send(.edit(.init(conversation: Self.direct, messageId: stored.messageId, text: "Hello")))
            let edited = try await bob.next { if case .message(let message) = $0 { message.editedAt != nil } else { false } }
            guard case .message(let message) = edited else { return }
            #expect(message.id == stored.messageId && message.text == "Hello")
        }
    }

    @Test func aBotStreamsAReplyThatEndsAsOneStoredMessage() async throws {
        // A minute: cleared by the stop, not by expiry.
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            let alice = try await server.subscribedSocket("alice", to: Self.bot)
            let clawd = try await server.socket("clawd")
            clawd.send(.activity(.init(conversation: Self.bot, activity: .thinking)))
            try await alice.activity(in: Self.bot) { $0.first?.activity == .thinking }
            clawd.send(.activity(.init(conversation: Self.bot, activity: .typing)))
            for (index, word) in ["Hello ", "from ", "Clawd"].enumerated() {
                clawd.send(.stream(.init(conversation: Self.bot, messageId: "r1", delta: word, isFinal: index == 2)))
            }
            var deltas: [String] = []
            for _ in 0..<3 {
                let frame = try await alice.next { if case .stream = $0 { true } else { false } }
                if case .stream(let delta) = frame { deltas.append(delta.delta) }
            }
            #expect(deltas.joined() == "Hello from Clawd")
            try await alice.activity(in: Self.bot) { $0.isEmpty }
            let message = try await alice.next { if case .message = $0 { true } else { false } }
            guard case .message(let stored) = message else { return }
            #expect(stored.text == "Hello from Clawd" && stored.sender == "clawd")
            // In the order Alice received them: the bot's activity cleared, then its message.
            let frames = await alice.received
            let messageAt = try #require(frames.firstIndex { $0.contains(#""type":"message""#) })
            let clearedAt = frames.firstIndex { $0.contains(#""type":"activity""#) && $0.contains(#""entries":[]"#) }
            #expect(clearedAt.map { $0 < messageAt } == true, "the bot's activity is cleared before its final message: \(frames)")
        }
    }

    @Test func replyPartsOverTheirLimitAreRefusedAndTheFinalPartsTextIsStoredWhole() async throws {
        try await TestServer.run(configure: {
            $0.budgets.replyParts.burst = 3
            $0.budgets.replyParts.rate = 1
        }) { server in
            let alice = try await server.subscribedSocket("alice", to: Self.bot)
            let clawd = try await server.socket("clawd")
            let words = (1...8).map { "word\($0) " }
            for word in words { clawd.send(.stream(.init(conversation: Self.bot, messageId: "r2", delta: word))) }
            let refused = try await clawd.error()
            #expect(refused.code == .rateLimited && refused.ref == "r2")
            clawd.send(.stream(.init(conversation: Self.bot, messageId: "r2", delta: "end.", isFinal: true, text: words.joined() + "end.")))
            let message = try await alice.next { if case .message = $0 { true } else { false } }
            guard case .message(let stored) = message else { return }
            #expect(stored.text == words.joined() + "end.", "stored whole, with the parts the limit refused")
            #expect(stored.clientMessageId == "stream-r2")
        }
    }

    @Test func peopleCannotStream() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            alice.send(.stream(.init(conversation: Self.bot, messageId: "r", delta: "x")))
            #expect(try await alice.error().code == .forbidden)
        }
    }

    @Test func anOversizedFrameIsRefusedAndTheSocketKeepsWorking() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            alice.sendRaw(#"{"type":"subscribe","conversation":""# + String(repeating: "x", count: 20_000) + #""}"#)
            #expect(try await alice.error().code == .tooLarge)
            alice.send(.subscribe(.init(conversation: Self.direct)))
            try await alice.next { if case .subscribed = $0 { true } else { false } }
        }
    }

    @Test func anActivityDetailOverItsBytesOrWithHiddenCharactersIsRefusedAndOneWithinItIsRelayed() async throws {
        try await TestServer.run { server in
            let clawd = try await server.socket("clawd")
            let alice = try await server.subscribedSocket("alice", to: Self.bot)
            let limit = server.configuration.typing.maxDetailBytes
            // 64 grapheme clusters of combining marks are 12 KB: the limit counts bytes.
            let marks = String(repeating: "e" + String(repeating: "\u{301}", count: 100), count: limit)
            for (detail, code) in [
                (String(repeating: "t", count: limit + 1), ErrorCode.tooLarge), (marks, .tooLarge),
                ("web_search\nAlice: hi", .invalidField),
                ("\u{202E}hcraes", .invalidField), ("", .invalidField),
            ] {
                let since = await clawd.received.count
                clawd.send(.activity(.init(conversation: Self.bot, activity: .toolUse(detail))))
                let refusal = try await clawd.error(since: since)
                #expect(refusal.code == code && refusal.ref == "activity", "\(detail.debugDescription.prefix(40))")
            }
            let tool = String(repeating: "t", count: limit)
            clawd.send(.activity(.init(conversation: Self.bot, activity: .toolUse(tool))))
            try await alice.activity(in: Self.bot) { $0.map(\.activity) == [.toolUse(tool)] }
            #expect(await !alice.received.contains { $0.contains("hcraes") || $0.contains("Alice: hi") }, "no refused detail reached Alice")
        }
    }

    @Test func aBotKeepsAtMostItsLimitOfRepliesOpen() async throws {
        try await TestServer.run(configure: { $0.messages.maxOpenReplies = 2 }) { server in
            let alice = try await server.subscribedSocket("alice", to: Self.bot)
            let clawd = try await server.socket("clawd")
            for id in ["r1", "r2", "r3"] { clawd.send(.stream(.init(conversation: Self.bot, messageId: id, delta: "part of \(id) "))) }
            let refused = try await clawd.error()
            #expect(refused.code == .rateLimited && refused.ref == "r3", "a third open reply is refused")
            clawd.send(.stream(.init(conversation: Self.bot, messageId: "r1", delta: "end", isFinal: true)))
            try await alice.next { if case .message(let message) = $0 { message.text == "part of r1 end" } else { false } }
            clawd.send(.stream(.init(conversation: Self.bot, messageId: "r3", delta: "now it fits")))
            try await alice.next { if case .stream(let part) = $0 { part.messageId == "r3" } else { false } }
        }
    }

    @Test func subscribedCarriesTheNewestMessagesWithinItsByteBudget() async throws {
        try await TestServer.run(configure: { $0.messages.maxRecentBytes = 2_500 }) { server in
            let alice = try await server.socket("alice")
            for index in 0..<5 {
                alice.send(
                    .send(.init(conversation: Self.direct, clientMessageId: "m\(index)", text: String(repeating: "\(index)", count: 1_000)))
                )
                try await alice.next { if case .ack = $0 { true } else { false } }
            }
            let bob = try await server.socket("bob")
            bob.send(.subscribe(.init(conversation: Self.direct)))
            let frame = try await bob.next { if case .subscribed = $0 { true } else { false } }
            guard case .subscribed(let subscribed) = frame else { return }
            #expect(subscribed.recentMessages.map(\.clientMessageId) == ["m3", "m4"], "the newest two fit in 2 500 bytes")
        }
    }

    @Test func eachTokenDecidesTheBotFlagUnlessTheServerAPISetIt() async throws {
        try await TestServer.run { server in
            let part = ClientFrame.stream(.init(conversation: "direct-alice-bob", messageId: "r1", delta: "Hi"))
            func answer(to token: String) async throws -> ErrorCode {
                let socket = try await TestSocket.connect(port: server.port, token: token)
                socket.send(part)
                let code = try await socket.error().code
                socket.close()
                return code
            }
            let asBot = try await server.authority.sign(Identity(userID: "erin", name: "Erin", isBot: true))
            let asPerson = try await server.authority.sign(Identity(userID: "erin", name: "Erin"))
            // Erin is not in the direct chat: a bot gets that far (unknown_conversation), a person does not (forbidden).
            #expect(try await answer(to: asBot) == .unknownConversation)
            #expect(try await answer(to: asPerson) == .forbidden, "the bot flag of an earlier token does not stick")
            #expect(try await answer(to: asBot) == .unknownConversation)
        }
    }
}
