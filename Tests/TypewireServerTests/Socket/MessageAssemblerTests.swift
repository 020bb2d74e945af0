import NIOCore
import NIOWebSocket
import Testing

@testable import TypewireServer

@Suite("MessageAssembler: a socket's data frames joined into messages")
struct MessageAssemblerTests {
    @Test func fragmentsAreJoinedAcrossFramesAndTextThatIsNotUTF8IsKeptApart() {
        var assembler = MessageAssembler(maxSize: 100)
        #expect(assembler.take(opcode: .text, fin: false, data: ByteBuffer(string: "{\"type\":")) == .incomplete)
        #expect(
            assembler.take(opcode: .continuation, fin: true, data: ByteBuffer(string: "\"hello\"}"))
                == .message(.text("{\"type\":\"hello\"}")))
        #expect(assembler.take(opcode: .text, fin: true, data: ByteBuffer(bytes: [0xC3, 0x28])) == .message(.invalidText))
        #expect(assembler.take(opcode: .binary, fin: true, data: ByteBuffer(string: "x")) == .message(.binary))
    }

    @Test func aMessageOverTheLimitOrOutOfOrderClosesTheSocket() {
        var assembler = MessageAssembler(maxSize: 10)
        #expect(assembler.take(opcode: .text, fin: false, data: ByteBuffer(string: "123456")) == .incomplete)
        #expect(
            assembler.take(opcode: .continuation, fin: true, data: ByteBuffer(string: "78901"))
                == .close(.messageTooLarge, "a message is over 10 bytes"))
        #expect(
            assembler.take(opcode: .continuation, fin: true, data: ByteBuffer(string: "1"))
                == .close(.protocolError, "a continuation frame began a message"))
        #expect(assembler.take(opcode: .text, fin: false, data: ByteBuffer(string: "1")) == .incomplete)
        #expect(
            assembler.take(opcode: .text, fin: true, data: ByteBuffer(string: "2"))
                == .close(.protocolError, "a message began before the last one ended"))
    }

    @Test func aMessageInMoreThanItsFramesClosesTheSocketWhateverTheirSizes() {
        var assembler = MessageAssembler(maxSize: 1_000)
        #expect(assembler.take(opcode: .text, fin: false, data: ByteBuffer()) == .incomplete)
        for _ in 0..<(MessageAssembler.maxFragments - 2) {
            #expect(assembler.take(opcode: .continuation, fin: false, data: ByteBuffer()) == .incomplete)
        }
        #expect(
            assembler.take(opcode: .continuation, fin: true, data: ByteBuffer(string: "{}")) == .message(.text("{}")),
            "64 frames make a message")
        #expect(assembler.take(opcode: .text, fin: false, data: ByteBuffer()) == .incomplete, "the count starts again with a message")
        for _ in 0..<(MessageAssembler.maxFragments - 1) {
            #expect(assembler.take(opcode: .continuation, fin: false, data: ByteBuffer()) == .incomplete)
        }
        #expect(
            assembler.take(opcode: .continuation, fin: false, data: ByteBuffer())
                == .close(.policyViolation, "a message in more than 64 frames"))
        #expect(
            assembler.take(opcode: .text, fin: true, data: ByteBuffer(string: "{}")) == .message(.text("{}")),
            "and after a close, nothing is kept")
    }
}
