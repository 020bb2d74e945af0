import NIOCore
import NIOPosix
import Testing
import TypewireCore

@testable import TypewireServer

/// How a shard takes events from the cluster's bus (``HubShard/enqueue(_:)``).
@Suite("HubShard: events from the cluster's bus", .timeLimit(.minutes(1)))
struct HubShardClusterTests {
    /// Hands another node's slice of `conversation` to its shard from `loop`, and returns what the shard's board
    /// holds for it right after, in the same job of that loop.
    func boardRightAfterEnqueue(from loop: any EventLoop, hub: Hub, conversation: String) async throws -> [ActivityEntry] {
        let shard = hub.shard(for: conversation)
        let entry = ActivityEntry(user: "bob", name: "Bob", activity: .typing, since: hub.now(), expiresAt: hub.now() + 5_000)
        let envelope = ClusterEnvelope(node: "node-b", event: .slice(conversation: conversation, entries: [entry], serverTime: hub.now()))
        return try await loop.submit {
            shard.enqueue(envelope)
            guard shard.eventLoop.inEventLoop else { return [] }
            return shard.assumeIsolated { $0.board.entries(in: conversation) }
        }.get()
    }

    @Test func onTheShardsLoopAnEventIsAppliedAtOnce() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let store = try await SQLiteChatStore.open(path: ":memory:")
        let hub = Hub(
            store: store, configuration: ServerConfiguration(jwtSecret: "a secret of thirty-two bytes or more"), eventLoops: [group.next()])
        let entries = try await boardRightAfterEnqueue(from: group.next(), hub: hub, conversation: "group-six")
        #expect(entries.map(\.user) == ["bob"], "applied before enqueue returned, not queued behind the loop's other work")
        try await store.close()
        try await group.shutdownGracefully()
    }

    @Test func aSliceKeepsItsThreadsAndItsUnlistedUsersCountInTotalUntilTheyExpire() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let store = try await SQLiteChatStore.open(path: ":memory:")
        let hub = Hub(
            store: store, configuration: ServerConfiguration(jwtSecret: "a secret of thirty-two bytes or more"), eventLoops: [group.next()])
        let shard = hub.shard(for: "group-six")
        let now = hub.now()
        let inThread = ActivityEntry(user: "bob", name: "Bob", activity: .typing, since: now, expiresAt: now + 5_000, thread: "42")
        let slice = ClusterEvent.slice(
            conversation: "group-six", entries: [inThread], serverTime: now, unlisted: UnlistedActivity(users: 7, until: now + 3_000))
        let (entries, update, later) = try await shard.eventLoop.submit {
            shard.enqueue(ClusterEnvelope(node: "node-b", event: slice))
            return shard.assumeIsolated { shard in
                let update = shard.activityUpdate(of: "group-six", seenBy: "carol")
                let entries = shard.board.entries(in: "group-six")
                _ = shard.board.expire(now: now + 4_000)
                return (entries, update, shard.activityUpdate(of: "group-six", seenBy: "carol"))
            }
        }.get()
        #expect(entries.map(\.thread) == ["42"], "typing in a thread on another node is typing in that thread here")
        #expect(update.total == 8, "Bob and the 7 users the other node left out")
        #expect(later.total == 1, "the unlisted expire with their entries")
        try await store.close()
        try await group.shutdownGracefully()
    }

    /// A node of the cluster says Mallory joined; the store says she did not: the store decides.
    @Test func aMembershipEventIsReadFromTheStoreNotTakenFromTheBus() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let store = try await SQLiteChatStore.open(path: ":memory:")
        _ = try await store.createConversation(id: "g", kind: .group, title: "G", creator: "alice", members: ["bob"])
        let hub = Hub(
            store: store, configuration: ServerConfiguration(jwtSecret: "a secret of thirty-two bytes or more"), eventLoops: [group.next()])
        let shard = hub.shard(for: "g")
        try await shard.eventLoop.submit {
            shard.assumeIsolated { $0.members.cache(["alice", "bob"], of: "g") }
            shard.enqueue(ClusterEnvelope(node: "node-b", event: .membership(conversation: "g", user: "mallory", added: true)))
            shard.enqueue(ClusterEnvelope(node: "node-b", event: .membership(conversation: "g", user: "bob", added: false)))
        }.get()
        // A real change, told the same way: once it is applied, so are the reads the events before it caused.
        #expect(try await store.addParticipant("carol", to: "g", limit: 10))
        try await shard.eventLoop.submit {
            shard.enqueue(ClusterEnvelope(node: "node-b", event: .membership(conversation: "g", user: "carol", added: true)))
        }.get()
        var cached: Set<String>?
        for _ in 0..<500 {
            cached = try await shard.eventLoop.submit { shard.assumeIsolated { $0.members["g"] } }.get()
            if cached?.contains("carol") == true { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(cached == ["alice", "bob", "carol"], "Mallory was never let in, Bob never taken out: the store says so")
        try await store.close()
        try await group.shutdownGracefully()
    }

    /// A node of the cluster says Alice stopped sharing her typing and her presence and that Bob blocked her;
    /// the store says none of it: the store decides, for each kind of event that changes who sees what.
    @Test func sharingAndBlockEventsAreReadFromTheStoreNotTakenFromTheBus() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let store = try await SQLiteChatStore.open(path: ":memory:")
        _ = try await store.createConversation(id: "g", kind: .group, title: "G", creator: "alice", members: ["bob"])
        let hub = Hub(
            store: store, configuration: ServerConfiguration(jwtSecret: "a secret of thirty-two bytes or more"), eventLoops: [group.next()])
        for user in ["alice", "bob"] {
            let (_, sink) = AsyncStream.makeStream(of: String.self)
            _ = try await hub.connect(Identity(userID: user, name: user.capitalized), sink: QueueSink(frames: sink))
        }
        for event in [
            ClusterEvent.sharing(user: "alice", shares: false), .presenceSharing(user: "alice", shares: false),
            .block(blocker: "bob", user: "alice", blocked: true),
        ] {
            await hub.apply(ClusterEnvelope(node: "node-b", event: event))
        }
        let shard = hub.shard(for: "g")
        let (typing, blocked) = try await shard.eventLoop.submit {
            shard.assumeIsolated { ($0.users.sharesTyping("alice"), $0.users.visibility.blocks(of: "bob").blocked) }
        }.get()
        #expect(typing, "Alice's typing is still shared: the store says so")
        #expect(await hub.presence(of: "alice"), "Alice is still shown online: the store says she shares her presence")
        #expect(blocked.isEmpty, "Bob blocks no one: the store says so")
        // A real change, told the same way, is applied: the store says it.
        try await store.setSharesPresence(false, for: "alice")
        await hub.apply(ClusterEnvelope(node: "node-b", event: .presenceSharing(user: "alice", shares: false)))
        #expect(await !hub.presence(of: "alice"))
        try await store.close()
        try await group.shutdownGracefully()
    }

    @Test func fromAnotherThreadAnEventIsAppliedOnTheShardsLoopInOrder() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let (shardLoop, busLoop) = (group.next(), group.next())
        let store = try await SQLiteChatStore.open(path: ":memory:")
        let hub = Hub(
            store: store, configuration: ServerConfiguration(jwtSecret: "a secret of thirty-two bytes or more"), eventLoops: [shardLoop])
        let shard = hub.shard(for: "group-six")
        // A slice, then an empty one from the same node: the last one handed is what the board holds.
        let now = hub.now()
        let typing = ActivityEntry(user: "bob", name: "Bob", activity: .typing, since: now, expiresAt: now + 5_000)
        try await busLoop.submit {
            shard.enqueue(ClusterEnvelope(node: "node-b", event: .slice(conversation: "group-six", entries: [typing], serverTime: now)))
            shard.enqueue(ClusterEnvelope(node: "node-b", event: .slice(conversation: "group-six", entries: [], serverTime: now)))
        }.get()
        let entries = try await shardLoop.submit { shard.assumeIsolated { $0.board.entries(in: "group-six") } }.get()
        #expect(entries.isEmpty, "both applied on the shard's loop, in the order they were handed")
        try await store.close()
        try await group.shutdownGracefully()
    }
}
