import NIOCore
import TypewireCore

/// Drives the typing load of the sockets on one event loop at a fixed share of the global rate.
///
/// The emitter's rules: a typing session is a start, refreshes every refresh interval, and a stop, or,
/// once in `messageEvery` sessions on average, a message (which clears the typing on the server). Every
/// millisecond the driver sends as many frames as keep its total at exactly `rate × elapsed` (so frames
/// are spread evenly, not sent in bursts that would queue behind each other), round robin over
/// its typing lanes; there are about `rate × refresh interval` lanes, so each typing socket is visited
/// about once per refresh interval. A lane whose session has sent ``BenchOptions/framesPerSession``
/// starts and refreshes ends it and takes the next idle socket.
///
/// In the `expiry` scenario each typing socket sends one start and never refreshes nor stops. In the `turns`
/// scenario each typing socket is a bot with a lane of its own, streaming one reply at a time:
/// ``BenchOptions/partsPerTurn`` parts, then the final part, then the next reply. In the `receipts` scenario
/// every frame is a message, from the typing sockets in turn.
final class LoadDriver {
    private struct Lane {
        var socket: Int?
        var frames = 0
    }

    private let loop: any EventLoop
    private let handlers: [BenchSocketHandler]
    private let rate: Double
    private let recipients: [Int]
    private let tally: TallyBox
    private let messageEvery: Int
    private let expiryOnly: Bool
    private let streamsTurns: Bool
    private let sendsMessages: Bool
    private var lanes: [Lane]
    private var idle: [Int]
    private var idleHead = 0
    private var cursor = 0
    private var emitted = 0
    private var random: SplitMix64
    private var task: RepeatedTask?

    /// Creates a driver; call on `loop`, with the typing sockets on that loop.
    init(
        loop: any EventLoop, handlers: [BenchSocketHandler], rate: Double, refreshMillis: Int, recipients: [Int], tally: TallyBox,
        messageEvery: Int, expiryOnly: Bool, streamsTurns: Bool = false, sendsMessages: Bool = false, seed: UInt64
    ) {
        self.sendsMessages = sendsMessages
        self.loop = loop
        self.handlers = handlers
        self.rate = rate
        self.recipients = recipients
        self.tally = tally
        self.messageEvery = messageEvery
        self.expiryOnly = expiryOnly
        self.streamsTurns = streamsTurns
        if streamsTurns { for handler in handlers { handler.beginNewTurn() } }
        let wanted = streamsTurns ? handlers.count : Int((rate * Double(refreshMillis) / 1_000).rounded(.up))
        lanes = Array(repeating: Lane(), count: expiryOnly ? 0 : max(1, min(handlers.count, wanted)))
        idle = Array(handlers.indices)
        random = SplitMix64(seed: seed)
    }

    /// Sends frames from `start` until `stop` (CLOCK_MONOTONIC nanoseconds).
    func run(from start: UInt64, until stop: UInt64) {
        guard !handlers.isEmpty, rate > 0 else { return }
        let now = BenchClock.monotonicNanos()
        let bound = NIOLoopBound(self, eventLoop: loop)
        task = loop.scheduleRepeatedTask(
            initialDelay: .nanoseconds(Int64(start > now ? start - now : 0)), delay: .milliseconds(1)
        ) { task in
            bound.value.tick(start: start, stop: stop, task: task)
        }
    }

    /// Stops sending.
    func cancel() { task?.cancel() }

    private func tick(start: UInt64, stop: UInt64, task: RepeatedTask) {
        let now = BenchClock.monotonicNanos()
        guard now < stop else { return task.cancel() }
        let due = Int(rate * Double(now - min(now, start)) / 1e9) - emitted
        guard due > 0 else { return }
        let (windowStart, windowEnd) = tally.withLock { ($0.windowStart, $0.windowEnd) }
        var counts = (activity: UInt64(0), other: UInt64(0), expected: UInt64(0))
        for _ in 0..<due {
            if expiryOnly {
                guard idleHead < idle.count else { return task.cancel() }
                let handler = handlers[idle[idleHead]]
                idleHead += 1
                let stamp = handler.sendActivity()
                if stamp >= windowStart, stamp < windowEnd {
                    counts.activity += 1
                    counts.expected += UInt64(recipients[handler.socket.conversation])
                }
            } else if sendsMessages {
                let handler = handlers[cursor % handlers.count]
                cursor = (cursor + 1) % handlers.count
                handler.sendMessage()
                let now = BenchClock.monotonicNanos()
                if now >= windowStart, now < windowEnd { counts.other += 1 }
            } else {
                counts = step(counts, windowStart: windowStart, windowEnd: windowEnd)
            }
            emitted += 1
        }
        tally.withLock { state in
            state.tally.activitySent += counts.activity
            state.tally.otherSent += counts.other
            if expiryOnly { state.tally.expectedExpiries += counts.expected }
            state.tally.expectedSamples += counts.expected
        }
    }

    /// One frame from the next lane.
    private func step(
        _ counts: (activity: UInt64, other: UInt64, expected: UInt64), windowStart: UInt64, windowEnd: UInt64
    ) -> (activity: UInt64, other: UInt64, expected: UInt64) {
        var counts = counts
        let index = cursor
        cursor = (cursor + 1) % lanes.count
        if lanes[index].socket == nil {
            lanes[index] = Lane(socket: takeIdle(), frames: 0)
        }
        let socket = lanes[index].socket!
        let handler = handlers[socket]
        if streamsTurns {
            if handler.partsInTurn < BenchOptions.partsPerTurn {
                let stamp = handler.sendPart()
                if stamp >= windowStart, stamp < windowEnd {
                    counts.activity += 1
                    counts.expected += UInt64(recipients[handler.socket.conversation])
                }
            } else {
                handler.sendFinalPart()
                let now = BenchClock.monotonicNanos()
                if now >= windowStart, now < windowEnd { counts.other += 1 }
            }
            return counts
        }
        if lanes[index].frames < BenchOptions.framesPerSession {
            lanes[index].frames += 1
            let stamp = handler.sendActivity()
            if stamp >= windowStart, stamp < windowEnd {
                counts.activity += 1
                counts.expected += UInt64(recipients[handler.socket.conversation])
            }
        } else {
            if random.next() % UInt64(messageEvery) == 0 { handler.sendMessage() } else { handler.sendStop() }
            let now = BenchClock.monotonicNanos()
            if now >= windowStart, now < windowEnd { counts.other += 1 }
            idle.append(socket)
            lanes[index] = Lane(socket: nil, frames: 0)
        }
        return counts
    }

    private func takeIdle() -> Int {
        if idleHead > 4_096, idleHead * 2 > idle.count {
            idle.removeFirst(idleHead)
            idleHead = 0
        }
        let socket = idle[idleHead]
        idleHead += 1
        return socket
    }
}
