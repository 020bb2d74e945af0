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
        } catch {
            throw HTTPError(.badRequest, message: "The body is not the JSON this route expects: \(error)")
        }
    }
}
