import Foundation
import TypewireCore

/// Valid client frames of every type, the starting points of mutations.
public enum FuzzSeeds {
    /// At least one frame of each ``ClientFrame`` type, with optional fields both present and absent.
    public static let frames: [ClientFrame] = [
        .hello(.init(token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln")),
        .subscribe(.init(conversation: "direct-alice-bob")),
        .unsubscribe(.init(conversation: "group-six")),
        .activity(.init(conversation: "direct-alice-bob", activity: .typing)),
        .activity(.init(conversation: "group-six", activity: .toolUse("web_search"))),
        .activity(.init(conversation: "c1", activity: .none)),
        .activity(.init(conversation: "c1", activity: .recordingAudio)),
        .send(.init(conversation: "direct-alice-bob", clientMessageId: "m-1", text: "Hi ✋ \"there\"\n")),
        .edit(.init(conversation: "group-six", messageId: "42", text: "Hello 👋🏽")),
        .stream(.init(conversation: "bot-alice", messageId: "r1", delta: "Hel")),
        .stream(.init(conversation: "bot-alice", messageId: "r1", delta: "!", isFinal: true, text: "Hello!")),
    ]

    /// The seeds as `FrameCodec` encodes them.
    public static let encoded: [[UInt8]] = frames.map { Array(FrameCodec.encode($0)) }

    /// The seeds' fields as JSON text, key and value apart, for mutations that keep the JSON well formed.
    static let fields: [[JSONField]] = encoded.map { bytes in
        // The seeds are objects of strings and booleans, which JSONSerialization reads and writes back.
        // swiftlint:disable:next force_cast
        let object = try! JSONSerialization.jsonObject(with: Data(bytes)) as! [String: Any]
        return object.keys.sorted().map { key in
            // swiftlint:disable:next force_try
            let value = try! JSONSerialization.data(withJSONObject: object[key]!, options: .fragmentsAllowed)
            return JSONField(key: Array(quoted(key).utf8), value: Array(value))
        }
    }

    /// A string as a JSON string literal.
    static func quoted(_ string: String) -> String {
        String(decoding: FrameCodec.encode(string), as: UTF8.self)
    }
}

/// One member of a JSON object, as raw bytes that need not be valid JSON or UTF-8.
struct JSONField {
    /// The key, quotes included.
    var key: [UInt8]
    /// The value's JSON text.
    var value: [UInt8]
}
