import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOWebSocket
import ServiceLifecycle
import TypewireServer

/// The bare broadcast server `typewire relay` runs: the benchmark's baseline.
///
/// The same stack as `typewire serve` (Hummingbird 2 with Typewire's socket layer at `/v1/socket`: a
/// channel handler per socket on its event loop, frames written in batches by each loop's writer) with none
/// of its work: no token check, no store, no rate limits, no expiry. `hello` is answered with `welcome`,
/// `subscribe` joins a room and is answered with `subscribed`, and `activity` and `send` frames are
/// forwarded unchanged to everyone in their room, the sender included (as Typewire does), and so are bots'
/// `stream` parts (Typewire sends a bot's sockets its own parts too).
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
        let writers = LoopWriters()
        let router = Router()
        router.get("/healthz") { _, _ in "ok" }
        return Application(
            router: router,
            server: HTTPServerBuilder { responder in
                SocketChildChannel(
                    responder: responder, http1: .init(), maxFrameSize: 1 << 20,
                    shouldUpgrade: { head in head.uri == "/v1/socket" },
                    installSocket: { channel in
                        try channel.pipeline.syncOperations.addHandler(RelaySocketHandler(rooms: rooms, writers: writers))
                    }
                )
            },
            configuration: .init(address: .hostname(host, port: port), serverName: "typewire-relay", backlog: 4_096),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }
}

/// One socket of the relay, on its event loop: reads frames, forwards them.
final class RelaySocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame

    /// Just what the relay reads of a frame.
    private struct Envelope: Decodable {
        var type: String
        var conversation: String?
    }

    private static let welcome = OutboundFrame(text: #"{"type":"welcome"}"#)

    private let rooms: RelayRooms
    private let writers: LoopWriters
    private var sink: ChannelSink?
    private var assembler = MessageAssembler(maxSize: 1 << 20)
    private var joined: Set<String> = []

    init(rooms: RelayRooms, writers: LoopWriters) {
        self.rooms = rooms
        self.writers = writers
    }

    func handlerAdded(context: ChannelHandlerContext) {
        sink = ChannelSink(
            channel: context.channel, writer: writers.writer(for: context.eventLoop), maxHeldBytes: 4 << 20, closeTimeout: .seconds(3)
        )
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let sink { rooms.leave(sink, rooms: joined) }
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { context.close(promise: nil) }  // the peer is gone
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let sink else { return }
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .ping:
            sink.send(OutboundFrame(control: .pong, payload: frame.unmaskedData))
        case .connectionClose:
            sink.closeNow(code: .normalClosure, reason: "", waitForPeer: false)
            sink.closeAfterFlush()
        case .text, .binary, .continuation:
            guard case .message(.text(let text)) = assembler.take(opcode: frame.opcode, fin: frame.fin, data: frame.unmaskedData),
                let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(text.utf8))
            else { return }
            switch envelope.type {
            case "hello":
                sink.send(Self.welcome)
            case "subscribe":
                guard let room = envelope.conversation else { return }
                joined.insert(room)
                rooms.join(sink, room: room)
                sink.send(OutboundFrame(text: #"{"type":"subscribed","conversation":"\#(room)"}"#))
            case "activity", "send", "stream":
                guard let room = envelope.conversation, joined.contains(room) else { return }
                rooms.broadcast(OutboundFrame(text: text), to: room, except: envelope.type == "activity" ? sink : nil)
            default:
                return
            }
        default:
            return
        }
    }
}
