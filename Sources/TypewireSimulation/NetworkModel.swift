import TypewireCore

/// The path between sender and receivers, modelled on one WebSocket over TCP: a delay, a jitter,
/// packet loss that TCP repairs by retransmission (late, never lost, and holding up what follows), and
/// frames lost outright (a connection that dies with frames in flight). Delivery is in order: a frame
/// never overtakes an earlier one.
public struct NetworkModel: Sendable, Hashable {
    /// The least one-way delay, in milliseconds.
    public var delay: Int64
    /// Extra delay, uniform between zero and this, in milliseconds.
    public var jitter: Int64
    /// The chance that a frame's packet is lost and retransmitted (each try again with this chance).
    public var loss: Double
    /// The first retransmission timeout, doubled on each further try, in milliseconds.
    public var retransmissionTimeout: Int64
    /// The chance that a frame is lost outright.
    public var drop: Double

    /// Creates a network.
    public init(delay: Int64 = 40, jitter: Int64 = 60, loss: Double = 0.02, retransmissionTimeout: Int64 = 200, drop: Double = 0.002) {
        self.delay = delay
        self.jitter = jitter
        self.loss = loss
        self.retransmissionTimeout = retransmissionTimeout
        self.drop = drop
    }

    /// When a frame sent at `time` arrives, or nil if it is lost.
    func arrival(sentAt time: Int64, random: inout SplitMix64) -> Int64? {
        if drop > 0 && random.chance(drop) { return nil }
        var arrival = time + delay + (jitter > 0 ? random.int(0...jitter) : 0)
        var timeout = retransmissionTimeout
        while loss > 0 && random.chance(loss) && timeout < 60_000 {
            arrival += timeout
            timeout *= 2
        }
        return arrival
    }

    /// The longest delay of a frame that is neither retransmitted nor lost.
    var usualWorstDelay: Int64 { delay + jitter }
}
