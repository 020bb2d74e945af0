import TypewireCore

/// An instant of simulated time, in whole milliseconds, so the real ``TypingEmitter`` runs inside the
/// simulator unchanged.
public struct SimulatedInstant: InstantProtocol, Sendable {
    /// Milliseconds since the start of the simulated session.
    public var milliseconds: Int64

    /// Creates an instant.
    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    public func advanced(by duration: Duration) -> SimulatedInstant {
        SimulatedInstant(milliseconds: milliseconds + duration.wholeMilliseconds)
    }

    public func duration(to other: SimulatedInstant) -> Duration {
        .milliseconds(other.milliseconds - milliseconds)
    }

    public static func < (lhs: SimulatedInstant, rhs: SimulatedInstant) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded toward zero.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }
}
