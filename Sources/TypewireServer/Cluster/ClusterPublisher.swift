/// The hub's side of the cluster bus: where it puts the events the other nodes must hear, in order, and
/// says which conversations it follows.
public struct ClusterPublisher: Sendable {
    /// This node's id, unique per process.
    public let node: String
    private let sink: any ClusterSink

    init(node: String, sink: any ClusterSink) {
        self.node = node
        self.sink = sink
    }

    func publish(_ event: ClusterEvent) {
        sink.publish(ClusterEnvelope(node: node, event: event))
    }

    /// Whether the bus delivers a conversation's events only to the nodes that follow it.
    var routesByInterest: Bool { sink.routesByInterest }

    /// This node began following a conversation (its first subscriber here), or stopped (its last left).
    func interest(in conversation: String, following: Bool) {
        sink.interest(in: conversation, following: following)
    }

    func finish() {
        sink.finish()
    }
}
