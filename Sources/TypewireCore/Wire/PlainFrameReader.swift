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
        var reader = Reader(bytes: bytes)
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
            guard let conversation = fields[.conversation], let kind = fields[.activity].flatMap(Activity.Kind.init(rawValue:)),
                fields[.token] == nil
            else { return nil }
            return .activity(
                .init(conversation: conversation, activity: Activity(kind: kind, detail: fields[.detail]), thread: fields[.thread]))
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

    /// A cursor over the frame's bytes that skips JSON's whitespace before each token.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var atEnd: Bool {
            mutating get {
                skipWhitespace()
                return index == bytes.count
            }
        }

        /// Takes `byte` if it comes next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A string without escapes or control characters, if one comes next. The text is valid UTF-8 (a
        /// Swift string), and a quote is a whole character, so the bytes between two quotes are too.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                }
                guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
                index += 1
            }
            return nil
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }
    }
}
