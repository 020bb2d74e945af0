import NIOCore
import Testing
import TypewireNATS

/// The decoder on what NATS servers send, whole and cut anywhere.
@Suite("NATS decoder")
struct NATSMessageDecoderTests {
    /// Decodes everything a buffer holds.
    static func decodeAll(_ bytes: String, decoder: NATSMessageDecoder = NATSMessageDecoder()) throws -> [NATSServerMessage] {
        var decoder = decoder
        var buffer = ByteBuffer(string: bytes)
        var messages: [NATSServerMessage] = []
        while let message = try decoder.decode(buffer: &buffer) { messages.append(message) }
        return messages
    }

    @Test func aMessageWhosePayloadHoldsCRLFIsReadByItsByteCount() throws {
        let messages = try Self.decodeAll("MSG typewire.c.a 7 11\r\nhi\r\nthere\r\n\r\nPING\r\n")
        #expect(
            messages == [
                .message(NATSMessage(subject: "typewire.c.a", subscription: 7, payload: ByteBuffer(string: "hi\r\nthere\r\n"))), .ping,
            ])
    }

    @Test func aMessageWithAReplySubjectAndAnEmptyPayload() throws {
        #expect(
            try Self.decodeAll("MSG a.b 1 _INBOX.x 0\r\n\r\n")
                == [.message(NATSMessage(subject: "a.b", subscription: 1, replyTo: "_INBOX.x", payload: ByteBuffer()))])
    }

    @Test func controlLinesInAnyCaseAndWithExtraBlanks() throws {
        #expect(
            try Self.decodeAll("ping\r\nPONG\r\n+OK\r\n-ERR 'Authorization Violation'\r\nmsg  s \t 2  3\r\nabc\r\n") == [
                .ping, .pong, .ok, .error("Authorization Violation"),
                .message(NATSMessage(subject: "s", subscription: 2, payload: ByteBuffer(string: "abc"))),
            ])
    }

    @Test func infoIsDecodedAndUnknownFieldsIgnored() throws {
        let line = #"INFO {"server_id":"N1","version":"2.9.10","max_payload":1048576,"connect_urls":["127.0.0.1:4223"],"ldm":true}"#
        let messages = try Self.decodeAll(line + "\r\n")
        #expect(messages == [.info(NATSServerInfo(serverID: "N1", connectURLs: ["127.0.0.1:4223"], lameDuckMode: true))])
    }

    @Test func nothingIsConsumedUntilAWholeMessageIsThere() throws {
        var decoder = NATSMessageDecoder()
        var buffer = ByteBuffer(string: "MSG s 1 5\r\nab")
        #expect(try decoder.decode(buffer: &buffer) == nil)
        #expect(buffer.readableBytes == 13, "the header stays for the next read")
        buffer.writeString("cde\r")
        #expect(try decoder.decode(buffer: &buffer) == nil, "the payload's CRLF is not whole yet")
        buffer.writeString("\n")
        #expect(
            try decoder.decode(buffer: &buffer)
                == .message(NATSMessage(subject: "s", subscription: 1, payload: ByteBuffer(string: "abcde"))))
        #expect(buffer.readableBytes == 0)
    }

    @Test(arguments: [
        "HELLO\r\n", "MSG s 1\r\n", "MSG s x 3\r\nabc\r\n", "MSG s 1 -3\r\n", "MSG s 1 3\r\nabcd\r\n", "PING x\r\n", "INFO {\r\n", "PING\n",
        "MSG s 1 99999999999999999999\r\n",
    ])
    func linesThatAreNotTheProtocolAreErrors(bytes: String) {
        #expect(throws: NATSProtocolError.self) { try Self.decodeAll(bytes) }
    }

    @Test func theLineAndThePayloadAreBounded() {
        let decoder = NATSMessageDecoder(maxControlLine: 64, maxPayload: 100)
        #expect(throws: NATSProtocolError.controlLineTooLong(limit: 64)) {
            try Self.decodeAll(String(repeating: "x", count: 65), decoder: decoder)
        }
        #expect(throws: NATSProtocolError.controlLineTooLong(limit: 64)) {
            try Self.decodeAll("MSG " + String(repeating: "x", count: 70) + " 1 1\r\nx\r\n", decoder: decoder)
        }
        #expect(throws: NATSProtocolError.payloadTooLarge(bytes: 101, limit: 100)) {
            try Self.decodeAll("MSG s 1 101\r\n", decoder: decoder)
        }
    }
}
