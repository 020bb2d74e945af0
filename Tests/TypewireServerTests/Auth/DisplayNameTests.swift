import Testing

@testable import TypewireServer

@Suite("DisplayName: names and ids as the server takes them")
struct DisplayNameTests {
    @Test func aNameIsCutTo200CharactersOfWhatCanBeSeen() {
        #expect(DisplayName.cleaned(String(repeating: "é", count: 20_000))?.count == 200)
        #expect(DisplayName.cleaned("  Alice \t\n  Smith ") == "Alice Smith", "white space and controls become one space")
        #expect(DisplayName.cleaned("Al\u{202E}ecila") == "Alecila", "a bidi override is removed")
        #expect(DisplayName.cleaned("A\u{200B}l\u{2066}i\u{FEFF}c\u{061C}e\u{E0041}") == "Alice", "zero-width, isolates, BOM, tags")
        #expect(DisplayName.cleaned("\u{200B}\u{202E}\n") == nil, "nothing visible left: no name")
        #expect(DisplayName.cleaned(nil) == nil)
    }

    @Test func aNameIsCutToWholeCharactersWithin600Bytes() {
        let marks = String(repeating: "e" + String(repeating: "\u{301}", count: 50), count: 200)  // 200 characters, 20 KB
        let cut = DisplayName.cleaned(marks)
        #expect(cut.map { $0.utf8.count <= DisplayName.maxBytes } == true)
        #expect(cut?.count == 5, "5 whole characters of 101 bytes each")
        #expect(cut.map { Array($0) == Array(repeating: Character("e" + String(repeating: "\u{301}", count: 50)), count: 5) } == true)
        #expect(DisplayName.cleaned(String(repeating: "名", count: 200))?.utf8.count == 600, "200 CJK characters are 600 bytes: kept")
    }

    @Test func aJoinerBetweenVisibleCharactersStays() {
        let family = "👨\u{200D}👩\u{200D}👧"
        #expect(DisplayName.cleaned(family) == family)
        #expect(DisplayName.cleaned("\u{200D}Bob\u{200D}") == "Bob", "not at the ends")
        #expect(DisplayName.cleaned("می\u{200C}خواهم") == "می\u{200C}خواهم", "a non-joiner inside a Persian word")
    }

    @Test func anIDCarriesNoInvisibleCharacters() {
        #expect(DisplayName.isAcceptableID("alice", maxBytes: 256))
        #expect(DisplayName.isAcceptableID("аlice", maxBytes: 256), "another script is another id, not a hidden one")
        #expect(!DisplayName.isAcceptableID("ali\u{200B}ce", maxBytes: 256))
        #expect(!DisplayName.isAcceptableID("\u{202E}ecila", maxBytes: 256))
        #expect(!DisplayName.isAcceptableID("a\nb", maxBytes: 256))
        #expect(!DisplayName.isAcceptableID("", maxBytes: 256))
        #expect(!DisplayName.isAcceptableID(String(repeating: "a", count: 257), maxBytes: 256))
    }
}
