import NIOCore
import NIOWebSocket

/// How the socket answers a peer's close frame (RFC 6455 §5.5.1, §7.4): with the peer's status code when it
/// is one an endpoint may send, and with a protocol error (1002) when it is not: 1005, 1006 and 1015 are
/// for reports, never for the wire; codes below 1000, 1004, 1016-2999 (unassigned) and 5000 or more are not
/// codes. A reason that is not UTF-8 is answered with 1007. A pure function.
enum PeerClose {
    /// The close frame the socket answers with.
    struct Answer: Equatable {
        var code: WebSocketErrorCode
        var reason: String
    }

    /// The answer to a close frame carrying `payload` (unmasked).
    static func answer(to payload: ByteBuffer) -> Answer {
        var payload = payload
        guard payload.readableBytes > 0 else { return Answer(code: .normalClosure, reason: "") }
        guard let code = payload.readInteger(as: UInt16.self) else {
            return Answer(code: .protocolError, reason: "a close frame's status code takes two bytes")
        }
        guard mayBeSent(code) else { return Answer(code: .protocolError, reason: "close code \(code) may not be sent") }
        guard String(validating: payload.readableBytesView, as: UTF8.self) != nil else {
            return Answer(code: .dataInconsistentWithMessage, reason: "a close reason that is not UTF-8")
        }
        return Answer(code: WebSocketErrorCode(codeNumber: Int(code)), reason: "")
    }

    /// Whether a peer may send this status code in a close frame.
    static func mayBeSent(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
