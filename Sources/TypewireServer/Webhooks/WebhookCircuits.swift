/// Which endpoints the dispatcher sends to, a pure machine: an endpoint that fails
/// ``failuresToOpen`` attempts in a row is *open*: none of its deliveries is claimed, whatever its own
/// due time, until one probe (its oldest delivery) is due; the probe's success closes it, its failure
/// opens it again for twice as long (``WebhookRetryPolicy/delay(afterAttempts:)``, with jitter). A
/// receiver that is down costs one attempt per probe, not one per delivery on each one's schedule.
///
/// A probe is sent only when no attempt to that endpoint is under way on this node. Each node keeps its
/// own circuits.
struct WebhookCircuits: Sendable {
    /// Failed attempts in a row that open an endpoint's circuit.
    static let failuresToOpen = 5

    /// When probes are due: the retry policy's waits.
    let retry: WebhookRetryPolicy
    private var endpoints: [String: Endpoint] = [:]

    private struct Endpoint {
        /// Failed attempts in a row.
        var failures = 0
        /// Probes that failed in a row, while open.
        var failedProbes = 0
        /// While open: when the next probe is due (milliseconds).
        var probeAt: Int64?
        /// A probe is under way.
        var probing = false
        /// Attempts under way.
        var underWay = 0

        var isOpen: Bool { probeAt != nil }
    }

    init(retry: WebhookRetryPolicy) {
        self.retry = retry
    }

    /// Whether the endpoint's circuit is open (only probes go to it).
    func isOpen(_ endpoint: String) -> Bool {
        endpoints[endpoint]?.isOpen ?? false
    }

    /// The endpoints of `configured` whose circuits are closed: those deliveries are claimed by due time.
    func closed(of configured: [String]) -> [String] {
        configured.filter { !isOpen($0) }
    }

    /// How many circuits are open.
    var openCount: Int { endpoints.values.count(where: \.isOpen) }

    /// The open endpoints whose probe is due at `now` with nothing under way; each is marked probing.
    mutating func takeProbes(at now: Int64) -> [String] {
        let due = endpoints.filter { _, state in
            guard let probeAt = state.probeAt else { return false }
            return !state.probing && state.underWay == 0 && probeAt <= now
        }.keys.sorted()
        for endpoint in due { endpoints[endpoint]?.probing = true }
        return due
    }

    /// The earliest probe due time, for the dispatcher's sleep; nil with every circuit closed.
    var nextProbe: Int64? {
        endpoints.values.filter { !$0.probing }.compactMap(\.probeAt).min()
    }

    /// An attempt to the endpoint began.
    mutating func started(_ endpoint: String) {
        endpoints[endpoint, default: Endpoint()].underWay += 1
    }

    /// A probe found no delivery to send: the endpoint has nothing waiting, so the circuit closes (the
    /// next delivery is the test).
    mutating func probeFoundNothing(_ endpoint: String) {
        endpoints[endpoint] = nil
    }

    /// A due probe could not be claimed (the store failed): it is due again at the next turn.
    mutating func probeNotClaimed(_ endpoint: String) {
        endpoints[endpoint]?.probing = false
    }

    /// An attempt to the endpoint ended at `now`; `probe` when it was the open circuit's probe. Returns
    /// whether the endpoint's circuit opened or closed with it (for the log).
    @discardableResult
    mutating func ended<Generator: RandomNumberGenerator>(
        _ endpoint: String, delivered: Bool, probe: Bool, now: Int64, using generator: inout Generator
    ) -> Change? {
        var state = endpoints[endpoint, default: Endpoint()]
        state.underWay = max(0, state.underWay - 1)
        defer { endpoints[endpoint] = state }
        if delivered {
            let wasOpen = state.isOpen
            state = Endpoint(underWay: state.underWay)
            return wasOpen ? .closed : nil
        }
        state.failures += 1
        if probe {
            state.probing = false
            state.failedProbes += 1
            state.probeAt = now + retry.wait(afterAttempts: state.failedProbes + 1, using: &generator)
            return nil
        }
        guard !state.isOpen, state.failures >= Self.failuresToOpen else { return nil }
        state.probeAt = now + retry.wait(afterAttempts: 1, using: &generator)
        return .opened
    }

    /// A circuit's change.
    enum Change: Sendable, Equatable {
        /// Only probes go to the endpoint now.
        case opened
        /// A probe was delivered: every due delivery goes again.
        case closed
    }
}
