import TypewireCore

/// A half-open span of simulated time, in milliseconds.
struct Interval: Hashable {
    var start: Int64
    var end: Int64
    var length: Int64 { end - start }
}

/// Plays one typist's script through one policy: sender, network, receiver.
struct IndicatorTimeline {
    /// When the receiver showed the indicator.
    var shown: [Interval] = []
    /// Frames the sender put on the wire.
    var framesSent = 0

    private struct Delivery {
        var time: Int64
        var frame: SimulatedFrame
        var session: Int
    }

    init(policy: SenderPolicy, script: [TypistEvent], network: NetworkModel, duration: Int64, random: inout SplitMix64) {
        var deliveries: [Delivery] = []
        var crashes: [(time: Int64, session: Int)] = []
        var lastDelivery: Int64 = 0
        var session = 0

        func transmit(_ frame: SimulatedFrame, at time: Int64, reliable: Bool, counted: Bool) {
            if counted { framesSent += 1 }
            var arrival = network.arrival(sentAt: time, random: &random)
            if arrival == nil && reliable {
                // A message is retried until acknowledged; model the retry as one more round trip.
                arrival = time + 2 * network.usualWorstDelay
            }
            guard let arrival else { return }
            lastDelivery = max(lastDelivery, arrival)
            deliveries.append(Delivery(time: lastDelivery, frame: frame, session: session))
        }

        var sender = SimulatedSender(policy.sender)
        /// Runs the sender's timers that fall before `time`; an action at the same instant goes first.
        func runDeadlines(until time: Int64) {
            while let deadline = sender.nextDeadline, deadline < time {
                if let frame = sender.tick(at: deadline) {
                    transmit(frame, at: deadline, reliable: false, counted: true)
                } else {
                    // A machine must move its deadline when it is ticked at it; one that does not is broken.
                    precondition(sender.nextDeadline != deadline, "the sender's deadline did not move after tick(at:)")
                }
            }
        }
        for event in script {
            runDeadlines(until: event.time)
            if event.action == .crash {
                crashes.append((event.time, session))
                session += 1
                sender = SimulatedSender(policy.sender)
                continue
            }
            if let frame = sender.handle(event.action, at: event.time) {
                let withMessage = policy.stopRidesWithMessage && event.action == .send
                transmit(frame, at: event.time, reliable: withMessage, counted: !withMessage)
            }
        }
        runDeadlines(until: duration)

        receive(deliveries, crashes: crashes, cleanup: policy.cleanup, duration: duration, random: &random)
    }

    /// The receiver: shows on "typing", hides on "stop", on expiry, on the sweep, on the disconnect hook.
    private mutating func receive(
        _ deliveries: [Delivery], crashes: [(time: Int64, session: Int)], cleanup: SenderPolicy.Cleanup, duration: Int64,
        random: inout SplitMix64
    ) {
        var isOn = false
        var onSince: Int64 = 0
        var expiresAt = Int64.max
        var lastWrite: Int64 = 0
        var writerSession = 0
        var nextSweep = cleanup.sweep.map { random.int(0...$0.period - 1) } ?? .max
        let hooks = cleanup.onDisconnect.map { delay in crashes.map { (time: $0.time + delay, session: $0.session) } } ?? []
        var nextHook = 0

        func hide(at time: Int64) {
            guard isOn else { return }
            isOn = false
            shown.append(Interval(start: onSince, end: time))
        }
        func show(at time: Int64) {
            guard !isOn else { return }
            isOn = true
            if let last = shown.last, last.end == time {
                onSince = shown.removeLast().start
            } else {
                onSince = time
            }
        }
        func runTimers(before time: Int64) {
            while true {
                let expiry = isOn ? expiresAt : .max
                let hook = nextHook < hooks.count ? hooks[nextHook].time : .max
                let next = min(expiry, nextSweep, hook)
                guard next < time else { return }
                if next == expiry {
                    hide(at: expiry)
                } else if next == nextSweep {
                    if let sweep = cleanup.sweep {
                        if isOn && next - lastWrite > sweep.staleAfter { hide(at: next) }
                        nextSweep += sweep.period
                    }
                } else {
                    if isOn && writerSession == hooks[nextHook].session { hide(at: hook) }
                    nextHook += 1
                }
            }
        }

        for delivery in deliveries where delivery.time < duration {
            runTimers(before: delivery.time)
            switch delivery.frame {
            case .typing:
                show(at: delivery.time)
                lastWrite = delivery.time
                writerSession = delivery.session
                expiresAt = cleanup.expiry.map { delivery.time + $0 } ?? .max
            case .stop:
                hide(at: delivery.time)
            }
        }
        runTimers(before: duration)
        hide(at: duration)
    }
}
