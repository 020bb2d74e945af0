import Foundation
import Hummingbird

extension Request {
    /// Decodes a JSON body of at most `limit` bytes, answering 400 for anything else.
    ///
    /// Foundation's JSONDecoder (Swift 6.3, Linux) traps, rather than throws, on a text whose last byte is
    /// a 513th nested "[": such a body is refused before it reaches the decoder (no JSON text ends with "[").
    func decodeJSON<Value: Decodable>(as type: Value.Type, limit: Int = 64 * 1_024) async throws -> Value {
        let buffer = try await body.collect(upTo: limit)
        let data = Data(buffer.readableBytesView)
        let last = data.last { ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains($0) }
        guard last != UInt8(ascii: "[") else { throw HTTPError(.badRequest, message: "The body is not valid JSON.") }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch let error as DecodingError {
            throw HTTPError(.badRequest, message: Self.describe(error))
        } catch {
            throw HTTPError(.badRequest, message: "The body is not the JSON this route expects: \(error)")
        }
    }

    /// Which field of the body is wrong, and how.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "The body has no \"\(path(context.codingPath + [key]))\"."
        case .valueNotFound(_, let context):
            return "\"\(path(context.codingPath))\" cannot be null."
        case .typeMismatch(let type, let context):
            let name = String(describing: type)
            let expected =
                type == String.self
                ? "a string"
                : type == Bool.self
                    ? "true or false"
                    : name.hasPrefix("Array") ? "a list" : name.hasPrefix("Dictionary") ? "an object" : "a number"
            return context.codingPath.isEmpty
                ? "The body must be a JSON object."
                : "\"\(path(context.codingPath))\" must be \(expected)."
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "The body is not valid JSON."
                : "\"\(path(context.codingPath))\" has a value this route does not take: \(context.debugDescription)"
        @unknown default:
            return "The body is not the JSON this route expects."
        }
    }
}
