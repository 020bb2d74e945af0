import Foundation
import NIOWebSocket
import Testing
import TypewireCore
import TypewireFuzzing
import TypewireServer
import TypewireTesting

/// End to end: fuzzed and hostile frames on a real socket are each answered with an `error` frame, and the
/// socket stays usable; only a frame past the WebSocket layer's limit (64 KiB by default), or a broken fragment sequence,
/// ends it. (Plain bad frames and a frame over 16 KiB are in ``TypingOverSocketsTests`` and
/// ``MessagesAndStreamsTests``.)
@Suite("typewire serve: bad input over a real socket", .serialized, .timeLimit(.minutes(2)))
struct BadInputTests {
    static let direct = "direct-alice-bob"

    /// The error code the server answers a text frame's bytes with, or nil if the frame is valid.
    static func expectedCode(for bytes: [UInt8], maxFrameSize: Int) -> ErrorCode? {
        guard String(validating: bytes, as: UTF8.self) != nil else { return .malformedFrame }
        guard bytes.count <= maxFrameSize else { return .tooLarge }
        do {
            _ = try FrameCodec.decodeClientFrame(bytes)
            return nil
        } catch {
            return error.code
        }
    }

    /// The codes of the `error` frames a socket has received, in order.
    static func errorCodes(_ socket: TestSocket) async -> [ErrorCode] {
        await socket.received.compactMap { text in
            guard case .error(let failure)? = try? FrameCodec.decodeServerFrame(Data(text.utf8)) else { return nil }
            return failure.code
        }
    }

    /// Subscribes and waits for `subscribed`: the socket still works, and has answered every frame before.
    static func expectStillWorking(_ socket: TestSocket, within timeout: Duration = .seconds(5)) async throws {
        socket.send(.subscribe(.init(conversation: direct)))
        try await socket.next(within: timeout) { if case .subscribed = $0 { true } else { false } }
        #expect(await !socket.isClosed)
    }

    @Test func aThousandFuzzedFramesAreEachAnsweredWithTheirError() async throws {
        // Every bad frame answered: the budget of bad frames (100 at once, 10 a second) raised for the test.
        try await TestServer.run(configure: { $0.budgets.badFrames.burst = 100_000 }) { server in
            let alice = try await server.socket("alice")
            let seed = UInt64.random(in: 0...UInt64.max)
            var rng = SplitMix64(seed: seed)
            var sent: [(bytes: [UInt8], code: ErrorCode)] = []
            var valid = 0
            var tooLarge = 0
            // In windows of 32, each answered before the next goes: the breadth is the decoder's property
            // tests' (100 000 inputs); here each answer's path through a real socket, without queueing
            // thousands of frames in front of every other suite's sockets.
            while sent.count < 1_000 {
                let bytes = FrameFuzzer.input(using: &rng)
                guard bytes.count <= server.configuration.sockets.frameLimit else {
                    tooLarge += 1  // it would close the socket (1009): `aFramePastTheSocketLimitEndsTheSocket`
                    continue
                }
                guard let code = Self.expectedCode(for: bytes, maxFrameSize: server.configuration.sockets.maxFrameSize) else {
                    valid += 1  // a mutation that happens to be a valid frame is not sent: its answer depends on the hub
                    continue
                }
                alice.sendRaw(bytes)
                sent.append((bytes, code))
                if sent.count.isMultiple(of: 32) {
                    let answered = sent.count
                    try await eventually(within: .seconds(30)) { await alice.received.count > answered }  // `welcome`, then the errors
                }
            }
            try await eventually(within: .seconds(30)) { await alice.received.count > sent.count }
            try await Self.expectStillWorking(alice)
            let codes = await Self.errorCodes(alice)
            #expect(
                codes.count == sent.count,
                "one error frame per bad frame (seed \(seed), \(valid) valid inputs and \(tooLarge) over the socket's limit not sent)")
            if let index = zip(codes, sent).enumerated().first(where: { $0.element.0 != $0.element.1.code })?.offset {
                let bytes = sent[index].bytes
                Issue.record(
                    "frame \(index) got \(codes[index]), not \(sent[index].code) (seed \(seed)): \(bytes.count) bytes, \(bytes.prefix(120))"
                )
            }
        }
    }

    @Test func textThatIsNotUTF8IsMalformedAndTheSocketKeepsWorking() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            for sequence in HostileValues.invalidUTF8 {
                // Valid but for the sequence, which sits inside a string: repaired, it would pass as a subscribe.
                alice.sendRaw(Array(#"{"type":"subscribe","conversation":"\#(Self.direct)"#.utf8) + sequence + Array(#""}"#.utf8))
                let failure = try await alice.error()
                #expect(failure.code == .malformedFrame, "\(sequence)")
            }
            alice.sendRaw(Array(#"{"type":"subscribe","conversation":"direct-alice-bob"}"#.utf8), opcode: .binary)
            #expect(try await alice.error().code == .malformedFrame, "a binary frame")
            try await Self.expectStillWorking(alice)
        }
    }

    @Test func deepNestingAndOutOfRangeNumbersGetErrorsAndTheSocketKeepsWorking() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            let nested = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
            var cases: [(String, ErrorCode)] = [
                (#"{"type":"subscribe","conversation":\#(nested)}"#, .malformedFrame),
                (#"{"type":"subscribe","conversation":"c","extra":\#(nested)}"#, .malformedFrame),
                (String(repeating: #"{"a":"#, count: 2_000) + String(repeating: "}", count: 2_000), .malformedFrame),
                (String(repeating: "[", count: 10_000), .malformedFrame),
                // Foundation's JSONDecoder traps on a 513th nested "[" as the last byte: this frame crashed the server.
                (String(repeating: "[", count: 513), .malformedFrame),
                (#"{"type":"subscribe","conversation":"# + String(repeating: "[", count: 512), .malformedFrame),
            ]
            for number in HostileValues.numbers {
                cases.append((#"{"type":"subscribe","conversation":\#(number)}"#, .invalidField))
                cases.append((#"{"type":"stream","conversation":"c","messageId":"m","delta":"x","final":\#(number)}"#, .invalidField))
            }
            for (text, code) in cases {
                alice.sendRaw(text)
                #expect(try await alice.error().code == code, "\(text.prefix(80))")
            }
            try await Self.expectStillWorking(alice)
        }
    }

    @Test func theFrameLimitIsExact() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            let limit = server.configuration.sockets.maxFrameSize
            alice.sendRaw(String(repeating: " ", count: limit - 2) + "{}")
            #expect(try await alice.error().code == .malformedFrame, "a frame of exactly the limit is read")
            alice.sendRaw(String(repeating: " ", count: limit - 1) + "{}")
            #expect(try await alice.error().code == .tooLarge, "one byte more is refused")
            try await Self.expectStillWorking(alice)
        }
    }

    @Test func aFrameOverTheLimitIsAnsweredWithItsReference() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            // 5 000 characters, within the length limit; 20 000 bytes of UTF-8, past the frame's.
            let text = String(repeating: "😀", count: 5_000)
            alice.send(.send(.init(conversation: "direct-alice-bob", clientMessageId: "m-emoji", text: text)))
            let error = try await alice.error()
            #expect(error.code == .tooLarge && error.ref == "m-emoji" && error.request == "send", "\(error)")
            try await Self.expectStillWorking(alice)
        }
    }

    @Test func aMessageInFragmentsIsJoinedBeforeDecoding() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            // "ü" is two bytes: the cut falls inside it, so neither fragment is UTF-8 on its own.
            let bytes = Array(#"{"type":"subscribe","conversation":"ü"}"#.utf8)
            let cut = bytes.firstIndex(of: 0xC3)! + 1
            alice.sendRaw(Array(bytes[..<cut]), opcode: .text, fin: false)
            alice.sendRaw(Array(bytes[cut...]), opcode: .continuation)
            let failure = try await alice.error()
            #expect(failure.code == .unknownConversation, "decoded whole: \(failure.message)")
            try await Self.expectStillWorking(alice)
        }
    }

    @Test func aFramePastTheSocketLimitEndsTheSocket() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            alice.sendRaw(String(repeating: "x", count: server.configuration.sockets.frameLimit + 1))
            try await Self.expectClosed(alice, with: .messageTooLarge)
        }
    }

    @Test func fragmentsPastTheSocketLimitCloseTheSocketWith1009() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            let half = [UInt8](repeating: UInt8(ascii: "x"), count: server.configuration.sockets.frameLimit / 2)
            alice.sendRaw(half, opcode: .text, fin: false)
            alice.sendRaw(half, opcode: .continuation, fin: false)
            alice.sendRaw([UInt8(ascii: "x")], opcode: .continuation)
            try await Self.expectClosed(alice, with: .messageTooLarge)
        }
    }

    @Test func aStrayContinuationFrameClosesTheSocketWith1002() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            alice.sendRaw(Array("{}".utf8), opcode: .continuation)
            try await Self.expectClosed(alice, with: .protocolError)
        }
    }

    static func expectClosed(_ socket: TestSocket, with code: WebSocketErrorCode) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while await !socket.isClosed, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await socket.closeCode == code)
    }
}
