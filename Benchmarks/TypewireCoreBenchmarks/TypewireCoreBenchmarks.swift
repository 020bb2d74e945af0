// Micro-benchmarks of TypewireCore's hot paths.
//
// Every benchmark runs an inner loop of 1,000 operations (`scalingFactor: .kilo`), so the figures that the
// benchmark tool marks with `*` (wall clock, CPU time, mallocs, throughput) are per operation: per keystroke,
// per formatted text, per applied update, per decoded frame. Inputs are built before the measured region.

import Benchmark
import Foundation
import TypewireCore

typealias Emitter = TypingEmitter<ContinuousClock.Instant>
typealias Roster = TypingRoster<ContinuousClock.Instant>

// MARK: - Inputs

/// What a composer reports, with the instant it happens.
struct ScriptedEvent {
    var input: Emitter.Input
    var now: ContinuousClock.Instant
}

/// A realistic composer session: messages typed one character at a time, 120 ms apart, with a typo fixed by
/// backspace, a 4 s pause in the middle of each message (so the idle stop fires through `tick`), and
/// `messageSent` after each message. The script repeats until it holds `count` events; about 97 % of the
/// events are keystrokes (`textChanged`).
func composerScript(count: Int, base: ContinuousClock.Instant) -> [ScriptedEvent] {
    let messages = [
        "Hey! Are we still on for lunch tomorrow?",
        "I can do 12:30 at the usual place, or 1 if that works better for you.",
        "Also, did you see the notes from the design review? 👀 Some of it is about the typing indicator.",
        "Größe passt, danke! Bis morgen 🙂",
        "ok",
    ]
    var events: [ScriptedEvent] = []
    events.reserveCapacity(count)
    var elapsed = Duration.zero
    func add(_ input: Emitter.Input, after gap: Duration) {
        elapsed += gap
        events.append(ScriptedEvent(input: input, now: base + elapsed))
    }
    while events.count < count {
        for message in messages where events.count < count {
            let characters = Array(message)
            for length in 1...characters.count {
                add(.textChanged(String(characters[..<length])), after: .milliseconds(120))
                if length == characters.count / 2 {
                    // A typo and its fix, then a pause long enough for the idle stop.
                    add(.textChanged(String(characters[..<length]) + "x"), after: .milliseconds(120))
                    add(.textChanged(String(characters[..<length])), after: .milliseconds(200))
                    elapsed += .seconds(4)
                }
            }
            add(.messageSent, after: .milliseconds(300))
            elapsed += .seconds(10)
        }
    }
    return Array(events.prefix(count))
}

let names = ["Alice", "Bob", "Charlie", "Dana Whitfield", "Maximilianus Archibald"]

func typers(_ count: Int, activity: Activity = .typing) -> [Typer] {
    (0..<count).map { Typer(userID: "u\($0)", name: names[$0 % names.count], activity: activity) }
}

func activityUpdate(entries count: Int, serverTime: Int64) -> ActivityUpdate {
    let entries = (0..<count).map { index in
        ActivityEntry(
            user: "u\(index)",
            name: names[index % names.count],
            activity: index == count - 1 ? .thinking : .typing,
            since: serverTime - 5_000 + Int64(index) * 300,
            expiresAt: serverTime + 6_000
        )
    }
    return ActivityUpdate(conversation: "c-42", entries: entries, serverTime: serverTime)
}

// MARK: - Benchmarks

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 1_000_000
    )

    // 1. The sender's machine, per composer event, driven as a shell drives it: when the deadline the
    //    emitter asked for has passed, the timer fires `tick(now: deadline)`; then the event is handled.
    Benchmark("Emitter: keystroke (handle + nextDeadline/tick)") { benchmark in
        let script = composerScript(count: benchmark.scaledIterations.count, base: .now)
        var frames = 0
        benchmark.startMeasurement()
        var emitter = Emitter()
        for index in benchmark.scaledIterations {
            let event = script[index]
            if let deadline = emitter.nextDeadline, deadline <= event.now, emitter.tick(now: deadline) != nil {
                frames &+= 1
            }
            if emitter.handle(event.input, now: event.now) != nil {
                frames &+= 1
            }
        }
        benchmark.stopMeasurement()
        blackHole(frames)
    }

    // The same with a long draft (a 4 KB paste being edited): text that starts with a visible character is O(1).
    Benchmark("Emitter: keystroke on a 4 KB draft") { benchmark in
        let base = ContinuousClock.now
        let draft = String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 72)
        let inputs = benchmark.scaledIterations.map { Emitter.Input.textChanged(draft + String($0 % 10)) }
        let instants = benchmark.scaledIterations.map { base + .milliseconds($0 * 120) }
        var frames = 0
        benchmark.startMeasurement()
        var emitter = Emitter()
        for index in benchmark.scaledIterations {
            let now = instants[index]
            if let deadline = emitter.nextDeadline, deadline <= now, emitter.tick(now: deadline) != nil {
                frames &+= 1
            }
            if emitter.handle(inputs[index], now: now) != nil {
                frames &+= 1
            }
        }
        benchmark.stopMeasurement()
        blackHole(frames)
    }

    // 2. The words of the indicator.
    let english = TypingText()
    for count in [1, 3, 5] {
        let members = typers(count)
        Benchmark("TypingText: text, en, \(count) typer\(count == 1 ? "" : "s")") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(english.text(for: members))
            }
        }
    }

    // A large group: the sentence still shows two names and a count ("Alice, Bob, and 18 others").
    let twentyTypers = typers(20)
    Benchmark("TypingText: text, en, 20 typers") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(english.text(for: twentyTypers))
        }
    }

    let german = TypingText(configuration: .init(locale: .german))
    let fourTypers = typers(4)
    Benchmark("TypingText: text, de, 4 typers") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(german.text(for: fourTypers))
        }
    }

    let threeTypers = typers(3)
    Benchmark("TypingText: accessibilityText, en, 3 typers") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(english.accessibilityText(for: threeTypers))
        }
    }

    let mixed = typers(2) + [Typer(userID: "bot", name: "Clawd", activity: .toolUse("web_search"))]
    Benchmark("TypingText: text, en, 3 typers, 2 activities") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(english.text(for: mixed))
        }
    }

    // 3. The receiver: the server's activity update into the roster, and a client frame off the wire.
    let update = activityUpdate(entries: 5, serverTime: 1_750_000_000_000)
    let participants = Set((0..<8).map { "u\($0)" } + ["me"])
    Benchmark("TypingRoster: apply, 5 entries") { benchmark in
        let base = ContinuousClock.now
        let instants = benchmark.scaledIterations.map { base + .milliseconds($0 * 500) }
        var roster = Roster(currentUserID: "me", participants: participants)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            roster.apply(update, now: instants[index])
        }
        benchmark.stopMeasurement()
        blackHole(roster)
    }

    Benchmark("Receiver: apply + typers(at:) + text, 5 entries") { benchmark in
        let base = ContinuousClock.now
        let instants = benchmark.scaledIterations.map { base + .milliseconds($0 * 500) }
        var roster = Roster(currentUserID: "me", participants: participants)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            roster.apply(update, now: instants[index])
            blackHole(english.text(for: roster.typers(at: instants[index])))
        }
        benchmark.stopMeasurement()
    }

    // The server's hot encoding: one `activity` frame per change, shared by every subscriber.
    let activityServerFrame = ServerFrame.activity(activityUpdate(entries: 3, serverTime: 1_750_000_000_000))
    Benchmark("FrameCodec: encode activity, 3 entries, JSONEncoder (before)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(String(decoding: FrameCodec.encode(activityServerFrame), as: UTF8.self))
        }
    }

    Benchmark("FrameCodec: encodeText activity, 3 entries, written by hand (after)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(FrameCodec.encodeText(activityServerFrame))
        }
    }

    let activityFrame = Data(#"{"type":"activity","conversation":"c-42","activity":"typing"}"#.utf8)
    Benchmark(
        "FrameCodec: decodeClientFrame, activity",
        configuration: .init(
            setup: {
                // Guard against measuring the error path.
                guard case .activity = try? FrameCodec.decodeClientFrame(activityFrame) else {
                    fatalError("the activity frame no longer decodes")
                }
            }
        )
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? FrameCodec.decodeClientFrame(activityFrame))
        }
    }
}
