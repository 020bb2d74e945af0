/// One socket's budgets for the frames that cost the most when flooded: activity starts and refreshes, and
/// frames that cannot be read. A pure value kept by the socket's own session, so a flood is turned away
/// before it reaches the hub, which every socket shares: a flooder costs the others no hub time.
struct InboundGate {
    /// What to do with a frame.
    enum Decision: Equatable {
        /// Let it through (for a bad frame: answer it).
        case pass
        /// Drop it; `notify` says whether to tell the client (at most once a second for activity).
        case drop(notify: Bool)
        /// Drop it and close the socket with the policy-violation code: it keeps flooding.
        case close(reason: String)
    }

    private var activity: RateLimiter
    private var badFrames: RateLimiter
    private let abuseThreshold: Int
    private var lastActivityNotice: Int64?

    init(_ configuration: ServerConfiguration) {
        activity = RateLimiter(rate: configuration.activityRate, burst: configuration.activityBurst)
        badFrames = RateLimiter(rate: configuration.badFrameRate, burst: configuration.badFrameBurst)
        abuseThreshold = configuration.abuseThreshold
    }

    /// An activity start or refresh (a stop is never limited: it only removes state, and dropping it
    /// would leave a stale indicator).
    mutating func admitActivity(now: Int64) -> Decision {
        if activity.allow(now: now) { return .pass }
        if activity.refusedInARow >= abuseThreshold { return .close(reason: "too many activity frames") }
        let notify = lastActivityNotice.map { now - $0 >= 1_000 } ?? true
        if notify { lastActivityNotice = now }
        return .drop(notify: notify)
    }

    /// A frame that cannot be read: answered within the budget, dropped unanswered past it.
    mutating func admitBadFrame(now: Int64) -> Decision {
        if badFrames.allow(now: now) { return .pass }
        return badFrames.refusedInARow >= abuseThreshold ? .close(reason: "too many frames that cannot be read") : .drop(notify: false)
    }
}
