import Foundation
import Testing

@testable import TypewireCore

@Suite("JSONTextWriter: the bytes the frame writers share")
struct JSONTextWriterTests {
    static let numbers: [Int64] = [0, 7, -1, 10, -10, 1_764_400_000_000, .max, .min, .min + 1]

    @Test(arguments: numbers)
    func writesAnIntegersDecimalDigits(_ value: Int64) {
        var json = JSONTextWriter("", capacity: 0)
        json.number(value)
        #expect(json.text == String(value))
    }

    @Test func escapesWhatJSONRequiresAndPassesEveryOtherByteThrough() throws {
        var json = JSONTextWriter("[", capacity: 0)
        let hostile = "a\"b\\c\nd\re\tf\u{0}\u{1f}\u{7f} Zoë 🧑🏽‍💻 </script>"
        json.string(hostile)
        json.raw("]")
        #expect(json.text == #"["a\"b\\c\nd\re\tf\u0000\u001f\#u{7f} Zoë 🧑🏽‍💻 </script>"]"#)
        #expect(try JSONDecoder().decode([String].self, from: Data(json.bytes)) == [hostile])
    }

    @Test func leavesNilFieldsOut() {
        var json = JSONTextWriter("{\"a\":1", capacity: 0)
        json.field("b", nil as String?)
        json.field("c", nil as Int64?)
        json.field("d", nil as Bool?)
        json.field("e", true)
        json.field("f", -2 as Int64?)
        json.raw("}")
        #expect(json.text == #"{"a":1,"e":true,"f":-2}"#)
    }
}
