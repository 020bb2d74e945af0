/// Appends JSON to a string piece by piece: what the hand-written frame writers (``ActivityFrameWriter``,
/// ``ServerFrameWriter``) share.
///
/// Optional fields are left out when nil, as `JSONEncoder` leaves out a nil `encodeIfPresent`, so the
/// text decodes to the same value as `JSONEncoder`'s. The writer keeps no state beyond the text: the
/// callers put the commas, which keeps each frame's layout readable in its writer.
struct JSONTextWriter {
    /// The JSON written so far.
    private(set) var text: String

    /// Starts with `prefix` (an object's opening and its first fixed fields, for example).
    init(_ prefix: String, capacity: Int) {
        text = prefix
        text.reserveCapacity(capacity)
    }

    /// Appends raw JSON text: punctuation and keys, which the caller writes correctly.
    mutating func raw(_ json: String) { text += json }

    /// Appends a JSON string literal: quotes, backslashes and control characters escaped.
    mutating func string(_ value: String) {
        text += "\""
        var plain = true
        for byte in value.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            plain = false
            break
        }
        if plain {
            text += value
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "\n": text += "\\n"
                case "\r": text += "\\r"
                case "\t": text += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }

    /// Appends an integer.
    mutating func number(_ value: some BinaryInteger) { text += String(value) }

    /// Appends `true` or `false`.
    mutating func bool(_ value: Bool) { text += value ? "true" : "false" }

    /// Appends `,"key":"value"` when `value` is not nil.
    mutating func field(_ key: String, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }

    /// Appends `,"key":value` when `value` is not nil.
    mutating func field(_ key: String, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        number(value)
    }

    /// Appends `,"key":true` or `false` when `value` is not nil.
    mutating func field(_ key: String, _ value: Bool?) {
        guard let value else { return }
        self.key(key)
        bool(value)
    }

    /// Appends `,"key":`, without building the piece as a string of its own first.
    private mutating func key(_ key: String) {
        text += ",\""
        text += key
        text += "\":"
    }

    /// Appends `,"key":[…]`, each element written by `element`, commas between them.
    mutating func array<Element>(_ key: String, _ elements: [Element], _ element: (inout JSONTextWriter, Element) -> Void) {
        self.key(key)
        text += "["
        for index in elements.indices {
            if index > elements.startIndex { text += "," }
            element(&self, elements[index])
        }
        text += "]"
    }
}
