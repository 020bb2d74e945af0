import TypewireCore

/// A way of sending and showing typing state, end to end: the sender's rules and how receivers and
/// servers make an entry go away.
public struct SenderPolicy: Sendable {
    /// The sender's rules.
    public enum Sender: Sendable, Hashable {
        /// Send "typing" on a keystroke at most once per `throttle` (leading edge only; the throttle is not
        /// reset by a stop), stop after `idleStop` without a keystroke, or, with `idleFromLastWrite`,
        /// after `idleStop` from the last write. `idleStop` nil: never stop on idleness.
        case throttled(throttle: Int64, idleStop: Int64?, idleFromLastWrite: Bool)
        /// Send "typing" on a keystroke unless a timer runs; the timer stops typing `after` ms after the
        /// first keystroke, even while typing goes on.
        case fixedStop(after: Int64)
        /// Typewire's ``TypingEmitter`` with these intervals (milliseconds).
        case typewire(refresh: Int64, idle: Int64)
    }

    /// How an entry leaves the receiver's screen besides an explicit stop.
    public struct Cleanup: Sendable {
        /// The receiver hides an entry this long after the "typing" frame that set it (ms).
        public var expiry: Int64?
        /// A periodic job (period, age in ms) removes entries whose last write is older than the age.
        public var sweep: (period: Int64, staleAfter: Int64)?
        /// The server removes a crashed sender's entry this long after the crash (a disconnect hook).
        public var onDisconnect: Int64?

        /// Creates the cleanups; each is off unless given.
        public init(expiry: Int64? = nil, sweep: (period: Int64, staleAfter: Int64)? = nil, onDisconnect: Int64? = nil) {
            self.expiry = expiry
            self.sweep = sweep
            self.onDisconnect = onDisconnect
        }
    }

    /// A short name for tables.
    public var name: String
    /// The sender's rules.
    public var sender: Sender
    /// The cleanups.
    public var cleanup: Cleanup
    /// Whether the stop on send travels with the message (so it is never lost on its own and costs no frame).
    public var stopRidesWithMessage: Bool

    /// Creates a policy.
    public init(name: String, sender: Sender, cleanup: Cleanup, stopRidesWithMessage: Bool = false) {
        self.name = name
        self.sender = sender
        self.cleanup = cleanup
        self.stopRidesWithMessage = stopRidesWithMessage
    }

    /// Seed 000: a write at most once per second, stop 3 s after the last keystroke; a cron job every
    /// minute removes entries older than 5 s.
    public static let seedOneSecond = SenderPolicy(
        name: "seed: 1 s throttle, 3 s idle stop",
        sender: .throttled(throttle: 1_000, idleStop: 3_000, idleFromLastWrite: false),
        cleanup: .init(sweep: (60_000, 5_000))
    )

    /// Seed 001: a write at most every 500 ms, stop 3 s after the last write; receivers hide an entry
    /// 3 s after its write (`expiresAt`).
    public static let seedHalfSecond = SenderPolicy(
        name: "seed: 500 ms throttle",
        sender: .throttled(throttle: 500, idleStop: 3_000, idleFromLastWrite: true),
        cleanup: .init(expiry: 3_000)
    )

    /// Seed 003: a 3 s throttle timer that also stops typing 3 s after the first keystroke; a disconnect
    /// hook clears a crashed sender once the server notices (`disconnectDetection`).
    public static func seedFixedStop(disconnectDetection: Int64) -> SenderPolicy {
        SenderPolicy(
            name: "seed: 3 s throttle, fixed stop",
            sender: .fixedStop(after: 3_000),
            cleanup: .init(onDisconnect: disconnectDetection)
        )
    }

    /// Other systems: "typing" re-sent every 10 s while typing goes on, no idle stop, receivers time
    /// an entry out 15 s after the last frame.
    public static let periodic = SenderPolicy(
        name: "other: 10 s refresh, 15 s timeout",
        sender: .throttled(throttle: 10_000, idleStop: nil, idleFromLastWrite: false),
        cleanup: .init(expiry: 15_000)
    )

    /// Typewire: ``TypingEmitter`` with the given refresh and idle timeout; the server's ttl, carried as
    /// `expiresAt`, hides an entry on receivers; the stop on send rides with the message.
    public static func typewire(refresh: Int64 = 2_000, idle: Int64 = 3_000, ttl: Int64 = 4_800) -> SenderPolicy {
        SenderPolicy(
            name: "typewire: \(formatSeconds(refresh)) refresh, \(formatSeconds(ttl)) ttl",
            sender: .typewire(refresh: refresh, idle: idle),
            cleanup: .init(expiry: ttl),
            stopRidesWithMessage: true
        )
    }

    static func formatSeconds(_ milliseconds: Int64) -> String {
        milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(Double(milliseconds) / 1_000) s"
    }
}
