import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

@Suite("JoiningSubscribers: what is broadcast while a socket subscribes reaches it once", .timeLimit(.minutes(1)))
struct JoiningSubscribersTests {
    @Test func framesBroadcastWhileJoiningAreHeldInOrderLessTheHistory() {
        var joining = JoiningSubscribers()
        joining.hold(OutboundFrame(text: "before"), message: nil, in: "c")
        joining.begin(7, in: "c")
        let one = ChatMessage.bobs("1")
        let two = ChatMessage.bobs("2")
        let twoEdited = ChatMessage.bobs("2", text: "Hi!")
        joining.hold(OutboundFrame(text: "one"), message: one, in: "c")
        joining.hold(OutboundFrame(text: "part"), message: nil, in: "c")
        joining.hold(OutboundFrame(text: "two"), message: two, in: "c")
        joining.hold(OutboundFrame(text: "two edited"), message: twoEdited, in: "c")
        joining.hold(OutboundFrame(text: "elsewhere"), message: nil, in: "d")
        // The history read saw the first message and the second before its edit.
        #expect(joining.end(7, in: "c", history: [one, two]).map(\.text) == ["part", "two edited"])
        #expect(joining.end(7, in: "c").isEmpty, "ended once")
        joining.hold(OutboundFrame(text: "after"), message: nil, in: "c")
        #expect(joining.end(7, in: "c").isEmpty)
    }

    /// A message stored after the history was read and fanned out before the socket joined the subscribers
    /// reached no one on that socket (seen on a loaded machine: a bot that never saw the question).
    @Test func aMessageSentWhileTheHistoryIsReadArrivesAfterSubscribed() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString).sqlite").path
        let sqlite = try await SQLiteChatStore.open(path: path)
        try await DemoSeed.seed(into: sqlite)
        let store = HeldHistoryStore(sqlite)
        let hub = Hub(store: store, configuration: ServerConfiguration(jwtSecret: TestServer.secret))
        let (bobQueue, bobFrames) = AsyncStream.makeStream(of: String.self)
        let bob = try await hub.connect(Identity(userID: "bob", name: "Bob"), sink: QueueSink(frames: bobFrames))
        let (aliceQueue, aliceFrames) = AsyncStream.makeStream(of: String.self)
        let alice = try await hub.connect(Identity(userID: "alice", name: "Alice"), sink: QueueSink(frames: aliceFrames))

        await store.run {
            await hub.handle(.subscribe(.init(conversation: "direct-alice-bob")), from: alice)
        } holdingItsReadWhile: {
            await hub.handle(.send(.init(conversation: "direct-alice-bob", clientMessageId: "m1", text: "Are you there?")), from: bob)
        }
        aliceFrames.finish()
        bobFrames.finish()
        try await sqlite.close()

        var seen: [String] = []
        for await text in aliceQueue {
            switch try FrameCodec.decodeServerFrame(Data(text.utf8)) {
            case .subscribed(let subscribed): seen.append("subscribed \(subscribed.recentMessages.map(\.text))")
            case .message(let message): seen.append("message \(message.text)")
            default: break
            }
        }
        #expect(seen == ["subscribed []", "message Are you there?"])
        var acked = false
        for await text in bobQueue { if case .ack = try FrameCodec.decodeServerFrame(Data(text.utf8)) { acked = true } }
        #expect(acked)
    }
}
