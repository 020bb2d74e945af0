import NIOConcurrencyHelpers

/// A clock the test moves by hand, in milliseconds.
final class ManualClock: Sendable {
    private let value = NIOLockedValueBox<Int64>(1_000_000)
    var now: Int64 { value.withLockedValue { $0 } }
    func advance(by milliseconds: Int64) { value.withLockedValue { $0 += milliseconds } }
}
