import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

@Suite("Participant names: a subscribe lists them without the store until one may have changed", .timeLimit(.minutes(1)))
struct ParticipantNamesTests {
    private let group = "group-six"

    private struct Node {
        let hub: Hub
        let store: HeldHistoryStore
        let sqlite: SQLiteChatStore

        /// - Parameter released: How many held reads may go on without waiting.
        init(holdingParticipants: Bool, released: Int) async throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString).sqlite").path
            sqlite = try await SQLiteChatStore.open(path: path)
            try await DemoSeed.seed(into: sqlite)
            store = HeldHistoryStore(sqlite, holdingParticipants: holdingParticipants)
            hub = Hub(store: store, configuration: ServerConfiguration(jwtSecret: TestServer.secret))
            for _ in 0..<released { store.release() }
        }
    }

    /// A socket, and the participants each `subscribed` it was sent listed, as "id name".
    private final class Socket: Sendable {
        let id: ConnectionID
        private let frames: AsyncStream<String>
        private let input: AsyncStream<String>.Continuation

        init(_ user: String, name: String? = nil, on hub: Hub) async throws {
            (frames, input) = AsyncStream.makeStream(of: String.self)
            id = try await hub.connect(Identity(userID: user, name: name ?? user.capitalized), sink: QueueSink(frames: input))
        }

        func participants() async throws -> [[String]] {
            input.finish()
            var seen: [[String]] = []
            for await text in frames {
                if case .subscribed(let subscribed) = try FrameCodec.decodeServerFrame(Data(text.utf8)) {
                    seen.append(subscribed.participants.filter { ["bob", "erin"].contains($0.id) }.map { "\($0.id) \($0.name ?? "-")" })
                }
            }
            return seen
        }
    }

    @Test func aNameRecordedByAHelloOrTheServerAPIIsListedByTheNextSubscribe() async throws {
        let node = try await Node(holdingParticipants: false, released: 20)
        let (alice, carol) = (try await Socket("alice", on: node.hub), try await Socket("carol", on: node.hub))
        await node.hub.handle(.subscribe(.init(conversation: group)), from: alice.id)
        await node.hub.handle(.subscribe(.init(conversation: group)), from: carol.id)
        #expect(node.store.participantReads == 1, "the second subscribe lists the kept names")

        _ = try await Socket("bob", name: "Bobby", on: node.hub)
        let dave = try await Socket("dave", on: node.hub)
        await node.hub.handle(.subscribe(.init(conversation: group)), from: dave.id)
        #expect(node.store.participantReads == 2, "bob's hello recorded a new name")

        try await node.sqlite.putUser(Identity(userID: "erin", name: "Erin N."))
        await node.hub.userRecorded("erin")
        let frank = try await Socket("frank", on: node.hub)
        await node.hub.handle(.subscribe(.init(conversation: group)), from: frank.id)
        #expect(node.store.participantReads == 3, "the server API recorded erin")

        _ = try await Socket("bob", name: "Bobby", on: node.hub)  // the same name: nothing recorded
        let aliceAgain = try await Socket("alice", on: node.hub)
        await node.hub.handle(.subscribe(.init(conversation: group)), from: aliceAgain.id)
        #expect(node.store.participantReads == 3)
        try await node.sqlite.close()

        #expect(try await carol.participants() == [["bob Bob", "erin Erin"]])
        #expect(try await dave.participants() == [["bob Bobby", "erin Erin"]])
        #expect(try await frank.participants() == [["bob Bobby", "erin Erin N."]])
        #expect(try await aliceAgain.participants() == [["bob Bobby", "erin Erin N."]])
    }

    /// Without the count of name changes, the list read before bob's new name would be kept, and every later
    /// subscriber would see his old one.
    @Test func aListReadWhileANameChangedIsNotKept() async throws {
        let node = try await Node(holdingParticipants: true, released: 0)
        let (alice, carol) = (try await Socket("alice", on: node.hub), try await Socket("carol", on: node.hub))
        try await node.store.run { [group] in
            await node.hub.handle(.subscribe(.init(conversation: group)), from: alice.id)
        } holdingItsReadWhile: {
            _ = try await Socket("bob", name: "Bobby", on: node.hub)
        }

        node.store.release()
        await node.hub.handle(.subscribe(.init(conversation: group)), from: carol.id)
        #expect(node.store.participantReads == 2)
        try await node.sqlite.close()
        #expect(try await alice.participants() == [["bob Bob", "erin Erin"]], "read before the new name")
        #expect(try await carol.participants() == [["bob Bobby", "erin Erin"]])
    }
}
