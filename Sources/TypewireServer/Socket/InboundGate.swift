import TypewireCore

/// One socket's budgets, applied on the socket's event loop (SocketStateMachine) before a frame reaches the hub, which every
/// socket shares: a flooder costs the others no hub time. A pure value fed the server's time.
///
/// - Messages (`send`, `edit`, a final `stream` part), reply parts and `subscribe` are refused one by one
///   past their budgets, each refusal answered with `rate_limited` and the frame's `ref`, so the client
///   can send it again.
/// - Activity starts and refreshes past their budget are dropped (the next refresh carries the state).
/// - Every other frame (stops, `unsubscribe`, a second `hello`), every activity start that passed its
///   own budget, and every ping, pong and fragment before a message's last takes a token of the socket's
///   frame budget; past it frames are dropped.
/// - Frames that cannot be read are answered within a budget of their own, then dropped.
///
/// Drops are told to the client at most once a second; ``ServerConfiguration/Budgets/abuseThreshold`` drops of
/// one budget within a second close the socket (a client a little over a budget loses the excess; a
/// flood is cut off).
struct InboundGate {
    /// What to do with a frame.
    enum Decision: Equatable {
        /// Let it through (for a bad frame: answer it).
        case pass
        /// Refuse it and answer with `rate_limited` (this failure).
        case refuse(ServerFrame.Failure)
        /// Drop it; `notify` says whether to tell the client (at most once a second).
        case drop(notify: Bool)
        /// Drop it and close the socket with the policy-violation code: it keeps flooding.
        case close(reason: String)
    }

    /// What the gate reads of the configuration (not all of it: every socket holds a gate).
    private let abuseThreshold: Int
    private let subscribeRate: Double
    private let streamRate: Double
    private let messageRate: Double
    private let readRate: Double
    private var activity: Budget
    private var deliveries: Budget
    private var frames: Budget
    private var badFrames: Budget
    private var messages: RateLimiter
    private var replyParts: RateLimiter
    private var subscribes: RateLimiter
    private var reads: RateLimiter

    init(_ budgets: ServerConfiguration.Budgets) {
        abuseThreshold = budgets.abuseThreshold
        subscribeRate = budgets.subscribes.rate
        streamRate = budgets.replyParts.rate
        messageRate = budgets.messages.rate
        readRate = budgets.reads.rate
        activity = Budget(RateLimiter(budgets.activity))
        deliveries = Budget(RateLimiter(budgets.deliveries))
        frames = Budget(RateLimiter(budgets.frames))
        badFrames = Budget(RateLimiter(budgets.badFrames))
        messages = RateLimiter(budgets.messages)
        replyParts = RateLimiter(budgets.replyParts)
        subscribes = RateLimiter(budgets.subscribes)
        reads = RateLimiter(budgets.reads)
    }

    /// A frame that could be read.
    mutating func check(_ frame: ClientFrame, now: Int64) -> Decision {
        let abuse = abuseThreshold
        switch frame {
        case .subscribe(let subscribe):
            guard subscribes.allow(now: now) else {
                return refusal(
                    subscribe.conversation, request: .subscribe,
                    "More than \(Int(subscribeRate)) subscribes a second: this one was refused; subscribe again shortly.")
            }
        case .send(let send):
            return checkMessage(ref: send.clientMessageId, request: .send, now: now)
        case .edit(let edit):
            return checkMessage(ref: edit.messageId, request: .edit, now: now)
        case .read(let read):
            guard reads.allow(now: now) else {
                return refusal(
                    read.messageId, request: .read,
                    "More than \(Int(readRate)) reads a second: this one was not recorded; send your newest read again shortly.")
            }
        case .delivered:
            // A delivered mark covers the ones before it: the excess is dropped, as activity's is.
            let decision = deliveries.take(now: now, abuseThreshold: abuse, reason: "too many delivered frames")
            guard decision == .pass else { return decision }
            return frames.take(now: now, abuseThreshold: abuse, reason: "too many frames")
        case .markUnread(let mark):
            guard reads.allow(now: now) else {
                return refusal(
                    mark.messageId, request: .markUnread,
                    "More than \(Int(readRate)) reads and marks a second: this mark was not recorded; send it again shortly.")
            }
        case .stream(let part) where part.isFinal:
            return checkMessage(ref: part.messageId, request: .stream, now: now)
        case .stream(let part):
            guard replyParts.allow(now: now) else {
                return refusal(
                    part.messageId, request: .stream,
                    "More than \(Int(streamRate)) reply parts a second: this part was not sent; send the whole text with the final part.")
            }
        case .activity(let request) where request.activity.isActive:
            let decision = activity.take(now: now, abuseThreshold: abuse, reason: "too many activity frames")
            guard decision == .pass else { return decision }
            return frames.take(now: now, abuseThreshold: abuse, reason: "too many frames")
        case .activity, .unsubscribe, .hello, .refresh, .cancel:
            return frames.take(now: now, abuseThreshold: abuse, reason: "too many frames")
        }
        return .pass
    }

    /// A control frame (ping, pong) or a fragment of a message that is not its last: each takes a token of the
    /// frame budget, so that a flood of them is cut off as any other. Past the budget a ping goes unanswered
    /// and a pong is ignored; a fragment cannot be dropped (its message would change), so it passes, and the
    /// drops are counted all the same.
    mutating func checkControl(now: Int64) -> Decision {
        let decision = frames.take(now: now, abuseThreshold: abuseThreshold, reason: "too many frames")
        return if case .drop = decision { .drop(notify: false) } else { decision }
    }

    /// A frame that cannot be read: answered within the budget, dropped unanswered past it.
    mutating func checkBadFrame(now: Int64) -> Decision {
        let decision = badFrames.take(now: now, abuseThreshold: abuseThreshold, reason: "too many frames that cannot be read")
        return if case .drop = decision { .drop(notify: false) } else { decision }
    }

    private mutating func checkMessage(ref: String, request: ClientFrame.Kind, now: Int64) -> Decision {
        guard messages.allow(now: now) else {
            return refusal(
                ref, request: request, "More than \(Int(messageRate)) messages a second: this one was not stored; send it again shortly.")
        }
        return .pass
    }

    private func refusal(_ ref: String, request: ClientFrame.Kind, _ message: String) -> Decision {
        .refuse(.init(code: .rateLimited, message: message, ref: ref, request: request))
    }

    /// A token bucket whose drops are told to the client at most once a second, and which closes the
    /// socket after `abuseThreshold` drops within a second.
    private struct Budget {
        var limiter: RateLimiter
        /// When the current second of drops began, and the drops in it.
        var window: (start: Int64, drops: Int)?
        var lastNotice: Int64?

        init(_ limiter: RateLimiter) {
            self.limiter = limiter
        }

        mutating func take(now: Int64, abuseThreshold: Int, reason: String) -> Decision {
            if limiter.allow(now: now) { return .pass }
            if let current = window, now - current.start < 1_000 {
                window = (current.start, current.drops + 1)
            } else {
                window = (now, 1)
            }
            if window!.drops >= abuseThreshold { return .close(reason: reason) }
            let notify = lastNotice.map { now - $0 >= 1_000 } ?? true
            if notify { lastNotice = now }
            return .drop(notify: notify)
        }
    }
}
