import NIOCore
import NIOWebSocket

/// Joins a socket's data frames into whole messages, with text that is not UTF-8 kept apart rather than
/// repaired, so that such a frame is answered with `malformed_frame` and the socket kept (docs/PROTOCOL.md).
/// Control frames (ping, pong, close) are the socket handler's; they may come between fragments.
///
/// A pure value: one frame in, what to do out.
package struct MessageAssembler {
    /// One whole message.
    package enum Message: Equatable {
        /// A text message in valid UTF-8.
        case text(String)
        /// A text message that is not valid UTF-8.
        case invalidText
        /// A binary message.
        case binary
    }

    /// What a data frame led to.
    package enum Outcome: Equatable {
        /// A message is complete.
        case message(Message)
        /// A fragment was kept; the message goes on.
        case incomplete
        /// The peer broke the protocol or the size limit: close the socket with this code.
        case close(WebSocketErrorCode, String)
    }

    /// The largest message, fragments joined; a larger one closes the socket (1009). The socket keeps it
    /// small until the socket has said hello.
    package var maxSize: Int
    /// The most frames one message may come in: past it the socket is closed (1008), whatever their sizes
    /// (empty fragments cost the server a frame's work each and carry nothing).
    package static let maxFragments = 64
    /// The frames of the message coming so far.
    private var fragmentCount = 0
    /// The first frame's opcode of a message whose fragments are coming.
    private var opcode: WebSocketOpcode?
    /// The fragments so far (nil between messages: an idle socket holds no buffer).
    private var fragments: ByteBuffer?

    package init(maxSize: Int) {
        self.maxSize = maxSize
    }

    /// Takes a data frame (text, binary or continuation), unmasked.
    package mutating func take(opcode frameOpcode: WebSocketOpcode, fin: Bool, data: ByteBuffer) -> Outcome {
        switch (frameOpcode, opcode) {
        case (.continuation, nil):
            return .close(.protocolError, "a continuation frame began a message")
        case (.continuation, _):
            break
        case (_, nil):
            opcode = frameOpcode
        default:
            return .close(.protocolError, "a message began before the last one ended")
        }
        guard (fragments?.readableBytes ?? 0) + data.readableBytes <= maxSize else {
            reset()
            return .close(.messageTooLarge, "a message is over \(maxSize) bytes")
        }
        fragmentCount += 1
        guard fragmentCount <= Self.maxFragments else {
            reset()
            return .close(.policyViolation, "a message in more than \(Self.maxFragments) frames")
        }
        var whole = data
        if var joined = fragments {
            fragments = nil  // `joined` the only reference: written in place
            joined.writeBuffer(&whole)
            whole = joined
        }
        guard fin else {
            fragments = whole
            return .incomplete
        }
        let first = opcode
        opcode = nil
        fragmentCount = 0
        guard first == .text else { return .message(.binary) }
        return .message(String(validating: whole.readableBytesView, as: UTF8.self).map(Message.text) ?? .invalidText)
    }

    private mutating func reset() {
        opcode = nil
        fragments = nil
        fragmentCount = 0
    }
}
