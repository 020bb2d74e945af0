import Testing
import TypewireCore

/// What the client-frame decoder promises for any bytes, checked one input at a time.
///
/// It never traps, and either decodes a frame that survives encoding and decoding again unchanged, or throws
/// a ``FrameDecodingError`` whose code is `malformed_frame`, `unknown_type` or `invalid_field` and whose message
/// is not empty. Text read by the server's path (``FrameCodec/decodeClientFrame(text:)``, which reads plain
/// `activity` frames itself) gets the same answer as the bytes. A breach is recorded as an issue naming the input.
enum DecoderContract {
    /// What the decoder made of an input.
    enum Outcome: Hashable, CustomStringConvertible {
        case decoded
        case refused(ErrorCode)

        var description: String {
            switch self {
            case .decoded: "decoded"
            case .refused(let code): code.rawValue
            }
        }
    }

    /// The codes a decoding failure may have.
    static let codes: Set<ErrorCode> = [.malformedFrame, .unknownType, .invalidField]

    /// Decodes `bytes` and checks the contract.
    @discardableResult
    static func check(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Outcome {
        let decoded = Result { () throws(FrameDecodingError) in try FrameCodec.decodeClientFrame(bytes) }
        if let text = String(validating: bytes, as: UTF8.self) {
            let read = Result { () throws(FrameDecodingError) in try FrameCodec.decodeClientFrame(text: text) }
            if read != decoded {
                Issue.record("the text path read \(read), the bytes \(decoded), for \(describe(bytes))", sourceLocation: sourceLocation)
            }
        }
        let frame: ClientFrame
        do {
            frame = try decoded.get()
        } catch {
            if !codes.contains(error.code) || error.description.isEmpty {
                Issue.record("code \(error.code), message '\(error)' for \(describe(bytes))", sourceLocation: sourceLocation)
            }
            return .refused(error.code)
        }
        let again = Result { () throws(FrameDecodingError) in try FrameCodec.decodeClientFrame(FrameCodec.encode(frame)) }
        if again != .success(frame) {
            Issue.record("\(frame) decoded from \(describe(bytes)) came back as \(again)", sourceLocation: sourceLocation)
        }
        return .decoded
    }

    /// An input as text where it is UTF-8, else as its first bytes in hex, cut to a readable length.
    static func describe(_ bytes: [UInt8]) -> String {
        let text =
            String(validating: bytes, as: UTF8.self).map { "'\($0.prefix(300))'" }
            ?? bytes.prefix(200).map { String($0, radix: 16) }.joined(separator: " ")
        return "\(bytes.count) bytes: \(text)"
    }
}

/// How many inputs had each outcome.
struct OutcomeTally: CustomStringConvertible {
    private(set) var counts: [DecoderContract.Outcome: Int] = [:]

    /// All inputs counted.
    var total: Int { counts.values.reduce(0, +) }

    /// Counts one input.
    mutating func add(_ outcome: DecoderContract.Outcome) {
        counts[outcome, default: 0] += 1
    }

    var description: String {
        counts.sorted { $0.value > $1.value }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }
}
