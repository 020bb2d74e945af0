import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import TypewireServer

@Suite("OutboundFrame: a server frame encoded once, as NIOWebSocket's decoder reads it")
struct OutboundFrameTests {
    @Test(arguments: [0, 125, 126, 65_535, 65_536, 100_000])
    func aTextFrameOfAnyLengthDecodesToItsText(length: Int) throws {
        let text = String(repeating: "é", count: length / 2) + String(repeating: "a", count: length % 2)
        let frame = OutboundFrame(text: text)
        #expect(frame.text == text)
        let decoded = try decode(frame.bytes)
        #expect(decoded.opcode == .text && decoded.fin && decoded.maskKey == nil)
        #expect(String(buffer: decoded.data) == text)
    }

    @Test func aCloseFrameCarriesItsCodeAndAReasonCutToFit() throws {
        let frame = OutboundFrame(closeCode: .goingAway, reason: String(repeating: "ü", count: 100))
        var decoded = try decode(frame.bytes)
        #expect(decoded.opcode == .connectionClose)
        #expect(decoded.data.readWebSocketErrorCode() == .goingAway)
        #expect(decoded.data.readableBytes <= 123 && String(buffer: decoded.data) == String(repeating: "ü", count: 61))
    }

    /// Reads one frame with NIOWebSocket's own decoder.
    private func decode(_ bytes: ByteBuffer) throws -> WebSocketFrame {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)))
        try channel.writeInbound(bytes)
        return try #require(try channel.readInbound(as: WebSocketFrame.self))
    }
}
