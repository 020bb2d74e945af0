import Foundation
import NIOCore

/// Splits what a NATS server sends into ``NATSServerMessage``s: a protocol line ended by CRLF, and for
/// `MSG` a payload of the byte count the line gives (the payload may hold CRLF), then CRLF.
///
/// Both parts are bounded: a line longer than ``maxControlLine`` before its CRLF, or a payload longer than
/// ``maxPayload``, is a ``NATSProtocolError`` (the connection is closed), so a broken or hostile server
/// cannot make the client buffer without limit. Bytes are consumed only once a whole message is there.
public struct NATSMessageDecoder: NIOSingleStepByteToMessageDecoder {
    public typealias InboundOut = NATSServerMessage

    /// The longest protocol line accepted (NATS servers' own default is 4 KiB for clients' lines).
    public let maxControlLine: Int
    /// The largest payload accepted (NATS servers default to 1 MiB).
    public let maxPayload: Int

    /// A decoder with these bounds.
    public init(maxControlLine: Int = 16 * 1024, maxPayload: Int = 8 * 1024 * 1024) {
        self.maxControlLine = maxControlLine
        self.maxPayload = maxPayload
    }

    public mutating func decode(buffer: inout ByteBuffer) throws -> NATSServerMessage? {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            if view.count > maxControlLine { throw NATSProtocolError.controlLineTooLong(limit: maxControlLine) }
            return nil
        }
        let lineLength = newline - view.startIndex
        guard lineLength <= maxControlLine else { throw NATSProtocolError.controlLineTooLong(limit: maxControlLine) }
        guard lineLength > 0, view[newline - 1] == UInt8(ascii: "\r") else {
            throw NATSProtocolError.malformed(String(decoding: view[view.startIndex..<newline], as: UTF8.self))
        }
        let line = view[view.startIndex..<(newline - 1)]
        let consumed = lineLength + 1
        let (operation, rest) = Self.split(line)
        let message: NATSServerMessage
        var extra = 0
        switch operation.uppercased() {
        case "MSG":
            let (header, size) = try messageHeader(rest, line: line)
            // The payload and its CRLF must be there before anything is consumed.
            guard buffer.readableBytes >= consumed + size + 2 else { return nil }
            let payloadStart = buffer.readerIndex + consumed
            guard buffer.getInteger(at: payloadStart + size, as: UInt16.self) == 0x0D0A else {
                throw NATSProtocolError.malformed("MSG payload of \(size) bytes is not followed by CRLF")
            }
            let payload = buffer.getSlice(at: payloadStart, length: size) ?? ByteBuffer()
            message = .message(NATSMessage(subject: header.subject, subscription: header.sid, replyTo: header.replyTo, payload: payload))
            extra = size + 2
        case "PING" where rest.isEmpty: message = .ping
        case "PONG" where rest.isEmpty: message = .pong
        case "+OK" where rest.isEmpty: message = .ok
        case "-ERR": message = .error(Self.unquoted(rest))
        case "INFO":
            guard let info = try? JSONDecoder().decode(NATSServerInfo.self, from: Data(rest)) else {
                throw NATSProtocolError.malformed(String(decoding: line, as: UTF8.self))
            }
            message = .info(info)
        default:
            throw NATSProtocolError.malformed(String(decoding: line, as: UTF8.self))
        }
        buffer.moveReaderIndex(forwardBy: consumed + extra)
        return message
    }

    public mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws -> NATSServerMessage? {
        try decode(buffer: &buffer)
    }

    /// `MSG <subject> <sid> [reply-to] <#bytes>`'s fields.
    private func messageHeader(_ rest: ByteBufferView, line: ByteBufferView) throws -> (
        (subject: String, sid: Int, replyTo: String?), Int
    ) {
        let fields = rest.split(whereSeparator: Self.isBlank)
        guard fields.count == 3 || fields.count == 4, let sid = Self.number(fields[1]), let size = Self.number(fields[fields.count - 1])
        else { throw NATSProtocolError.malformed(String(decoding: line, as: UTF8.self)) }
        guard size <= maxPayload else { throw NATSProtocolError.payloadTooLarge(bytes: size, limit: maxPayload) }
        let replyTo = fields.count == 4 ? String(decoding: fields[2], as: UTF8.self) : nil
        return ((String(decoding: fields[0], as: UTF8.self), sid, replyTo), size)
    }

    /// A line's operation and what follows it (blanks around it dropped).
    private static func split(_ line: ByteBufferView) -> (String, ByteBufferView) {
        let end = line.firstIndex(where: isBlank) ?? line.endIndex
        var rest = line[end...]
        while let first = rest.first, isBlank(first) { rest = rest.dropFirst() }
        while let last = rest.last, isBlank(last) { rest = rest.dropLast() }
        return (String(decoding: line[..<end], as: UTF8.self), rest)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// A non-negative decimal of at most 18 digits (so it cannot overflow), or nil.
    private static func number(_ digits: ByteBufferView) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// `-ERR 'reason'`'s reason, without its quotes.
    private static func unquoted(_ text: ByteBufferView) -> String {
        var reason = String(decoding: text, as: UTF8.self)
        if reason.count >= 2, reason.hasPrefix("'"), reason.hasSuffix("'") { reason = String(reason.dropFirst().dropLast()) }
        return reason
    }
}
