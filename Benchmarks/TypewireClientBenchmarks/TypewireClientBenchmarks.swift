// Micro-benchmarks of TypewireClient's per-keystroke path: what `Composer.textDidChange(_:)` costs the caller.
//
// Every benchmark runs an inner loop of 1,000 operations (`scalingFactor: .kilo`), so the figures that the
// benchmark tool marks with `*` (wall clock, CPU time, mallocs, throughput) are per keystroke. The texts are
// built before the measured region.
//
// The composer comes from a client that never runs (no server): it starts disconnected, so its keystrokes
// update the emitter and send nothing. That is the caller's cost of a keystroke that sends no frame, which
// is nearly every keystroke (a typist sends a start, then a refresh every 2 s from the composer's timer).

import Benchmark
import TypewireClient

/// What the user types at the end of the draft, one character per keystroke.
let sentence = Array("Sounds good, see you")

/// The texts of 1,000 keystrokes: `draft` followed by a growing prefix of `sentence` (1 to 20 characters,
/// then again), so every call sees a different text than the one before, as in a text field.
func keystrokes(after draft: String, count: Int) -> [String] {
    let texts = (1...sentence.count).map { draft + String(sentence[..<$0]) }
    return (0..<count).map { texts[$0 % texts.count] }
}

/// A draft of about `bytes` bytes of ASCII prose, ending in a space.
func draft(bytes: Int) -> String {
    let line = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. "
    return String(repeating: line, count: bytes / line.utf8.count)
}

/// Feeds the texts to a fresh composer of a client that is never run, one `textDidChange` per operation.
func measureKeystrokes(_ benchmark: Benchmark, texts: [String]) async {
    let client = TypewireClient(url: "ws://127.0.0.1:9/v1/socket") { "token" }
    let chat = await client.conversation("c")
    let composer = await chat.composer()
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
        composer.textDidChange(texts[index])
    }
    benchmark.stopMeasurement()
    await chat.close()
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 1_000_000
    )

    let count = 1_000  // `benchmark.scaledIterations.count` with `.kilo`
    for (name, bytes) in [("a short draft", 0), ("a 4 KB draft", 4_096), ("a 100 KB draft", 102_400)] {
        let texts = keystrokes(after: draft(bytes: bytes), count: count)
        Benchmark("Composer: keystroke on \(name)") { benchmark in
            precondition(benchmark.scaledIterations.count == texts.count)
            await measureKeystrokes(benchmark, texts: texts)
        }
    }
}
