import TypewireCore

/// The marks the others see of a conversation's current members in its main timeline
/// (``ChatStore/timelineMarks(in:limit:)``): how far each read, and the newest message a device of theirs
/// received; none of members who hide their reading.
public struct TimelineMarks: Sendable, Hashable {
    /// Each member's shared read mark, by user id (those who read anything).
    public var reads: [ReadMark]
    /// Each member's delivered mark, by user id (those whose devices received anything).
    public var delivered: [ReadMark]

    /// Creates the marks.
    public init(reads: [ReadMark] = [], delivered: [ReadMark] = []) {
        self.reads = reads
        self.delivered = delivered
    }
}
