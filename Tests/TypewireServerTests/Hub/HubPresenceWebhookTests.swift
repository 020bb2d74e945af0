import Foundation
import Logging
import NIOPosix
import Testing
import TypewireCore

@testable import TypewireServer

/// The app's backend hears of a user's presence once for the cluster: a node whose user has a socket on
/// another node tells it of neither the user's first socket here nor their last one.
@Suite("Hub: presence webhooks beside other nodes", .timeLimit(.minutes(1)))
struct HubPresenceWebhookTests {
    @Test func aUserOnlineOnAnotherNodeNeitherComesOnlineNorGoesOfflineHere() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let store = try await SQLiteChatStore.open(path: ":memory:")
        var configuration = ServerConfiguration.Webhooks()
        configuration.endpoints = ["http://127.0.0.1:9/hook"]
        configuration.events = [.presenceChanged]
        let events = WebhookEvents(
            configuration: configuration, outbox: store, metrics: HubMetrics().webhooks, logger: Logger(label: "test"),
            doorbell: WebhookDoorbell(), now: { Int64(Date().timeIntervalSince1970 * 1_000) })
        let hub = Hub(
            store: store, configuration: ServerConfiguration(jwtSecret: "a secret of thirty-two bytes or more"), webhooks: events,
            eventLoops: [group.next()])
        await hub.loadRemotePresence([(node: "node-b", user: "alice")])
        let (_, continuation) = AsyncStream.makeStream(of: String.self)
        let alice = try await hub.connect(Identity(userID: "alice", name: nil), sink: QueueSink(frames: continuation))
        let bob = try await hub.connect(Identity(userID: "bob", name: nil), sink: QueueSink(frames: continuation))
        await hub.disconnect(alice)
        await hub.disconnect(bob)
        _ = await events.finish(within: .seconds(10))
        #expect(try await store.webhookBacklog().rows == 2, "bob online and offline; nothing of alice, online on node-b")
        try await store.close()
        try await group.shutdownGracefully()
    }
}
