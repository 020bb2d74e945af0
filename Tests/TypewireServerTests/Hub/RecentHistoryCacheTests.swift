import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

@Suite("RecentHistoryCache: a quiet conversation's history is read once, and never kept stale", .timeLimit(.minutes(1)))
struct RecentHistoryCacheTests {
    @Test func aReadIsKeptUnlessAChangeOrALaterReadVoidedItsTicket() {
        var cache = RecentHistoryCache()
        let first = cache.beginRead(of: "c")
        cache.invalidate("c")  // a message arrived while the store answered
        cache.endRead(of: "c", ticket: first, answer: [ChatMessage.bobs("1")])
        #expect(cache["c"] == nil)

        let older = cache.beginRead(of: "c")
        let newer = cache.beginRead(of: "c")
        cache.endRead(of: "c", ticket: older, answer: [])
        #expect(cache["c"] == nil, "a later read began: the earlier one may be behind it")
        cache.endRead(of: "c", ticket: newer, answer: [ChatMessage.bobs("1")])
        #expect(cache["c"] == [ChatMessage.bobs("1")])
        cache.invalidate("c")
        #expect(cache["c"] == nil)
        #expect(cache.bytes == 0)
    }

    @Test func whatPassesTheBudgetIsNotKept() {
        let one = [ChatMessage.bobs("1", text: String(repeating: "a", count: 500))]
        var cache = RecentHistoryCache(byteBudget: RecentHistoryCache.size(of: one) + 10)
        cache.endRead(of: "c", ticket: cache.beginRead(of: "c"), answer: one)
        cache.endRead(of: "d", ticket: cache.beginRead(of: "d"), answer: one)
        #expect(cache["c"] == one)
        #expect(cache["d"] == nil)
        #expect(cache.bytes == RecentHistoryCache.size(of: one))
        cache.invalidate("c")
        cache.endRead(of: "d", ticket: cache.beginRead(of: "d"), answer: one)
        #expect(cache["d"] == one)
    }

    // MARK: - In the hub

    private struct Node {
        let hub: Hub
        let store: HeldHistoryStore
        let sqlite: SQLiteChatStore
    }

    private func node(cluster: ClusterPublisher? = nil) async throws -> Node {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString).sqlite").path
        let sqlite = try await SQLiteChatStore.open(path: path)
        try await DemoSeed.seed(into: sqlite)
        let store = HeldHistoryStore(sqlite)
        return Node(
            hub: Hub(store: store, configuration: ServerConfiguration(jwtSecret: TestServer.secret), cluster: cluster), store: store,
            sqlite: sqlite)
    }

    /// A socket of `user`, and what it was sent: each `subscribed`'s recent messages.
    private final class Socket: Sendable {
        let id: ConnectionID
        private let frames: AsyncStream<String>
        private let input: AsyncStream<String>.Continuation

        init(_ user: String, on hub: Hub) async throws {
            (frames, input) = AsyncStream.makeStream(of: String.self)
            id = try await hub.connect(Identity(userID: user, name: user.capitalized), sink: QueueSink(frames: input))
        }

        func subscribed() async throws -> [[String]] {
            input.finish()
            var seen: [[String]] = []
            for await text in frames {
                if case .subscribed(let subscribed) = try FrameCodec.decodeServerFrame(Data(text.utf8)) {
                    seen.append(subscribed.recentMessages.map(\.text))
                }
            }
            return seen
        }
    }

    private let group = "group-six"

    @Test func theNextSubscriberOfAQuietConversationIsAnsweredWithoutTheStoreUntilAMessageChangesIt() async throws {
        let node = try await node()
        for _ in 0..<10 { node.store.release() }  // no read waits here
        let (alice, bob, carol, dave) = (
            try await Socket("alice", on: node.hub), try await Socket("bob", on: node.hub), try await Socket("carol", on: node.hub),
            try await Socket("dave", on: node.hub)
        )
        await node.hub.handle(.subscribe(.init(conversation: group)), from: alice.id)
        await node.hub.handle(.subscribe(.init(conversation: group)), from: bob.id)
        #expect(node.store.historyReads == 1)

        await node.hub.handle(.send(.init(conversation: group, clientMessageId: "m1", text: "Pizza?")), from: bob.id)
        await node.hub.handle(.subscribe(.init(conversation: group)), from: carol.id)
        #expect(node.store.historyReads == 2, "a new message: read again")

        let sent = try #require(try await node.sqlite.recentMessages(of: group, limit: 1).first)
        await node.hub.handle(.edit(.init(conversation: group, messageId: sent.id, text: "Pizza tonight?")), from: bob.id)
        await node.hub.handle(.subscribe(.init(conversation: group)), from: dave.id)
        #expect(node.store.historyReads == 3, "an edit: read again")
        try await node.sqlite.close()

        #expect(try await alice.subscribed() == [[]])
        #expect(try await bob.subscribed() == [[]])
        #expect(try await carol.subscribed() == [["Pizza?"]])
        #expect(try await dave.subscribed() == [["Pizza tonight?"]])
    }

    /// Without the read's ticket, the history read before the message arrived would be kept, and every later
    /// subscriber would miss the message.
    @Test func aHistoryReadThatAMessageOvertookIsNotKept() async throws {
        let node = try await node()
        let (alice, bob, carol) = (
            try await Socket("alice", on: node.hub), try await Socket("bob", on: node.hub), try await Socket("carol", on: node.hub)
        )
        await node.store.run { [group] in
            await node.hub.handle(.subscribe(.init(conversation: group)), from: alice.id)
        } holdingItsReadWhile: {
            await node.hub.handle(.send(.init(conversation: group, clientMessageId: "m1", text: "Pizza?")), from: bob.id)
        }

        node.store.release()
        await node.hub.handle(.subscribe(.init(conversation: group)), from: carol.id)
        #expect(node.store.historyReads == 2)
        try await node.sqlite.close()
        #expect(try await alice.subscribed() == [[]], "read before the message, which came after `subscribed`")
        #expect(try await carol.subscribed() == [["Pizza?"]])
    }

    @Test func aClusterNodeKeepsNoHistory() async throws {
        let node = try await node(cluster: ClusterPublisher(node: "n1", sink: SilentSink()))
        for _ in 0..<10 { node.store.release() }
        let (alice, bob) = (try await Socket("alice", on: node.hub), try await Socket("bob", on: node.hub))
        await node.hub.handle(.subscribe(.init(conversation: group)), from: alice.id)
        await node.hub.handle(.subscribe(.init(conversation: group)), from: bob.id)
        #expect(node.store.historyReads == 2, "another node's messages may not reach this one: each subscribe reads")
        try await node.sqlite.close()
        _ = try await (alice.subscribed(), bob.subscribed())
    }

    /// A bus that takes everything and delivers nothing.
    private struct SilentSink: ClusterSink {
        func publish(_ envelope: ClusterEnvelope) {}
        var routesByInterest: Bool { false }
        func interest(in conversation: String, following: Bool) {}
        func finish() {}
    }
}
