/// Reads the frames clients send most without `JSONDecoder`, which spent about 20 µs on each on the server
/// (docs/BENCHMARKS.md, "Reading `activity`"): `activity` (every keystroke's start, refresh and stop), and
/// each socket's `hello` and `subscribe`s (and `unsubscribe`s).
///
/// It reads only the plain form: one flat object whose values are strings without escapes, with the frame's
/// own keys and no other, each at most once: `type` and `conversation`, `activity`, `detail` and `thread` for
/// `activity`; `type` and `conversation` for `subscribe` and `unsubscribe`; `type` and `token` for `hello`.
/// Anything else (another frame, a number or `null`, an escape, an unknown, misplaced or repeated key, an
/// unknown activity, bytes after the object) gives nil and goes to `JSONDecoder`, which decides and words
/// every error: this path changes no answer, it only skips the decoder for the frames it reads. No JSON
/// library among the project's packages is faster than Foundation's; the server's frames are written by
/// hand too (``ServerFrameWriter``).
enum PlainFrameReader {
    /// The frame, if `text` is a plain frame of a type read here; nil for `JSONDecoder` to read.
    static func read(_ text: String) -> ClientFrame? {
        var text = text
        return text.withUTF8 { read(bytes: $0) }
    }

    private static func read(bytes: UnsafeBufferPointer<UInt8>) -> ClientFrame? {
        var reader = PlainJSONCursor(bytes: bytes)
        var fields: [Field: String] = [:]
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        repeat {
            guard let key = reader.string().flatMap(Field.init(rawValue:)), fields[key] == nil, reader.take(UInt8(ascii: ":")),
                let value = reader.string()
            else { return nil }
            fields[key] = value
        } while reader.take(UInt8(ascii: ","))
        guard reader.take(UInt8(ascii: "}")), reader.atEnd else { return nil }
        switch fields[.type] {
        case "activity":
            guard let conversation = fields[.conversation], let kind = fields[.activity].flatMap(MemberActivity.Kind.init(rawValue:)),
                fields[.token] == nil
            else { return nil }
            return .activity(
                .init(conversation: conversation, activity: MemberActivity(kind: kind, detail: fields[.detail]), thread: fields[.thread]))
        case "subscribe", "unsubscribe":
            guard let conversation = fields[.conversation], fields.count == 2 else { return nil }
            return fields[.type] == "subscribe"
                ? .subscribe(.init(conversation: conversation)) : .unsubscribe(.init(conversation: conversation))
        case "hello":
            guard let token = fields[.token], fields.count == 2 else { return nil }
            return .hello(.init(token: token))
        default:
            return nil
        }
    }

    private enum Field: String {
        case type, conversation, activity, detail, thread, token
    }
}
