import NIOCore
import PropertyBased
import Testing
import TypewireNATS

/// The decoder on random input: a valid stream cut into random reads decodes to the same messages; random
/// bytes decode to messages or a ``NATSProtocolError``, never a trap, and never hold more than the bounds.
@Suite("NATS decoder: fuzzed input", .serialized)
struct NATSMessageDecoderPropertyTests {
    static let runs = 2_000

    /// A random stream of what a server sends, with payloads of random bytes (CRLF among them).
    static func stream(using rng: inout some RandomNumberGenerator) -> (bytes: [UInt8], messages: [NATSServerMessage]) {
        var bytes: [UInt8] = []
        var messages: [NATSServerMessage] = []
        for _ in 0..<Int.random(in: 1...12, using: &rng) {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0:
                bytes += Array("PING\r\n".utf8)
                messages.append(.ping)
            case 1:
                bytes += Array("PONG\r\n".utf8)
                messages.append(.pong)
            case 2:
                bytes += Array("-ERR 'Stale Connection'\r\n".utf8)
                messages.append(.error("Stale Connection"))
            default:
                let payload = (0..<Int.random(in: 0...300, using: &rng)).map { _ in
                    Bool.random(using: &rng) ? [13, 10].randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
                }
                let subject = "typewire.c." + String(Int.random(in: 0...999, using: &rng))
                let sid = Int.random(in: 1...100_000, using: &rng)
                bytes += Array("MSG \(subject) \(sid) \(payload.count)\r\n".utf8) + payload + [13, 10]
                messages.append(.message(NATSMessage(subject: subject, subscription: sid, payload: ByteBuffer(bytes: payload))))
            }
        }
        return (bytes, messages)
    }

    @Test func aStreamCutIntoRandomReadsDecodesToTheSameMessages() async {
        let inputs = Generator { rng in
            let stream = Self.stream(using: &rng)
            let cuts = (0..<Int.random(in: 0...8, using: &rng)).map { _ in Int.random(in: 0...stream.bytes.count, using: &rng) }.sorted()
            return (stream, cuts)
        }
        await propertyCheck(count: Self.runs, input: inputs) { input in
            let (stream, cuts) = input
            var decoder = NATSMessageDecoder()
            var buffer = ByteBuffer()
            var decoded: [NATSServerMessage] = []
            var start = 0
            for end in cuts + [stream.bytes.count] {
                buffer.writeBytes(stream.bytes[start..<end])
                start = end
                do {
                    while let message = try decoder.decode(buffer: &buffer) { decoded.append(message) }
                } catch {
                    Issue.record("a valid stream was refused: \(error)")
                    return
                }
            }
            #expect(decoded == stream.messages)
            #expect(buffer.readableBytes == 0)
        }
    }

    @Test func randomBytesDecodeToMessagesOrAProtocolErrorWithinTheBounds() async {
        let inputs = Generator { rng in
            var stream = Self.stream(using: &rng).bytes
            for _ in 0..<Int.random(in: 1...6, using: &rng) where !stream.isEmpty {
                let at = Int.random(in: 0..<stream.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: stream[at] = UInt8.random(in: 0...255, using: &rng)
                case 1: stream.remove(at: at)
                default: stream.insert(contentsOf: Array("MSG s 1 ".utf8), at: at)
                }
            }
            return stream
        }
        await propertyCheck(count: Self.runs, input: inputs) { bytes in
            var decoder = NATSMessageDecoder(maxControlLine: 512, maxPayload: 400)
            var buffer = ByteBuffer(bytes: bytes)
            do {
                while try decoder.decode(buffer: &buffer) != nil {}
                // What is left waits for more: at most a line of the bound, or a message's header and payload.
                #expect(buffer.readableBytes <= 512 + 400 + 2 + 512)
            } catch {
                #expect(error is NATSProtocolError)
            }
        }
    }
}
