import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

@Suite("HubShard access: who may act in a conversation, and what the store is asked", .timeLimit(.minutes(1)))
struct HubShardAccessTests {
    /// A hub on the demo's SQLite data whose reads of participants each wait for a `release`, and alice's
    /// socket on it, whose frames `subscribed(to:)` reads.
    private struct Fixture {
        let sqlite: SQLiteChatStore
        let store: HeldHistoryStore
        let hub: Hub
        let alice: ConnectionID
        let aliceFrames: AsyncStream<String>.Continuation
        let aliceQueue: AsyncStream<String>

        init() async throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString).sqlite").path
            sqlite = try await SQLiteChatStore.open(path: path)
            try await DemoSeed.seed(into: sqlite)
            try await sqlite.putUser(Identity(userID: "grace", name: "Grace"))
            store = HeldHistoryStore(sqlite, holdingParticipants: true)
            hub = Hub(store: store, configuration: ServerConfiguration(jwtSecret: TestServer.secret))
            (aliceQueue, aliceFrames) = AsyncStream.makeStream(of: String.self)
            alice = try await hub.connect(Identity(userID: "alice", name: "Alice"), sink: QueueSink(frames: aliceFrames))
        }

        /// After a first read was let go: true if the participants are read a second time (that read is let
        /// go too), false if the subscribe ends first.
        func readsAgain(before subscribing: Task<Void, Never>) async -> Bool {
            await withTaskGroup(of: Bool.self) { group in
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
        }

        /// The participants of the `subscribed` alice got, as "id name"; closes the store.
        func subscribedParticipants() async throws -> [String] {
            aliceFrames.finish()
            try await sqlite.close()
            var participants: [String] = []
            for await text in aliceQueue {
                if case .subscribed(let subscribed) = try FrameCodec.decodeServerFrame(Data(text.utf8)) {
                    participants = subscribed.participants.map { "\($0.id) \($0.name ?? "-")" }
                }
            }
            return participants
        }
    }

    /// The first `subscribe` to a conversation no socket follows reads its participants to admit the user; the
    /// `subscribed` frame lists those, without a second read.
    @Test func aSubscribeToAConversationNobodyFollowsReadsItsParticipantsOnce() async throws {
        let fixture = try await Fixture()
        let subscribing = Task { await fixture.hub.handle(.subscribe(.init(conversation: "direct-alice-bob")), from: fixture.alice) }
        await fixture.store.historyRead()
        fixture.store.release()
        #expect(await !fixture.readsAgain(before: subscribing), "the participants were read a second time")
        #expect(try await fixture.subscribedParticipants() == ["alice Alice", "bob Bob"])
    }

    /// A participant added while the store answers: that answer may be behind the change, so the subscribe
    /// reads the participants again rather than list the first answer.
    @Test func aParticipantAddedWhileTheParticipantsAreReadIsListed() async throws {
        let fixture = try await Fixture()
        let subscribing = Task { await fixture.hub.handle(.subscribe(.init(conversation: "group-six")), from: fixture.alice) }
        await fixture.store.historyRead()
        #expect(try await fixture.sqlite.addParticipant("grace", to: "group-six", limit: 100))
        await fixture.hub.participantAdded("grace", to: "group-six")
        fixture.store.release()
        #expect(await fixture.readsAgain(before: subscribing), "the answer read before the change was listed")
        #expect(try await fixture.subscribedParticipants().contains("grace Grace"))
    }
}
