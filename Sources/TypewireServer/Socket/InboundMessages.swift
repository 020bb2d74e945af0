import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

/// A socket's inbound messages, fragments joined, with text that is not UTF-8 kept apart rather than repaired.
///
/// HummingbirdWebSocket's own `messages(maxSize:)` turns such text into U+FFFD replacement characters (or,
/// with `validateUTF8`, ends the socket), so a frame that is not UTF-8 could pass as a valid one. Reading the
/// frames here lets the session answer it with `malformed_frame`, as docs/PROTOCOL.md says, and keep the socket.
struct InboundMessages {
    /// One whole message.
    enum Message {
        /// A text message in valid UTF-8.
        case text(String)
        /// A text message that is not valid UTF-8.
        case invalidText
        /// A binary message.
        case binary
    }

    private var frames: WebSocketInboundStream.AsyncIterator
    private let outbound: WebSocketOutboundWriter
    /// The largest message, fragments joined; a larger one closes the socket (1009). The session keeps it
    /// small until the socket has said hello.
    var maxSize: Int

    /// Reads the messages of `inbound`, closing the socket through `outbound` on a protocol error.
    /// - Parameter maxSize: The largest message, fragments joined; a larger one closes the socket (1009).
    init(_ inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, maxSize: Int) {
        self.frames = inbound.makeAsyncIterator()
        self.outbound = outbound
        self.maxSize = maxSize
    }

    /// The next message, or nil once the socket has closed or this reader has closed it.
    mutating func next() async throws -> Message? {
        guard let first = try await frames.next() else { return nil }
        var data = first.data
        var isFinal = first.fin
        guard data.readableBytes <= maxSize else {
            return try await close(.messageTooLarge, "a message is over \(maxSize) bytes")
        }
        while !isFinal {
            guard let frame = try await frames.next() else { return nil }
            guard frame.opcode == .continuation else {
                return try await close(.protocolError, "a message began before the last one ended")
            }
            guard data.readableBytes + frame.data.readableBytes <= maxSize else {
                return try await close(.messageTooLarge, "a message is over \(maxSize) bytes")
            }
            data.writeImmutableBuffer(frame.data)
            isFinal = frame.fin
        }
        switch first.opcode {
        case .text: return String(validating: data.readableBytesView, as: UTF8.self).map(Message.text) ?? .invalidText
        case .binary: return .binary
        case .continuation: return try await close(.protocolError, "a continuation frame began a message")
        }
    }

    private func close(_ code: WebSocketErrorCode, _ reason: String) async throws -> Message? {
        try await outbound.close(code, reason: reason)
        return nil
    }
}

extension InboundMessages {
    /// Moves a reader into the task that reads the socket from then on. The iterator of the WebSocket's
    /// inbound stream is not `Sendable`, but it is never used by two tasks: the session hands it over once,
    /// after `hello`, and does not touch it again.
    struct Handoff: @unchecked Sendable {
        let reader: InboundMessages
    }
}
