extension Duration {
    /// The duration in whole milliseconds, rounded down: the unit of the hub's clock. Clamped to what an
    /// `Int64` of milliseconds holds: a duration from a setting may be longer than that.
    package var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        return milliseconds.addingReportingOverflow(attoseconds / 1_000_000_000_000_000).partialValue
    }
}

extension Int64 {
    /// A time in seconds (a `Date`'s, a wait) as whole milliseconds, rounded down and clamped to what an
    /// `Int64` of milliseconds holds (about 292 million years either way); NaN is 0. `Int64(seconds * 1_000)`
    /// traps past that range, and the seconds may come from a client's token.
    package init(clampingMilliseconds seconds: Double) {
        let milliseconds = (seconds * 1_000).rounded(.down)
        if milliseconds.isNaN {
            self = 0
        } else if let exact = Int64(exactly: milliseconds) {
            self = exact
        } else {
            self = milliseconds < 0 ? .min : .max
        }
    }
}
