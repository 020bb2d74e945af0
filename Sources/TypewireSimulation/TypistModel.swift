import TypewireCore

/// What a simulated person does at the keyboard.
public enum TypistAction: Hashable, Sendable {
    /// A keystroke that leaves text in the input.
    case keystroke
    /// The message was sent.
    case send
    /// The input was cleared (select all, delete).
    case clear
    /// The person left the conversation or put the app in the background.
    case leave
    /// The app died without a word: no stop, no close.
    case crash
}

/// One step of a typist's script.
public struct TypistEvent: Hashable, Sendable {
    /// Milliseconds since the session began.
    public var time: Int64
    /// What happened.
    public var action: TypistAction
}

/// A model of how people compose chat messages: bursts of keystrokes with short gaps, pauses to think of
/// 1-10 s, then a send, an abandoned draft (cleared, left, or simply left standing) or, now and then, a
/// crash without a stop; then a while of reading before the next draft.
public struct TypistModel: Sendable {
    /// The gap between two keystrokes inside a burst, in milliseconds.
    public var keystrokeGap: ClosedRange<Int64> = 60...400
    /// Keystrokes in one burst (about a word or a few).
    public var burstLength: ClosedRange<Int64> = 2...25
    /// Bursts in one draft.
    public var burstsPerDraft: ClosedRange<Int64> = 1...12
    /// The short gap between two bursts, in milliseconds.
    public var shortPause: ClosedRange<Int64> = 300...1_000
    /// The chance that a gap between bursts is a pause to think instead.
    public var thinkingPauseChance = 0.2
    /// A pause to think, in milliseconds.
    public var thinkingPause: ClosedRange<Int64> = 1_000...10_000
    /// How a draft ends, as weights: sent, cleared, left (or backgrounded), abandoned with text standing, crash.
    public var endings: (send: Double, clear: Double, leave: Double, abandon: Double, crash: Double) = (0.76, 0.07, 0.06, 0.08, 0.03)
    /// Reading time between drafts, in milliseconds.
    public var reading: ClosedRange<Int64> = 2_000...60_000
    /// Time to come back after a crash, in milliseconds.
    public var recovery: ClosedRange<Int64> = 5_000...30_000

    /// The default model.
    public init() {}

    /// Writes the script of one session.
    /// - Parameters:
    ///   - duration: The session's length in milliseconds; the script ends before it.
    ///   - random: The source of randomness.
    public func script(duration: Int64, random: inout SplitMix64) -> [TypistEvent] {
        var events: [TypistEvent] = []
        events.reserveCapacity(Int(duration / 250))
        var now = random.int(0...reading.upperBound / 2)
        while now < duration {
            let bursts = random.int(burstsPerDraft)
            for burst in 0..<bursts {
                if burst > 0 {
                    now += random.chance(thinkingPauseChance) ? random.int(thinkingPause) : random.int(shortPause)
                }
                for _ in 0..<random.int(burstLength) {
                    events.append(TypistEvent(time: now, action: .keystroke))
                    now += random.int(keystrokeGap)
                }
            }
            if let ending = pickEnding(&random) {
                events.append(TypistEvent(time: now, action: ending))
                if ending == .crash { now += random.int(recovery) }
            }
            now += random.int(reading)
        }
        while let last = events.last, last.time >= duration { events.removeLast() }
        return events
    }

    private func pickEnding(_ random: inout SplitMix64) -> TypistAction? {
        let total = endings.send + endings.clear + endings.leave + endings.abandon + endings.crash
        var roll = Double.random(in: 0..<total, using: &random)
        for (weight, action) in [
            (endings.send, TypistAction.send), (endings.clear, .clear), (endings.leave, .leave), (endings.crash, .crash),
        ] {
            if roll < weight { return action }
            roll -= weight
        }
        return nil  // abandoned: the text stays, the person walks away
    }
}
