import Histogram
import NIOConcurrencyHelpers

/// What one worker counted: frames sent and received, latency, expiry lateness, errors.
///
/// Codable, so a worker process can hand it to the parent, which merges them.
public struct Tally: Codable, Sendable {
    /// End-to-end relay latency of start and refresh frames sent in the window, in microseconds.
    public var latency = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)
    /// How late an expired entry disappeared after its `expiresAt`, in milliseconds (scenario `expiry`).
    public var expiryLateness = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: 600_000, numberOfSignificantValueDigits: .three)
    /// The time between two `activity` frames at one socket, in microseconds: its minimum says how
    /// closely updates follow each other (a large group's are paced).
    public var activityGaps = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
    /// The time between the `serverTime`s of two `activity` frames at one socket, in milliseconds: how far
    /// apart the server sent them, whatever queueing came after (Typewire only; the relay stamps nothing).
    public var serverTimeGaps = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: 600_000, numberOfSignificantValueDigits: .three)
    /// The most entries one `activity` frame listed.
    public var mostEntries = 0
    /// Start and refresh frames sent in the window.
    public var activitySent: UInt64 = 0
    /// Stops and messages sent in the window.
    public var otherSent: UInt64 = 0
    /// Latency samples the window's start and refresh frames should produce (one per subscriber).
    public var expectedSamples: UInt64 = 0
    /// Expired entries that should be seen disappearing (scenario `expiry`).
    public var expectedExpiries: UInt64 = 0
    /// Frames of every type received in the window.
    public var delivered: UInt64 = 0
    /// `activity` frames received in the window.
    public var activityReceived: UInt64 = 0
    /// Message frames (`message`, or the relay's forwarded `send`) received in the window.
    public var messagesReceived: UInt64 = 0
    /// Scenario `receipts`: `read` frames sent in the window.
    public var readsSent: UInt64 = 0
    /// Scenario `receipts`: `receipts` and `unread` frames received in the window.
    public var receiptsReceived: UInt64 = 0
    public var unreadReceived: UInt64 = 0
    /// `error` frames, unexpected closes and failed connections.
    public var errors: UInt64 = 0
    /// The first few errors, said in words.
    public var errorNotes: [String] = []

    /// An empty tally.
    public init() {}

    /// Adds another tally's counts to this one.
    public mutating func merge(_ other: Tally) {
        latency.add(other.latency)
        expiryLateness.add(other.expiryLateness)
        activityGaps.add(other.activityGaps)
        serverTimeGaps.add(other.serverTimeGaps)
        mostEntries = max(mostEntries, other.mostEntries)
        activitySent += other.activitySent
        otherSent += other.otherSent
        expectedSamples += other.expectedSamples
        expectedExpiries += other.expectedExpiries
        delivered += other.delivered
        activityReceived += other.activityReceived
        messagesReceived += other.messagesReceived
        readsSent += other.readsSent
        receiptsReceived += other.receiptsReceived
        unreadReceived += other.unreadReceived
        errors += other.errors
        errorNotes += other.errorNotes.prefix(max(0, 10 - errorNotes.count))
    }

    /// Counts an error and keeps its first few descriptions.
    mutating func error(_ note: String) {
        errors += 1
        if errorNotes.count < 10 { errorNotes.append(note) }
    }
}

/// A tally shared by the sockets of one event loop, and the window it counts in.
final class TallyBox: Sendable {
    struct State {
        var tally = Tally()
        /// The measured window on CLOCK_MONOTONIC; empty until the load starts.
        var windowStart: UInt64 = .max
        var windowEnd: UInt64 = .max

        func inWindow(_ nanos: UInt64) -> Bool { nanos >= windowStart && nanos < windowEnd }
    }

    private let state = NIOLockedValueBox(State())

    /// Runs `body` with the tally under the lock.
    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        state.withLockedValue(body)
    }

    /// Sets the measured window.
    func setWindow(start: UInt64, end: UInt64) {
        state.withLockedValue {
            $0.windowStart = start
            $0.windowEnd = end
        }
    }

    /// Empties the tally and the window, for the next window.
    func reset() {
        state.withLockedValue { $0 = State() }
    }

    /// A copy of the tally.
    var tally: Tally { state.withLockedValue { $0.tally } }

    /// Counts an error.
    func error(_ note: String) { state.withLockedValue { $0.tally.error(note) } }
}
