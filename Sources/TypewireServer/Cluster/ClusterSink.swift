/// Where the hub's events for the other nodes go: a bus's outgoing side.
protocol ClusterSink: Sendable {
    /// Takes an event to send; it never waits (a sink that cannot keep up drops and counts).
    func publish(_ envelope: ClusterEnvelope)
    /// Whether the bus delivers a conversation's events only to the nodes that follow it.
    var routesByInterest: Bool { get }
    /// This node began (or stopped) following a conversation.
    func interest(in conversation: String, following: Bool)
    /// No event comes any more (the hub stopped).
    func finish()
}
