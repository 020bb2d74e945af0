import NIOCore
import NIOWebSocket
import TypewireCore

/// One frame from the server, ready for the wire: a whole WebSocket frame (header and payload, unmasked, as
/// a server sends it), encoded once and shared by every socket it goes to. Writing it to a channel copies
/// nothing: each socket's write holds a reference to the same bytes.
///
/// NIOWebSocket's `WebSocketFrameEncoder` writes a header of its own for every frame on every socket (an
/// allocation and a second buffer per delivery); a fan-out of one update to many sockets needs the header
/// written once, so the few bytes of RFC 6455 §5.2 framing are written here.
public struct OutboundFrame: Sendable {
    /// The frame's bytes on the wire.
    public let bytes: ByteBuffer
    /// For a part of a bot's reply, the part itself: a socket that reads slowly merges the parts waiting for
    /// it (``HeldFrames``). Nil for every other frame.
    package let replyPart: ReplyPart?

    /// A text frame carrying `text`.
    public init(text: String) {
        self.init(opcode: .text, payloadSize: text.utf8.count) { $0.writeString(text) }
    }

    /// A text frame carrying `utf8`, which must be valid UTF-8 (``FrameCodec/encodeUTF8(_:)``'s bytes).
    public init(utf8: [UInt8]) {
        self.init(opcode: .text, payloadSize: utf8.count) { $0.writeBytes(utf8) }
    }

    /// A `stream` frame: the part's JSON, and the part.
    package init(part: ServerFrame.StreamDelta) {
        let utf8 = FrameCodec.encodeUTF8(.stream(part))
        self.init(opcode: .text, payloadSize: utf8.count, replyPart: ReplyPart(part)) { $0.writeBytes(utf8) }
    }

    /// A close frame with a status code and a reason (cut to the 123 bytes a control frame has room for).
    init(closeCode code: WebSocketErrorCode, reason: String) {
        let reason = Self.prefix(of: reason, maxBytes: 123)
        self.init(opcode: .connectionClose, payloadSize: 2 + reason.utf8.count) {
            $0.write(webSocketErrorCode: code)
            $0.writeString(reason)
        }
    }

    /// A control frame (ping or pong) carrying `payload`.
    package init(control opcode: WebSocketOpcode, payload: ByteBuffer) {
        self.init(opcode: opcode, payloadSize: payload.readableBytes) { $0.writeImmutableBuffer(payload) }
    }

    private init(opcode: WebSocketOpcode, payloadSize: Int, replyPart: ReplyPart? = nil, writePayload: (inout ByteBuffer) -> Void) {
        var buffer = ByteBufferAllocator().buffer(capacity: 10 + payloadSize)
        buffer.writeInteger(0x80 | UInt8(webSocketOpcode: opcode))  // FIN, no extensions
        switch payloadSize {
        case ..<126:
            buffer.writeInteger(UInt8(payloadSize))
        case ...Int(UInt16.max):
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(payloadSize))
        default:
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(payloadSize))
        }
        writePayload(&buffer)
        bytes = buffer
        self.replyPart = replyPart
    }

    /// The payload's text (for a text frame): what a client reads.
    public var text: String {
        var view = bytes
        guard let length = view.getInteger(at: view.readerIndex + 1, as: UInt8.self) else { return "" }
        let header =
            switch length & 0x7F {
            case 126: 4
            case 127: 10
            default: 2
            }
        view.moveReaderIndex(forwardBy: header)
        return String(buffer: view)
    }

    /// The frame's size on the wire.
    public var byteCount: Int { bytes.readableBytes }

    /// The longest prefix of `text` within `maxBytes` of UTF-8 that does not split a character.
    private static func prefix(of text: String, maxBytes: Int) -> String {
        guard text.utf8.count > maxBytes else { return text }
        var result = ""
        for character in text {
            guard result.utf8.count + character.utf8.count <= maxBytes else { break }
            result.append(character)
        }
        return result
    }
}

/// A part of a bot's reply that an ``OutboundFrame`` carries beside its bytes (a reference: the frame is
/// copied once per socket of a fan-out, the part is not).
package final class ReplyPart: Sendable {
    /// The part.
    package let delta: ServerFrame.StreamDelta

    init(_ delta: ServerFrame.StreamDelta) {
        self.delta = delta
    }
}
