import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

/// A store that cannot be read is the server's trouble: the client is told to try again (`unavailable`),
/// never that a conversation it is in does not exist, which would make the SDK end its handle for good.
@Suite("Hub: a store that cannot be read", .timeLimit(.minutes(1)))
struct StoreFailureTests {
    /// A hub on a real SQLite file; the store is closed before the body runs, so every statement fails.
    func withBrokenStore(_ body: (Hub, ConnectionID, AsyncStream<String>, AsyncStream<String>.Continuation) async throws -> Void)
        async throws
    {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString).sqlite").path
        let store = try await SQLiteChatStore.open(path: path)
        try await DemoSeed.seed(into: store)
        let hub = Hub(store: store, configuration: ServerConfiguration(jwtSecret: TestServer.secret))
        let (queue, sink) = AsyncStream.makeStream(of: String.self)
        let bob = try await hub.connect(Identity(userID: "bob", name: "Bob"), sink: QueueSink(frames: sink))
        try await store.close()
        try await body(hub, bob, queue, sink)
    }

    @Test func aSubscribeAndASendAreAnsweredUnavailableWithTheirRefs() async throws {
        try await withBrokenStore { hub, bob, queue, sink in
            await hub.handle(.subscribe(.init(conversation: "group-six")), from: bob)
            await hub.handle(.send(.init(conversation: "direct-alice-bob", clientMessageId: "m1", text: "Hi")), from: bob)
            sink.finish()
            var failures: [ServerFrame.Failure] = []
            for await text in queue {
                if case .error(let failure) = try FrameCodec.decodeServerFrame(Data(text.utf8)) { failures.append(failure) }
            }
            #expect(failures.map(\.code) == [.unavailable, .unavailable])
            #expect(failures.map(\.ref) == ["group-six", "m1"])
        }
    }

    @Test func aHandshakeIsRefusedAsTemporary() async throws {
        try await withBrokenStore { hub, _, _, _ in
            let (_, sink) = AsyncStream.makeStream(of: String.self)
            do throws(ConnectRefusal) {
                _ = try await hub.connect(Identity(userID: "carol", name: "Carol"), sink: QueueSink(frames: sink))
                Issue.record("a handshake whose store cannot be read was welcomed")
            } catch {
                #expect(error.code == .unavailable && error.isTemporary)
            }
        }
    }
}
