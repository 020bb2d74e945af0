import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

/// A large group's activity updates are paced and capped, a message never overtakes its sender's stop, and
/// presence is not fanned out.
@Suite("Hub: large groups", .timeLimit(.minutes(1)))
struct LargeGroupTests {
    static let members = 150
    static let typers = 50

    /// The frames one member's socket received, decoded, until `done` says so (a liveness bound of 2 s).
    static func read(
        _ queue: AsyncStream<String>, until done: @escaping @Sendable ([ServerFrame]) -> Bool
    ) async throws -> [ServerFrame] {
        try await withThrowingTaskGroup(of: [ServerFrame]?.self) { group in
            group.addTask {
                var frames: [ServerFrame] = []
                for await text in queue {
                    frames.append(try FrameCodec.decodeServerFrame(Data(text.utf8)))
                    if done(frames) { return frames }
                }
                return frames
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))  // a liveness bound for a loaded machine
                return nil
            }
            let frames = try await group.next()!
            group.cancelAll()
            return try #require(frames, "the expected frames did not come within 10 s")
        }
    }

    static func activity(_ frame: ServerFrame) -> ActivityUpdate? {
        if case .activity(let update) = frame { update } else { nil }
    }

    @Test func updatesArePacedCappedAndOrderedAndNoPresenceIsFannedOut() async throws {
        let store = try await SQLiteChatStore.open(path: ":memory:")
        let users = (0..<Self.members).map { Identity(userID: "u\($0)", name: "User \($0)") }
        for user in users { try await store.upsertUser(user) }
        _ = try await store.createConversation(
            id: "big", kind: .group, title: "Everyone", creator: users[0].userID, members: users.dropFirst().map(\.userID)
        )
        let configuration = ServerConfiguration(jwtSecret: TestServer.secret)
        let hub = Hub(store: store, configuration: configuration)
        var queues: [AsyncStream<String>] = []
        var ids: [ConnectionID] = []
        for user in users {
            let (queue, sink) = AsyncStream.makeStream(of: String.self)
            let id = try await hub.connect(user, sink: QueueSink(frames: sink))
            await hub.handle(.subscribe(.init(conversation: "big")), from: id)
            queues.append(queue)
            ids.append(id)
        }
        #expect(configuration.typing.largeGroupSize <= Self.members, "the group counts as large")

        for typer in ids.prefix(Self.typers) {
            await hub.handle(.activity(.init(conversation: "big", activity: .typing)), from: typer)
        }
        // The last typer stops by sending a message.
        let sender = ids[Self.typers - 1]
        await hub.handle(.send(.init(conversation: "big", clientMessageId: "m1", text: "hello")), from: sender)

        for (index, queue) in [(0, queues[0]), (Self.members - 1, queues[Self.members - 1])] {
            let frames = try await Self.read(queue) { frames in
                frames.contains { if case .message = $0 { true } else { false } }
            }
            let updates = frames.compactMap(Self.activity).filter { $0.conversation == "big" }
            let times = updates.map(\.serverTime)
            // One update per interval at most (the last may be taken early by the message). `serverTime` is
            // read again after the pacer's own reading of the clock, so a thread preempted between the two on
            // a loaded machine stamps an update late (97 ms after the one before it, in a CI run): half the
            // interval still tells paced updates from 50 unpaced ones, which come microseconds apart.
            let interval = Int(configuration.typing.largeGroupInterval.wholeMilliseconds)
            for (earlier, later) in zip(times, times.dropFirst().dropLast()) {
                #expect(later - earlier >= interval / 2, "member \(index): \(times)")
            }
            if let first = times.first, let last = times.dropLast().last, times.count > 2 {
                #expect(last - first >= (times.count - 2) * interval - interval / 2, "member \(index): \(times)")
            }
            #expect(updates.count < Self.typers, "member \(index): \(updates.count) updates for \(Self.typers) changes were not coalesced")
            #expect(updates.allSatisfy { $0.entries.count <= configuration.typing.maxEntries })
            let beforeMessage = try #require(updates.last)
            #expect(beforeMessage.total == Self.typers - 1, "the sender's stop is fanned out before the message")
            #expect(beforeMessage.entries.count == configuration.typing.maxEntries)
            #expect(!beforeMessage.entries.contains { $0.user == users[Self.typers - 1].userID })
            #expect(Self.activity(frames[frames.count - 2]) != nil, "the message comes right after the stop")
            let presence = frames.filter { if case .presence = $0 { true } else { false } }
            #expect(presence.count == 0, "member \(index): a large group gets no presence frames")
            let subscribed = frames.compactMap { if case .subscribed(let frame) = $0 { frame } else { nil } }
            #expect(subscribed.map(\.presence) == [false], "member \(index): subscribed says so")
        }
        try await store.close()
    }
}
