import Foundation
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

@Suite("typewire serve: threads", .timeLimit(.minutes(1)))
struct ThreadsTests {
    static let group = "group-six"

    /// Alice posts a message to the group's main timeline; its id is the thread's.
    private func parent(from alice: TestSocket, _ text: String = "Picnic on Saturday?") async throws -> String {
        alice.send(.send(.init(conversation: Self.group, clientMessageId: "parent-\(text.count)", text: text)))
        let ack = try await alice.next { if case .ack = $0 { true } else { false } }
        guard case .ack(let stored) = ack else { throw CancellationError() }
        return stored.messageId
    }

    @Test func typingInAThreadIsShownWithItsThreadAndAReplyStopsOnlyThatThread() async throws {
        // A minute: the reply stops the thread's typing, not expiry.
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            let alice = try await server.subscribedSocket("alice", to: Self.group)
            let bob = try await server.subscribedSocket("bob", to: Self.group)
            let carol = try await server.subscribedSocket("carol", to: Self.group)
            let thread = try await parent(from: alice)
            bob.send(.activity(.init(conversation: Self.group, activity: .typing, thread: thread)))
            carol.send(.activity(.init(conversation: Self.group, activity: .typing, thread: thread)))
            bob.send(.activity(.init(conversation: Self.group, activity: .typing)))  // his main composer too
            let both = try await alice.activity(in: Self.group) { $0.count == 3 }
            #expect(Set(both.entries.map { "\($0.user) \($0.thread ?? "main")" }) == ["bob \(thread)", "carol \(thread)", "bob main"])

            bob.send(.send(.init(conversation: Self.group, clientMessageId: "r1", text: "I'm in!", thread: thread)))
            let reply = try await alice.next { if case .message(let m) = $0 { m.text == "I'm in!" } else { false } }
            guard case .message(let stored) = reply else { return }
            #expect(stored.thread == thread)
            // Only his typing in the thread stopped: his main composer's and Carol's in the thread go on.
            _ = try await alice.activity(in: Self.group) { entries in
                Set(entries.map { "\($0.user) \($0.thread ?? "main")" }) == ["carol \(thread)", "bob main"]
            }
        }
    }

    @Test func aThreadIsPagedApartFromTheMainTimeline() async throws {
        try await TestServer.run { server in
            let alice = try await server.subscribedSocket("alice", to: Self.group)
            let thread = try await parent(from: alice)
            for index in 0..<3 {
                alice.send(.send(.init(conversation: Self.group, clientMessageId: "t\(index)", text: "reply \(index)", thread: thread)))
                _ = try await alice.next { if case .ack(let a) = $0 { a.clientMessageId == "t\(index)" } else { false } }
            }
            let main = try await server.request("GET", "/v1/conversations/\(Self.group)/messages", as: "bob")
            #expect(main.body.contains("Picnic on Saturday?") && !main.body.contains("reply 0"), "\(main.body)")
            let replies = try await server.request("GET", "/v1/conversations/\(Self.group)/messages?thread=\(thread)&limit=2", as: "bob")
            #expect(
                replies.body.contains("reply 1") && replies.body.contains("reply 2") && !replies.body.contains("reply 0"), "\(replies.body)"
            )
            #expect(!replies.body.contains("Picnic"))
            let bad = try await server.request("GET", "/v1/conversations/\(Self.group)/messages?thread=abc", as: "bob")
            #expect(bad.status == 400)
            // A new subscriber's recent history is the main timeline's.
            let dave = try await server.socket("dave")
            dave.send(.subscribe(.init(conversation: Self.group)))
            let subscribed = try await dave.next { if case .subscribed = $0 { true } else { false } }
            guard case .subscribed(let state) = subscribed else { return }
            #expect(state.recentMessages.map(\.text) == ["Picnic on Saturday?"])
        }
    }

    @Test func aReplyNeedsAParentOfTheConversationsMainTimeline() async throws {
        try await TestServer.run { server in
            let alice = try await server.subscribedSocket("alice", to: Self.group)
            let thread = try await parent(from: alice)
            alice.send(.send(.init(conversation: Self.group, clientMessageId: "x1", text: "to nowhere", thread: "999999")))
            let missing = try await alice.error()
            #expect(missing.code == .invalidField && missing.ref == "x1" && missing.message.contains("999999"))
            alice.send(.send(.init(conversation: Self.group, clientMessageId: "x2", text: "not an id", thread: "seven")))
            #expect(try await alice.error().code == .invalidField)
            alice.send(.send(.init(conversation: Self.group, clientMessageId: "x3", text: "first reply", thread: thread)))
            let ack = try await alice.next { if case .ack(let a) = $0 { a.clientMessageId == "x3" } else { false } }
            guard case .ack(let reply) = ack else { return }
            alice.send(.send(.init(conversation: Self.group, clientMessageId: "x4", text: "a reply to a reply", thread: reply.messageId)))
            let nested = try await alice.error()
            #expect(nested.code == .invalidField && nested.message.contains("reply in its thread (\(thread))"))
            // The parent of another conversation is not this one's.
            let direct = try await server.subscribedSocket("alice", to: "direct-alice-bob")
            direct.send(.send(.init(conversation: "direct-alice-bob", clientMessageId: "x5", text: "elsewhere", thread: thread)))
            #expect(try await direct.error().code == .invalidField)
            alice.send(.activity(.init(conversation: Self.group, activity: .typing, thread: "not-an-id")))
            #expect(try await alice.error().code == .invalidField)
        }
    }

    @Test func aBotStreamsItsReplyIntoAThread() async throws {
        try await TestServer.run { server in
            let alice = try await server.subscribedSocket("alice", to: "bot-clawd")
            alice.send(.send(.init(conversation: "bot-clawd", clientMessageId: "q", text: "A question")))
            let ack = try await alice.next { if case .ack = $0 { true } else { false } }
            guard case .ack(let question) = ack else { return }
            let clawd = try await server.socket("clawd")
            clawd.send(.stream(.init(conversation: "bot-clawd", messageId: "r1", delta: "An ", thread: question.messageId)))
            clawd.send(
                .stream(.init(conversation: "bot-clawd", messageId: "r1", delta: "answer", isFinal: true, thread: question.messageId)))
            let part = try await alice.next { if case .stream = $0 { true } else { false } }
            guard case .stream(let delta) = part else { return }
            #expect(delta.thread == question.messageId)
            let stored = try await alice.next { if case .message(let m) = $0 { m.sender == "clawd" } else { false } }
            guard case .message(let answer) = stored else { return }
            #expect(answer.text == "An answer" && answer.thread == question.messageId)
        }
    }
}
