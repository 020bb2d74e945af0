import Testing
import TypewireCore
@testable import TypewireServer
import TypewireTesting

/// A socket that stops reading cannot make the hub buffer for it without limit.
@Suite("Hub: slow consumers", .timeLimit(.minutes(1)))
struct SlowConsumerTests {
    @Test func aSocketWhoseQueueFillsUpIsCutOffAndTheOthersGoOn() async throws {
        let store = try await SQLiteChatStore.open(path: ":memory:")
        try await DemoSeed.seed(into: store)
        let hub = Hub(store: store, configuration: ServerConfiguration(jwtSecret: TestServer.secret))
        // Bob's socket reads nothing: its queue holds 5 frames (the session bounds it the same way).
        let (bobQueue, bobOutbox) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(5))
        let (carolQueue, carolOutbox) = AsyncStream.makeStream(of: String.self)
        let (_, aliceOutbox) = AsyncStream.makeStream(of: String.self)
        let bob = try await hub.connect(Identity(userID: "bob", name: "Bob"), outbox: bobOutbox)
        let carol = try await hub.connect(Identity(userID: "carol", name: "Carol"), outbox: carolOutbox)
        let alice = try await hub.connect(Identity(userID: "alice", name: "Alice"), outbox: aliceOutbox)
        await hub.handle(.subscribe(.init(conversation: "group-six")), from: bob)
        await hub.handle(.subscribe(.init(conversation: "group-six")), from: carol)
        for index in 0..<10 {
            await hub.handle(.activity(.init(conversation: "group-six", activity: index.isMultiple(of: 2) ? .typing : .none)), from: alice)
        }
        var bobGot = 0
        for await _ in bobQueue { bobGot += 1 }  // ends: the hub ended the full queue
        #expect(bobGot == 5, "what fitted in the queue, then nothing")
        var carolActivity = 0
        carolOutbox.finish()
        for await text in carolQueue where text.contains(#""type":"activity""#) { carolActivity += 1 }
        #expect(carolActivity == 10, "a reader keeps getting every update")
        try await store.close()
    }
}
