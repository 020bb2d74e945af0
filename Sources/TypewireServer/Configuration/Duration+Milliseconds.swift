extension Duration {
    /// The duration in whole milliseconds, rounded down: the unit of the hub's clock.
    package var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }
}
