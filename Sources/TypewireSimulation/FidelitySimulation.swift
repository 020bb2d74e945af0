import Foundation
import TypewireCore

/// The typing-fidelity simulator: many simulated typists, each sender policy played over the same
/// scripts, the receiver's indicator compared with the truth. Deterministic: the same configuration and
/// seed give the same report on any machine and any number of cores.
public struct FidelitySimulation: Sendable {
    /// What to simulate.
    public struct Configuration: Sendable {
        /// Simulated typist-hours (each an independent one-hour session).
        public var hours: Int
        /// The seed of every random choice.
        public var seed: UInt64
        /// The typists.
        public var typist: TypistModel
        /// The network between sender and receiver.
        public var network: NetworkModel
        /// The policies to compare, each played over the same scripts.
        public var policies: [SenderPolicy]
        /// The idle timeout that defines the truth: someone is typing if a keystroke came within it.
        public var idleTimeout: Int64
        /// A gap in the indicator at most this long while typing goes on is a flicker (ms).
        public var flickerWindow: Int64

        /// Creates a configuration; by default the seeds' policies, another system's, and Typewire's.
        public init(
            hours: Int = 1_000, seed: UInt64 = 1, typist: TypistModel = .init(), network: NetworkModel = .init(),
            policies: [SenderPolicy] = Self.standardPolicies(), idleTimeout: Int64 = 3_000, flickerWindow: Int64 = 1_000
        ) {
            self.hours = hours
            self.seed = seed
            self.typist = typist
            self.network = network
            self.policies = policies
            self.idleTimeout = idleTimeout
            self.flickerWindow = flickerWindow
        }

        /// The seeds' three policies, a periodic one, and Typewire's defaults.
        /// - Parameter disconnectDetection: How long a server takes to notice a silently dead client (ms).
        public static func standardPolicies(disconnectDetection: Int64 = 30_000) -> [SenderPolicy] {
            [.seedOneSecond, .seedHalfSecond, .seedFixedStop(disconnectDetection: disconnectDetection), .periodic, .typewire()]
        }
    }

    /// The figures of one policy.
    public struct Result: Sendable {
        /// The policy's name.
        public var policy: String
        /// Share of time the indicator matched the truth.
        public var accuracy: Double
        /// Time from the first keystroke of a spell to the indicator showing, median and 99th percentile (ms).
        public var timeToShow: (p50: Int64, p99: Int64)
        /// Time from the real end of typing to the indicator hiding, 99th percentile (ms).
        public var timeToHideP99: Int64
        /// The longest time the indicator showed while no one typed (ms).
        public var longestStale: Int64
        /// Gaps of at most the flicker window while typing went on.
        public var flickers: Int
        /// Frames sent per minute of typing.
        public var framesPerTypingMinute: Double
        /// Spells of typing the receiver never saw.
        public var missedSpells: Int
        /// Spells of typing in all.
        public var typingSpells: Int
    }

    /// The configuration.
    public let configuration: Configuration

    /// Creates a simulator.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    private static let sessionLength: Int64 = 3_600_000

    /// Runs the simulation on all cores.
    public func run() async -> [Result] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, configuration.hours))
        let tallies = await withTaskGroup(of: [FidelityTally].self) { group in
            for worker in 0..<workers {
                group.addTask { self.simulate(hours: stride(from: worker, to: self.configuration.hours, by: workers)) }
            }
            var merged = Array(repeating: FidelityTally(), count: configuration.policies.count)
            for await part in group {
                for index in merged.indices { merged[index].merge(part[index]) }
            }
            return merged
        }
        return zip(configuration.policies, tallies).map { policy, tally in
            Result(
                policy: policy.name,
                accuracy: 1 - Double(tally.mismatchTime) / Double(max(1, tally.sessionTime)),
                timeToShow: (tally.timeToShow.value(at: 0.5), tally.timeToShow.value(at: 0.99)),
                timeToHideP99: tally.timeToHide.value(at: 0.99),
                longestStale: tally.longestStale,
                flickers: tally.flickers,
                framesPerTypingMinute: Double(tally.framesSent) / (Double(max(1, tally.typingTime)) / 60_000),
                missedSpells: tally.missedSpells,
                typingSpells: tally.typingSpells
            )
        }
    }

    /// Simulates some of the hours; the scripts and the networks depend only on the seed and the hour.
    func simulate(hours: some Sequence<Int>) -> [FidelityTally] {
        var tallies = Array(repeating: FidelityTally(), count: configuration.policies.count)
        for hour in hours {
            var random = SplitMix64.stream(seed: configuration.seed, hour)
            let script = configuration.typist.script(duration: Self.sessionLength, random: &random)
            let truth = truthIntervals(of: script, idleTimeout: configuration.idleTimeout, duration: Self.sessionLength)
            for (index, policy) in configuration.policies.enumerated() {
                // Every policy meets the same network luck (common random numbers), wherever it is listed.
                var network = SplitMix64.stream(seed: configuration.seed, hour, 1)
                let timeline = IndicatorTimeline(
                    policy: policy, script: script, network: configuration.network, duration: Self.sessionLength, random: &network
                )
                tallies[index].record(
                    truth: truth, shown: timeline.shown, framesSent: timeline.framesSent, duration: Self.sessionLength,
                    flickerWindow: configuration.flickerWindow
                )
            }
        }
        return tallies
    }
}

extension FidelitySimulation.Result {
    /// The results as a Markdown table.
    public static func table(_ results: [Self]) -> String {
        var lines = [
            "| policy | accuracy | show p50 | show p99 | hide p99 | longest stale | flickers | frames / typing min |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for result in results {
            let cells = [
                result.policy,
                String(format: "%.2f %%", result.accuracy * 100),
                "\(result.timeToShow.p50) ms",
                "\(result.timeToShow.p99) ms",
                "\(result.timeToHideP99) ms",
                String(format: "%.1f s", Double(result.longestStale) / 1_000),
                "\(result.flickers)",
                String(format: "%.1f", result.framesPerTypingMinute),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
