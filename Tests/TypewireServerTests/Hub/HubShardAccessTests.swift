import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

@Suite("HubShard access: who may act in a conversation, and what the store is asked", .timeLimit(.minutes(1)))
struct HubShardAccessTests {
    /// The first `subscribe` to a conversation no socket follows reads its participants to admit the user; the
    /// `subscribed` frame lists those, without a second read. Each read here waits for a `release`.
    @Test func aSubscribeToAConversationNobodyFollowsReadsItsParticipantsOnce() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString).sqlite").path
        let sqlite = try await SQLiteChatStore.open(path: path)
        try await DemoSeed.seed(into: sqlite)
        let store = HeldHistoryStore(sqlite, holdingParticipants: true)
        let hub = Hub(store: store, configuration: ServerConfiguration(jwtSecret: TestServer.secret))
        let (aliceQueue, aliceFrames) = AsyncStream.makeStream(of: String.self)
        let alice = try await hub.connect(Identity(userID: "alice", name: "Alice"), outbox: QueueOutbox(frames: aliceFrames))

        let subscribing = Task { await hub.handle(.subscribe(.init(conversation: "direct-alice-bob")), from: alice) }
        await store.historyRead()
        store.release()
        // Whichever comes first: the subscribe's end, or a second read of the participants.
        let secondRead = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await subscribing.value
                return false
            }
            group.addTask {
                await store.historyRead()
                return true
            }
            let first = await group.next()!
            if first { store.release() }  // lets the subscribe end
            group.cancelAll()
            return first
        }
        #expect(!secondRead, "the participants were read a second time")
        aliceFrames.finish()
        try await sqlite.close()

        var participants: [String] = []
        for await text in aliceQueue {
            if case .subscribed(let subscribed) = try FrameCodec.decodeServerFrame(Data(text.utf8)) {
                participants = subscribed.participants.map { "\($0.id) \($0.name ?? "-")" }
            }
        }
        #expect(participants == ["alice Alice", "bob Bob"])
    }
}
