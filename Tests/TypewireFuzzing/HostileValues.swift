/// JSON values (and near-JSON text) that decoders are known to mishandle: numbers out of every range,
/// deep nesting, bad escapes, invalid UTF-8, NUL bytes and very long strings.
public enum HostileValues {
    /// Valid JSON numbers, most of them out of the range of every Swift number type.
    public static let numbers: [String] = [
        "0", "-0", "-0.0", "0.1", "1e400", "-1e400", "1e-400", "1.7976931348623157e309",
        "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
        "1" + String(repeating: "0", count: 400), "0." + String(repeating: "0", count: 400) + "1",
    ]

    /// Text that looks like a number but is not JSON.
    public static let numberLike: [String] = [
        "NaN", "Infinity", "-Infinity", "01", "1.", ".5", "+1", "0x10", "1e", "--1", "1e+", "-",
    ]

    /// Literals, containers and strings of the wrong shape.
    public static let shapes: [String] = [
        "null", "true", "false", "tru", "nul", "[]", "{}", "[1,2,", #"{"a":1}"#, #"[""]"#, #"{"type":"hello"}"#,
        #""""#, #""\u0000""#, #""\ud800""#, #""\udc00\ud800""#, #""\uD83D\uDE00""#, #""\u00""#, #""\x""#, #""a\""#,
        "\"tab\there\"", "\"line\nbreak\"", "\"✋\"", "\"\u{FEFF}\"", "\"\u{0}\"",
    ]

    /// Sequences that are not UTF-8: stray continuation bytes, overlong forms, surrogates, cut-off sequences.
    public static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0xFE], [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
        [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],
        [0xE2, 0x82], [0xC3], [0xF0, 0x9F, 0x98],
    ]

    /// Nested arrays and objects, balanced and not, up to 10 000 levels deep.
    public static let nested: [String] = [10, 511, 512, 513, 10_000].flatMap { (depth: Int) -> [String] in
        [
            String(repeating: "[", count: depth) + String(repeating: "]", count: depth),
            String(repeating: "[", count: depth),
            String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth),
        ]
    }

    /// Long strings: one well within the server's 16 KiB frame limit, one past it.
    public static let long: [String] = [1_000, 20_000].map { "\"" + String(repeating: "x", count: $0) + "\"" }

    /// Every hostile value as bytes: the lists above, and strings holding each invalid sequence or a NUL byte.
    public static let all: [[UInt8]] =
        (numbers + numberLike + shapes + nested + long).map { Array($0.utf8) }
        + invalidUTF8.map { [UInt8(ascii: "\"")] + $0 + [UInt8(ascii: "\"")] }
        + invalidUTF8
        + [[0x22, 0x00, 0x22], [0x00]]
}
