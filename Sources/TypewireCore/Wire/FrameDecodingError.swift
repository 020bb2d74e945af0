/// Why a frame could not be decoded, with a message a person can act on.
public struct FrameDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Reason: Hashable, Sendable {
        case notJSON
        case notAnObject
        case missingType
        case unknownType(String)
        case missingField(String)
        case invalidField(String)
    }

    private let reason: Reason
    /// The frame's type, when it could be read.
    public let frameType: String?

    private init(_ reason: Reason, frameType: String? = nil) {
        self.reason = reason
        self.frameType = frameType
    }

    /// The bytes are not valid UTF-8 JSON.
    public static let notJSON = Self(.notJSON)
    /// The JSON is valid but not an object.
    public static let notAnObject = Self(.notAnObject)
    /// The object has no string field `type`.
    public static let missingType = Self(.missingType)
    /// The `type` names no known frame.
    public static func unknownType(_ type: String) -> Self { Self(.unknownType(type), frameType: type) }
    /// A required field is absent.
    public static func missingField(_ field: String, in type: String?) -> Self { Self(.missingField(field), frameType: type) }
    /// A field has the wrong JSON type or an impossible value.
    public static func invalidField(_ field: String, in type: String?) -> Self { Self(.invalidField(field), frameType: type) }

    /// The `error` frame code that answers this failure.
    public var code: ErrorCode {
        switch reason {
        case .notJSON, .notAnObject, .missingType: .malformedFrame
        case .unknownType: .unknownType
        case .missingField, .invalidField: .invalidField
        }
    }

    public var description: String {
        let frame = frameType.map { "'\($0)' frame" } ?? "frame"
        switch reason {
        case .notJSON: return "The frame is not valid UTF-8 JSON; send one JSON object per text frame."
        case .notAnObject: return "The frame is JSON but not an object; send an object with a \"type\" field."
        case .missingType: return "The frame has no string field \"type\"; add one, e.g. {\"type\":\"subscribe\",...}."
        case .unknownType(let type):
            let known = ClientFrame.typeNames.joined(separator: ", ")
            return "Unknown frame type '\(type.prefix(64))'; expected one of: \(known)."
        case .missingField(let field): return "The \(frame) lacks the required field \"\(field)\"."
        case .invalidField(let field): return "The \(frame) has an invalid value in field \"\(field)\"."
        }
    }
}
