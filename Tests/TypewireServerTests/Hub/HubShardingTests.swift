import Foundation
import NIOCore
import NIOPosix
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

/// The hub's shards: each conversation lives in one, chosen by its id, and what a socket or a user is
/// (online, their budgets) holds across all of them.
@Suite("Hub: sharded over event loops", .timeLimit(.minutes(1)))
struct HubShardingTests {
    /// A hub of two shards, on the two loops of a group of its own, over a seeded SQLite file, with groups of
    /// alice and bob, two in each shard; and bob's socket.
    func withTwoShards(
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (Hub, [String], (ConnectionID, AsyncStream<String>)) async throws -> Void
    ) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString).sqlite").path
        let store = try await SQLiteChatStore.open(path: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await DemoSeed.seed(into: store)
        var configuration = ServerConfiguration(jwtSecret: TestServer.secret)
        configure(&configuration)
        let hub = Hub(store: store, configuration: configuration, eventLoops: Array(group.makeIterator()))
        // The first two ids of each shard.
        let ids = (0..<40).map { "sharded-\($0)" }
        let chosen: [String] = hub.shards.flatMap { shard in Array(ids.filter { hub.shard(for: $0) === shard }.prefix(2)) }
        for id in chosen {
            _ = try await store.createConversation(id: id, kind: .group, title: id, creator: "alice", members: ["alice", "bob"])
        }
        let (frames, continuation) = AsyncStream.makeStream(of: String.self)
        do {
            let bob = try await hub.connect(Identity(userID: "bob", name: "Bob"), sink: QueueSink(frames: continuation))
            try await body(hub, chosen, (bob, frames))
        } catch {
            try? await store.close()
            throw error
        }
        continuation.finish()
        try await store.close()
        try await group.shutdownGracefully()
    }

    @Test func aConversationAlwaysGoesToTheSameShardAndEveryShardGetsSome() async throws {
        try await withTwoShards { hub, chosen, _ in
            #expect(chosen.count == 4, "each of the two shards owns conversations")
            // FNV-1a, the same in every process (Swift's Hasher would not be): checked against a reference value.
            #expect(Hub.stableHash("group-six") == 0x821c_1a1a_905f_22e9)
            #expect(hub.shard(for: "group-six") === hub.shards[1])
        }
    }

    @Test func aSocketsSubscriptionBudgetCountsEveryShard() async throws {
        try await withTwoShards(configure: { $0.sockets.maxSubscriptions = 3 }) { hub, chosen, bob in
            // Two in the first shard, then two in the second: the fourth is one too many for the socket.
            for id in chosen { await hub.handle(.subscribe(.init(conversation: id)), from: bob.0) }
            var answers: [ServerFrame] = []
            for await text in bob.1 {
                let frame = try FrameCodec.decodeServerFrame(Data(text.utf8))
                if case .welcome = frame { continue }
                answers.append(frame)
                if answers.count == 4 { break }
            }
            #expect(answers.prefix(3).allSatisfy { if case .subscribed = $0 { true } else { false } })
            guard case .error(let refusal) = answers.last else {
                Issue.record("the fourth subscribe was taken: \(answers)")
                return
            }
            #expect(refusal.code == .forbidden && refusal.ref == chosen[3])
        }
    }

    @Test func presenceIsAnnouncedInTheConversationsOfEveryShard() async throws {
        try await withTwoShards { hub, chosen, bob in
            for id in chosen { await hub.handle(.subscribe(.init(conversation: id)), from: bob.0) }
            let (_, aliceFrames) = AsyncStream.makeStream(of: String.self)
            _ = try await hub.connect(Identity(userID: "alice", name: "Alice"), sink: QueueSink(frames: aliceFrames))
            var announced: Set<String> = []
            for await text in bob.1 {
                if case .presence(let presence) = try FrameCodec.decodeServerFrame(Data(text.utf8)), presence.user == "alice",
                    presence.online
                {
                    announced.insert(presence.conversation)
                }
                if announced.count == chosen.count { break }
            }
            #expect(announced == Set(chosen))
            #expect(await hub.presence(of: "alice"))
        }
    }
}
