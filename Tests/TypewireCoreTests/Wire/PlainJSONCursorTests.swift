import Testing

@testable import TypewireCore

@Suite("PlainJSONCursor: plain strings, integers and booleans, nothing else")
struct PlainJSONCursorTests {
    private func values(_ text: String) -> [PlainJSONCursor.Value?] {
        var text = text
        return text.withUTF8 { bytes in
            var cursor = PlainJSONCursor(bytes: bytes)
            var values: [PlainJSONCursor.Value?] = []
            repeat { values.append(cursor.value()) } while values.last! != nil && cursor.take(UInt8(ascii: ","))
            return values
        }
    }

    @Test func readsPlainValues() {
        #expect(
            values(#" "école 💬" , 0, -7, 999999999999999, true,false , """#)
                == [
                    .string("école 💬"), .integer(0), .integer(-7), .integer(999_999_999_999_999), .boolean(true), .boolean(false),
                    .string(""),
                ])
    }

    @Test(arguments: [
        "1.5", "1e3", "1E3", "1234567890123456", "01", "-", "-01", "+1", "null", "trueish", "tru", "[1]", "{}", #""a\"b""#, "\"a\u{1}\"",
        "\"open",
    ])
    func leavesAnythingElse(text: String) {
        #expect(values(text) == [nil])
    }
}
