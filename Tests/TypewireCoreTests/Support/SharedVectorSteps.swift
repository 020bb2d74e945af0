import Clocks
import Foundation

/// A step's expected value in a shared table: absent (not checked), null, or a value.
enum Expected<Value: Decodable & Equatable & Sendable>: Equatable, Sendable {
    case unchecked
    case value(Value?)

    init<Key: CodingKey>(_ key: Key, in container: KeyedDecodingContainer<Key>) throws {
        guard container.contains(key) else {
            self = .unchecked
            return
        }
        self = .value(try container.decodeNil(forKey: key) ? nil : container.decode(Value.self, forKey: key))
    }

    /// Whether `actual` is what the table says (always, when it says nothing).
    func holds(for actual: Value?) -> Bool {
        guard case .value(let expected) = self else { return true }
        return expected == actual
    }
}

/// A table's milliseconds on a test clock: `at` ms after the vector's start, and back.
struct VectorTime {
    typealias Instant = TestClock<Duration>.Instant
    let start = TestClock<Duration>().now

    func instant(_ milliseconds: Int64) -> Instant { start.advanced(by: .milliseconds(milliseconds)) }

    func milliseconds(_ instant: Instant?) -> Int64? {
        instant.map { start.duration(to: $0) }.map { $0.components.seconds * 1_000 + $0.components.attoseconds / 1_000_000_000_000_000 }
    }
}
