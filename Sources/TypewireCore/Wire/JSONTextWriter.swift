/// Appends JSON's UTF-8 bytes piece by piece: what the hand-written frame writers (``ActivityFrameWriter``,
/// ``ServerFrameWriter``) share.
///
/// Optional fields are left out when nil, as `JSONEncoder` leaves out a nil `encodeIfPresent`, so the
/// text decodes to the same value as `JSONEncoder`'s. The writer keeps no state beyond the bytes: the
/// callers put the commas, which keeps each frame's layout readable in its writer.
///
/// It writes bytes, not a `String`: the server sends them as they are (``FrameCodec/encodeUTF8(_:)``), and
/// appending to an array, and writing a number's digits there, cost a fraction of `String`'s appends and
/// its generic integer conversion, which profiled at a third of an `activity` fan-out's own work.
struct JSONTextWriter {
    /// The UTF-8 JSON written so far.
    private(set) var bytes: [UInt8]

    /// Starts with `prefix` (an object's opening and its first fixed fields, for example).
    init(_ prefix: String, capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(contentsOf: prefix.utf8)
    }

    /// The JSON written so far, as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends raw JSON text: punctuation and keys, which the caller writes correctly.
    mutating func raw(_ json: String) { bytes.append(contentsOf: json.utf8) }

    /// Appends a JSON string literal: quotes, backslashes and control characters escaped; every other byte
    /// of the (valid) UTF-8 as it is.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var plain = true
        for byte in value.utf8 where Self.needsEscape(byte) {
            plain = false
            break
        }
        if plain {
            bytes.append(contentsOf: value.utf8)
        } else {
            for byte in value.utf8 {
                guard Self.needsEscape(byte) else {
                    bytes.append(byte)
                    continue
                }
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
                default:  // another control character: \u00XX
                    bytes.append(contentsOf: "u00".utf8)
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0xF)])
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends an integer's decimal digits.
    mutating func number(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude  // Int64.min's too
        // At most 20 digits: written from the end of this buffer, then appended in order.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Appends `true` or `false`.
    mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }

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
        bytes.append(UInt8(ascii: ","))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: key.utf8)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends `,"key":[…]`, each element written by `element`, commas between them.
    mutating func array<Element>(_ key: String, _ elements: [Element], _ element: (inout JSONTextWriter, Element) -> Void) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for index in elements.indices {
            if index > elements.startIndex { bytes.append(UInt8(ascii: ",")) }
            element(&self, elements[index])
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
