import TypewireCore

/// A frame on the simulated wire.
enum SimulatedFrame: Hashable {
    case typing
    case stop
}

/// One sender of a policy, fed the typist's actions; times in milliseconds.
struct SimulatedSender {
    private enum Machine {
        case throttled(throttle: Int64, idleStop: Int64?, idleFromLastWrite: Bool)
        case fixedStop(after: Int64)
        case typewire(TypingEmitter<SimulatedInstant>)
    }

    private var machine: Machine
    private var announced = false
    private var lastWrite: Int64 = .min / 2
    private var lastKeystroke: Int64 = .min / 2
    private var timer: Int64?

    init(_ sender: SenderPolicy.Sender) {
        switch sender {
        case .throttled(let throttle, let idleStop, let idleFromLastWrite):
            machine = .throttled(throttle: throttle, idleStop: idleStop, idleFromLastWrite: idleFromLastWrite)
        case .fixedStop(let after):
            machine = .fixedStop(after: after)
        case .typewire(let refresh, let idle):
            machine = .typewire(
                TypingEmitter(configuration: .init(refreshInterval: .milliseconds(refresh), idleTimeout: .milliseconds(idle))))
        }
    }

    /// When the sender next acts on its own.
    var nextDeadline: Int64? {
        switch machine {
        case .throttled(_, let idleStop, let idleFromLastWrite):
            guard announced, let idleStop else { return nil }
            return (idleFromLastWrite ? lastWrite : lastKeystroke) + idleStop
        case .fixedStop:
            return timer
        case .typewire(let emitter):
            return emitter.nextDeadline?.milliseconds
        }
    }

    mutating func tick(at now: Int64) -> SimulatedFrame? {
        switch machine {
        case .throttled, .fixedStop:
            guard let deadline = nextDeadline, now >= deadline else { return nil }
            timer = nil
            return stop()
        case .typewire(var emitter):
            let frame = emitter.tick(now: SimulatedInstant(milliseconds: now))
            machine = .typewire(emitter)
            return frame.map(Self.wire)
        }
    }

    mutating func handle(_ action: TypistAction, at now: Int64) -> SimulatedFrame? {
        switch machine {
        case .typewire(var emitter):
            let input: TypingEmitter<SimulatedInstant>.Input
            switch action {
            case .keystroke: input = .textChanged("x")
            case .send: input = .messageSent
            case .clear: input = .inputCleared
            case .leave: input = .leftConversation
            case .crash: return nil
            }
            let frame = emitter.handle(input, now: SimulatedInstant(milliseconds: now))
            machine = .typewire(emitter)
            return frame.map(Self.wire)
        case .throttled(let throttle, _, _):
            guard action == .keystroke else { return stop() }
            lastKeystroke = now
            guard now - lastWrite >= throttle else { return nil }
            lastWrite = now
            announced = true
            return .typing
        case .fixedStop(let after):
            guard action == .keystroke else {
                timer = nil
                return stop()
            }
            guard timer == nil else { return nil }
            timer = now + after
            announced = true
            return .typing
        }
    }

    private mutating func stop() -> SimulatedFrame? {
        guard announced else { return nil }
        announced = false
        return .stop
    }

    private static func wire(_ frame: TypingEmitter<SimulatedInstant>.Frame) -> SimulatedFrame {
        frame == .stop ? .stop : .typing
    }
}
