import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

/// A socket that stops reading cannot make the hub buffer for it without limit.
@Suite("Hub: slow consumers", .timeLimit(.minutes(1)))
struct SlowConsumerTests {
    @Test func aSocketWhoseQueueFillsUpIsCutOffAndTheOthersGoOn() async throws {
        let store = try await SQLiteChatStore.open(path: ":memory:")
        try await DemoSeed.seed(into: store)
        let hub = Hub(store: store, configuration: ServerConfiguration(jwtSecret: TestServer.secret))
        // Bob's socket reads nothing: its queue holds 2 KiB (the session bounds it the same way, 4 MiB by default).
        let (bobQueue, bobFrames) = AsyncStream.makeStream(of: String.self)
        let (carolQueue, carolFrames) = AsyncStream.makeStream(of: String.self)
        let (_, aliceFrames) = AsyncStream.makeStream(of: String.self)
        let bobOutbox = QueueSink(frames: bobFrames, byteLimit: 2_048)
        let carolOutbox = QueueSink(frames: carolFrames)
        let bob = try await hub.connect(Identity(userID: "bob", name: "Bob"), sink: bobOutbox)
        let carol = try await hub.connect(Identity(userID: "carol", name: "Carol"), sink: carolOutbox)
        let alice = try await hub.connect(Identity(userID: "alice", name: "Alice"), sink: QueueSink(frames: aliceFrames))
        await hub.handle(.subscribe(.init(conversation: "group-six")), from: bob)
        await hub.handle(.subscribe(.init(conversation: "group-six")), from: carol)
        for index in 0..<10 {
            await hub.handle(.activity(.init(conversation: "group-six", activity: index.isMultiple(of: 2) ? .typing : .none)), from: alice)
        }
        var bobGot: [String] = []
        for await text in bobQueue { bobGot.append(text) }  // ends: the hub ended the full queue
        let bytes = bobGot.map(\.utf8.count).reduce(0, +)
        #expect(bytes <= 2_048 && bobGot.count < 12, "what fitted in 2 KiB (\(bobGot.count) frames, \(bytes) bytes), then nothing")
        var carolActivity = 0
        carolOutbox.finish()
        for await text in carolQueue where text.contains(#""type":"activity""#) { carolActivity += 1 }
        #expect(carolActivity == 10, "a reader keeps getting every update")
        try await store.close()
    }

    @Test func aCutOffSocketHoldsItsPlaceAgainstTheUsersCapUntilItIsGone() async throws {
        let store = try await SQLiteChatStore.open(path: ":memory:")
        try await DemoSeed.seed(into: store)
        var configuration = ServerConfiguration(jwtSecret: TestServer.secret)
        configuration.sockets.maxPerUser = 1
        let hub = Hub(store: store, configuration: configuration)
        let (bobQueue, bobFrames) = AsyncStream.makeStream(of: String.self)
        let bob = try await hub.connect(Identity(userID: "bob", name: "Bob"), sink: QueueSink(frames: bobFrames, byteLimit: 400))
        let (_, carolFrames) = AsyncStream.makeStream(of: String.self)
        let carol = try await hub.connect(Identity(userID: "carol", name: "Carol"), sink: QueueSink(frames: carolFrames))
        await hub.handle(.subscribe(.init(conversation: "group-six")), from: bob)
        for index in 0..<20 {
            await hub.handle(.activity(.init(conversation: "group-six", activity: index.isMultiple(of: 2) ? .typing : .none)), from: carol)
        }
        for await _ in bobQueue {}  // ends: his queue overflowed, and the hub cuts him off
        try await eventually { await !hub.presence(of: "bob") }  // the hub forgot his socket
        let again = Identity(userID: "bob", name: "Bob")
        await #expect(throws: ConnectRefusal.self, "his cut-off socket still holds his one place") {
            _ = try await hub.connect(again, sink: QueueSink(frames: AsyncStream.makeStream(of: String.self).continuation))
        }
        await hub.disconnect(bob)  // its channel is gone
        _ = try await hub.connect(again, sink: QueueSink(frames: AsyncStream.makeStream(of: String.self).continuation))
        try await store.close()
    }
}
