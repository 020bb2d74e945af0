import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceLifecycle

/// The bare broadcast server `typewire relay` runs: the benchmark's baseline.
///
/// The same stack as `typewire serve` (Hummingbird 2 and HummingbirdWebSocket at `/v1/socket`, one outbox
/// per socket drained by its own writer) with none of its work: no token check, no store, no rate limits,
/// no expiry. `hello` is answered with `welcome`, `subscribe` joins a room and is answered with
/// `subscribed`, and `activity` and `send` frames are forwarded unchanged to everyone in their room, the
/// sender included (as Typewire does).
public enum RelayServer {
    /// Builds the relay; it serves when run as a swift-service-lifecycle `Service`.
    /// - Parameters:
    ///   - host: The address to listen on.
    ///   - port: The port; 0 picks a free one.
    ///   - onServerRunning: Called with the bound port once it listens.
    public static func make(
        host: String, port: Int, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some Service {
        let rooms = RelayRooms()
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.get("/healthz") { _, _ in "ok" }
        router.ws("/v1/socket") { _, _ in
            .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            try await RelaySocket(rooms: rooms).run(inbound: inbound, outbound: outbound)
        }
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(ws: .init(maxFrameSize: 1 << 20))),
            configuration: .init(address: .hostname(host, port: port), serverName: "typewire-relay"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }
}

/// One socket of the relay: reads frames, forwards them; its outbox is drained by a child task.
struct RelaySocket {
    /// Just what the relay reads of a frame.
    private struct Envelope: Decodable {
        var type: String
        var conversation: String?
    }

    let rooms: RelayRooms

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let id = rooms.newSocket()
        let (outbox, continuation) = AsyncStream.makeStream(of: String.self)
        var joined: Set<String> = []
        defer {
            rooms.leave(id, rooms: joined)
            continuation.finish()
        }
        let decoder = JSONDecoder()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in outbox {
                    do { try await outbound.write(.text(text)) } catch { break }
                }
            }
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message,
                      let envelope = try? decoder.decode(Envelope.self, from: Data(text.utf8)) else { continue }
                switch envelope.type {
                case "hello":
                    continuation.yield(#"{"type":"welcome"}"#)
                case "subscribe":
                    guard let room = envelope.conversation else { continue }
                    joined.insert(room)
                    rooms.join(id, outbox: continuation, room: room)
                    continuation.yield(#"{"type":"subscribed","conversation":"\#(room)"}"#)
                case "activity", "send":
                    guard let room = envelope.conversation, joined.contains(room) else { continue }
                    rooms.broadcast(text, to: room)
                default:
                    continue
                }
            }
            group.cancelAll()
        }
    }
}
