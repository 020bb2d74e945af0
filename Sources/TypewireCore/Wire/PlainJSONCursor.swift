/// A cursor over JSON text that reads only the plain form of its tokens: strings without escapes or control
/// characters, integers of at most 15 digits without a fraction or an exponent, `true` and `false`, and the
/// punctuation between them. It skips JSON's whitespace before each token, and answers nil (or false) for
/// anything else, so that its callers leave that input to `JSONDecoder`, which decides and words every error
/// (``PlainFrameReader``, and the server's reader of tokens' claims). The bytes must be valid UTF-8.
package struct PlainJSONCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    /// A cursor at the start of `bytes`, which must be valid UTF-8 (a Swift string's, or validated).
    package init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether only whitespace is left.
    package var atEnd: Bool {
        mutating get {
            skipWhitespace()
            return index == bytes.count
        }
    }

    /// Takes `byte` if it comes next.
    package mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// A string without escapes or control characters, if one comes next. The text is valid UTF-8, and a
    /// quote is a whole character, so the bytes between two quotes are too.
    package mutating func string() -> String? {
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

    /// What a plain value is.
    package enum Value: Equatable {
        case string(String)
        case integer(Int64)
        case boolean(Bool)
    }

    /// A string, an integer or a boolean in the plain form, if one comes next (a number with a fraction or
    /// an exponent, of more than 15 digits (which a `Double` may not hold exactly), or with a leading zero is
    /// not plain; nor is `null`, an array or an object).
    package mutating func value() -> Value? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return string().map(Value.string)
        case UInt8(ascii: "t"): return word("true") ? .boolean(true) : nil
        case UInt8(ascii: "f"): return word("false") ? .boolean(false) : nil
        default: return integer().map(Value.integer)
        }
    }

    private mutating func integer() -> Int64? {
        let negative = bytes[index] == UInt8(ascii: "-")
        var position = negative ? index + 1 : index
        let firstDigit = position
        var magnitude: Int64 = 0
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]), position - firstDigit < 15 {
            magnitude = magnitude * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
            position += 1
        }
        let digits = position - firstDigit
        guard digits > 0, digits == 1 || bytes[firstDigit] != UInt8(ascii: "0") else { return nil }
        if position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: break
            }
        }
        index = position
        return negative ? -magnitude : magnitude
    }

    private mutating func word(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count,
            bytes[index..<index + count].elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: count))
        else { return false }
        let end = index + count
        // `trueish` is not `true`.
        if end < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[end]) { return false }
        index = end
        return true
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
