import Testing

@testable import TypewireCore

/// Arabic's six plural categories (CLDR), zero too, which no count of the indicator reaches.
@Suite("Arabic plural categories")
struct ArabicPluralTests {
    @Test func eachCountFallsInItsCategory() {
        let categories: [(ArabicRules.Plural, [Int])] = [
            (.zero, [0]), (.one, [1]), (.two, [2]), (.few, [3, 10, 103, 210]), (.many, [11, 99, 111, 1011]),
            (.other, [100, 101, 102, 200, 1000]),
        ]
        for (category, counts) in categories {
            for count in counts { #expect(ArabicRules.Plural(count) == category, "\(count)") }
        }
    }
}
