import NIOCore
import NIOWebSocket
import Testing

@testable import TypewireServer

@Suite("PeerClose: the answer to a peer's close frame")
struct PeerCloseTests {
    static func payload(_ code: UInt16, _ reason: [UInt8] = []) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeInteger(code)
        buffer.writeBytes(reason)
        return buffer
    }

    @Test func aCodeAPeerMaySendIsEchoed() {
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 4000, 4999] {
            #expect(PeerClose.answer(to: Self.payload(code, Array("bye".utf8))).code == WebSocketErrorCode(codeNumber: Int(code)))
        }
        #expect(PeerClose.answer(to: ByteBuffer()) == .init(code: .normalClosure, reason: ""), "no code: a normal closure")
    }

    @Test func aCodeThatMayNotBeOnTheWireIsAProtocolError() {
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65_535] {
            #expect(PeerClose.answer(to: Self.payload(code)) == .init(code: .protocolError, reason: "close code \(code) may not be sent"))
        }
        #expect(PeerClose.answer(to: ByteBuffer(bytes: [0x03])).code == .protocolError, "one byte is no code")
    }

    @Test func aReasonThatIsNotUTF8IsAnsweredWith1007() {
        #expect(PeerClose.answer(to: Self.payload(1000, [0xC3, 0x28])).code == .dataInconsistentWithMessage)
    }
}
