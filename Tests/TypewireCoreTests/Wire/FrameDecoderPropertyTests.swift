import Foundation
import PropertyBased
import Testing
import TypewireCore
import TypewireFuzzing

/// The client-frame decoder on fuzzed input: it never traps, and answers every input with a frame that
/// round-trips or with a typed, readable error (see ``DecoderContract``).
///
/// One run decodes 100 000 random inputs (4 sources × 25 000), plus a fixed sweep of every hostile value in
/// every field of every frame type (about 3 600 more). A failure names the input and a seed that replays it.
/// The tests run one at a time, so that they take one core and the timing tests of other suites keep one.
@Suite("Frame decoder: fuzzed input", .serialized)
struct FrameDecoderPropertyTests {
    /// Random inputs per source.
    static let inputsPerSource = 25_000

    @Test(arguments: FuzzSource.allCases)
    func anyInputDecodesToAFrameOrATypedError(source: FuzzSource) async {
        let inputs = Generator { rng in FrameFuzzer.input(from: source, using: &rng) }
        var tally = OutcomeTally()
        await propertyCheck(count: Self.inputsPerSource, input: inputs) { bytes in
            tally.add(DecoderContract.check(bytes))
            // The checks never suspend: yield now and then, so that other suites' tasks get the shared threads.
            if tally.total.isMultiple(of: 64) { await Task.yield() }
        }
        #expect(tally.total == Self.inputsPerSource, "\(tally)")
        // The mutations reach past the JSON parser: into the type, and into the fields.
        if source == .byteMutation || source == .fieldMutation {
            for outcome in [.decoded, .refused(.malformedFrame), .refused(.unknownType), .refused(.invalidField)]
                as [DecoderContract.Outcome]
            {
                #expect(tally.counts[outcome, default: 0] > 0, "no input \(outcome): \(tally)")
            }
        }
    }

    @Test func everyHostileValueInEveryFieldOfEveryFrameType() async {
        var tally = OutcomeTally()
        for bytes in FrameFuzzer.hostileSweep() {
            tally.add(DecoderContract.check(bytes))
            if tally.total.isMultiple(of: 64) { await Task.yield() }
        }
        #expect(tally.total > 3_000, "\(tally)")
    }

    @Test(arguments: HostileValues.numbers)
    func outOfRangeNumbersInAFrameAreInvalidFields(number: String) throws {
        for json in [
            #"{"type":"subscribe","conversation":\#(number)}"#,
            #"{"type":"stream","conversation":"c","messageId":"m","delta":"x","final":\#(number)}"#,
            #"{"type":\#(number),"conversation":"c"}"#,
        ] {
            let error = #expect(throws: FrameDecodingError.self) { try FrameCodec.decodeClientFrame(Data(json.utf8)) }
            #expect(error?.code == (json.hasPrefix(#"{"type":""#) ? .invalidField : .malformedFrame), "\(json.prefix(80))")
        }
        let ignored = #"{"type":"subscribe","conversation":"c","extra":\#(number)}"#
        #expect(try FrameCodec.decodeClientFrame(Data(ignored.utf8)) == .subscribe(.init(conversation: "c")), "an unknown field is ignored")
    }

    /// Foundation checks a number's syntax only when a field reads it, so "01" or "1e" reach the field.
    @Test(arguments: HostileValues.numberLike)
    func numberLikeTextIsMalformedOrAnInvalidField(text: String) {
        let json = #"{"type":"subscribe","conversation":\#(text)}"#
        let error = #expect(throws: FrameDecodingError.self) { try FrameCodec.decodeClientFrame(Data(json.utf8)) }
        #expect(error?.code == .malformedFrame || error?.code == .invalidField)
    }

    @Test(arguments: HostileValues.invalidUTF8)
    func invalidUTF8AnywhereIsMalformed(sequence: [UInt8]) {
        let frame = Array(#"{"type":"send","conversation":"c","clientMessageId":"m","text":"ab"}"#.utf8)
        for position in [1, 9, frame.count - 3, frame.count] {  // between tokens, in the type, in a value, after the object
            var bytes = frame
            bytes.insert(contentsOf: sequence, at: position)
            let error = #expect(throws: FrameDecodingError.self) { try FrameCodec.decodeClientFrame(bytes) }
            #expect(error?.code == .malformedFrame, "\(DecoderContract.describe(bytes))")
        }
    }

    @Test func aOneMebibyteStringDecodes() throws {
        let text = String(repeating: "ü", count: 1 << 19)
        let json = #"{"type":"send","conversation":"c","clientMessageId":"m","text":"\#(text)"}"#
        #expect(try FrameCodec.decodeClientFrame(Data(json.utf8)) == .send(.init(conversation: "c", clientMessageId: "m", text: text)))
    }
}
