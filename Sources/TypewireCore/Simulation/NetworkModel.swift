/// The path between sender and receivers: a delay, a jitter and a loss rate. Delivery is in order (as
/// over one socket): a frame never overtakes an earlier one.
public struct NetworkModel: Sendable, Hashable {
    /// The least one-way delay, in milliseconds.
    public var delay: Int64
    /// Extra delay, uniform between zero and this, in milliseconds.
    public var jitter: Int64
    /// The chance that a frame is lost.
    public var loss: Double

    /// Creates a network.
    public init(delay: Int64 = 40, jitter: Int64 = 60, loss: Double = 0.01) {
        self.delay = delay
        self.jitter = jitter
        self.loss = loss
    }
}
