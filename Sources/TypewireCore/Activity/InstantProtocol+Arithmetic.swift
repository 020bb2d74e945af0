extension InstantProtocol {
    /// `advanced(by:)` as an operator, so deadlines read as sums in the machines.
    @inlinable
    static func + (instant: Self, duration: Duration) -> Self {
        instant.advanced(by: duration)
    }
}
