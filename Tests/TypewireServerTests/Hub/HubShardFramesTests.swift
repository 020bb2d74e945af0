import NIOCore
import NIOPosix
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

/// Frames a shard handles at once, without a task (``HubShard/handleAtOnce(_:from:readAt:)``).
@Suite("HubShard: frames handled at once", .timeLimit(.minutes(1)))
struct HubShardFramesTests {
    static func activity(_ activity: MemberActivity, in conversation: String) -> ClientFrame {
        .activity(.init(conversation: conversation, activity: activity))
    }

    @Test func anActivityWhereTheUserIsKnownIsHandledAtOnceAndAnyOtherFrameIsLeftAlone() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let store = try await SQLiteChatStore.open(path: ":memory:")
        try await DemoSeed.seed(into: store)
        let hub = Hub(store: store, configuration: ServerConfiguration(jwtSecret: TestServer.secret), eventLoops: [group.next()])
        let (bobFrames, bobSink) = AsyncStream.makeStream(of: String.self)
        let (_, aliceSink) = AsyncStream.makeStream(of: String.self)
        let bob = try await hub.connect(Identity(userID: "bob", name: "Bob"), sink: QueueSink(frames: bobSink))
        let alice = try await hub.connect(Identity(userID: "alice", name: "Alice"), sink: QueueSink(frames: aliceSink))
        // Bob follows the group: its participants are cached. Nobody follows the direct conversation.
        await hub.handle(.subscribe(.init(conversation: "group-six")), from: bob)
        let shard = hub.shard(for: "group-six")
        let (handled, directBoard) = try await shard.eventLoop.submit {
            shard.assumeIsolated { shard in
                let handled = [
                    hub.handleAtOnce(Self.activity(.typing, in: "group-six"), from: alice, on: shard),
                    hub.handleAtOnce(Self.activity(.typing, in: "direct-alice-bob"), from: alice, on: shard),
                    hub.handleAtOnce(Self.activity(.none, in: "direct-alice-bob"), from: alice, on: shard),
                    hub.handleAtOnce(.subscribe(.init(conversation: "direct-alice-bob")), from: alice, on: shard),
                ]
                return (handled, shard.board.entries(in: "direct-alice-bob"))
            }
        }.get()
        #expect(
            handled == [true, false, true, false],
            "typing where the participants are cached, and a stop, at once; typing that needs the store, and a subscribe, not")
        #expect(directBoard.isEmpty, "the frame left alone was not applied")
        var sawAliceTyping = false
        for await text in bobFrames where text.contains("\"type\":\"activity\"") {
            sawAliceTyping = text.contains("alice") && text.contains("group-six")
            break
        }
        #expect(sawAliceTyping, "the frame handled at once reached the group's subscriber")
        try await store.close()
        try await group.shutdownGracefully()
    }
}
