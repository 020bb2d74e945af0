import Foundation

/// The `type` field shared by every frame.
enum FrameType {
    private enum CodingKeys: String, CodingKey { case type }

    static func decode(from decoder: any Decoder) throws -> String {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
            throw FrameDecodingError.notAnObject
        }
        guard let type = try? container.decode(String.self, forKey: .type) else {
            throw FrameDecodingError.missingType
        }
        return type
    }

    static func encode(_ type: String, to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
    }
}

/// Turns frames into bytes and back; shared by the server, the client and the tests.
///
/// Decoding never traps: any failure is a ``FrameDecodingError`` whose message says what to fix.
public enum FrameCodec {
    /// Encodes a frame as the UTF-8 JSON of one text frame.
    public static func encode<Frame: Encodable>(_ frame: Frame) -> Data {
        // Frames hold only strings, integers and booleans: encoding them cannot fail.
        // swiftlint:disable:next force_try
        try! JSONEncoder().encode(frame)
    }

    /// Encodes a server frame as the text of one text frame, written directly (`ServerFrameWriter`, internal):
    /// the server encodes a frame for every handshake, change and message, and `JSONEncoder` took 8 % of
    /// its CPU while sockets connected. The text is the same JSON value as ``encode(_:)``'s bytes.
    public static func encodeText(_ frame: ServerFrame) -> String {
        ServerFrameWriter.json(frame)
    }

    /// ``encodeText(_:)``'s text as UTF-8 bytes, as the server sends them: no `String` is made.
    public static func encodeUTF8(_ frame: ServerFrame) -> [UInt8] {
        ServerFrameWriter.utf8(frame)
    }

    /// Decodes a client frame.
    public static func decodeClientFrame(_ bytes: some DataProtocol) throws(FrameDecodingError) -> ClientFrame {
        try decode(ClientFrame.self, from: bytes)
    }

    /// Decodes a client frame from a text frame's text: a plain `activity` frame, the one clients send most,
    /// and a socket's plain `hello` and `subscribe` are read directly (`PlainFrameReader`, internal), every other text
    /// by `JSONDecoder`, with the same result.
    public static func decodeClientFrame(text: String) throws(FrameDecodingError) -> ClientFrame {
        if let frame = PlainFrameReader.read(text) { return frame }
        return try decodeClientFrame(Data(text.utf8))
    }

    /// Decodes a server frame.
    public static func decodeServerFrame(_ bytes: some DataProtocol) throws(FrameDecodingError) -> ServerFrame {
        try decode(ServerFrame.self, from: bytes)
    }

    private static func decode<Frame: Decodable>(_: Frame.Type, from bytes: some DataProtocol) throws(FrameDecodingError) -> Frame {
        let data = bytes as? Data ?? Data(bytes)
        // Foundation's JSONDecoder (Swift 6.3, Linux) traps, rather than throws, on input whose 513th nested
        // "[" is its last byte: it places the nesting error one past the end. No JSON text ends with "[".
        guard data.last != UInt8(ascii: "[") else { throw .notJSON }
        do {
            return try JSONDecoder().decode(Frame.self, from: data)
        } catch let error as FrameDecodingError {
            throw error
        } catch let DecodingError.keyNotFound(key, context) {
            throw .missingField(fieldPath(context.codingPath + [key]), in: frameType(in: data))
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw .invalidField(fieldPath(context.codingPath), in: frameType(in: data))
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw .invalidField(fieldPath(context.codingPath), in: frameType(in: data))
        } catch {
            throw .notJSON
        }
    }

    private static func fieldPath(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    private static func frameType(in data: Data) -> String? {
        try? JSONDecoder().decode(TypeOnly.self, from: data).type
    }
}

/// Just the `type` of a frame, read to name it in an error message.
private struct TypeOnly: Decodable {
    var type: String
}
