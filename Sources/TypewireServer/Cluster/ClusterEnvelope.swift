/// An event with the node that sent it (a node hears its own notifications too).
struct ClusterEnvelope: Sendable {
    /// The sending node's id.
    var node: String
    /// The event.
    var event: ClusterEvent
}
