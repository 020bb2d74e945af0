import ArgumentParser
import Foundation
import TypewireCore
import TypewireSimulation

/// `typewire simulate`: compares sender policies on simulated typists.
struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Simulate typing fidelity: how well each sender policy's indicator follows real typing.",
        discussion: """
            Plays the same deterministic typist scripts through the seeds' policies, a periodic one and \
            Typewire's, over a network with delay, jitter and loss, and prints one row per policy. \
            The same seed always gives the same table.
            """
    )

    @Option(help: "Simulated typist-hours.")
    var hours = 1_000

    @Option(help: "Seed of every random choice.")
    var seed: UInt64 = 1

    @Option(help: "Least one-way network delay, in milliseconds.")
    var delay: Int64 = 40

    @Option(help: "Extra random delay, up to this many milliseconds.")
    var jitter: Int64 = 60

    @Option(help: "Chance that a frame's packet is lost and retransmitted by TCP (0...1).")
    var loss = 0.02

    @Option(help: "TCP's first retransmission timeout, in milliseconds (doubles on each try).")
    var rto: Int64 = 200

    @Option(help: "Chance that a frame is lost outright, as when a connection dies (0...1).")
    var drop = 0.002

    @Option(help: "Typewire's refresh interval (throttle), in milliseconds.")
    var refresh: Int64 = 2_000

    @Option(help: "Typewire's activity ttl on the server, in milliseconds.")
    var ttl: Int64 = 4_800

    @Option(help: "How long a disconnect hook takes to notice a silently dead client, in milliseconds.")
    var disconnectDetection: Int64 = 30_000

    @Flag(help: "Instead of the comparison, sweep Typewire's refresh interval and ttl.")
    var sweep = false

    func validate() throws {
        guard hours > 0 else { throw ValidationError("--hours must be at least 1.") }
        guard (0...1).contains(loss), (0...1).contains(drop) else {
            throw ValidationError("--loss and --drop are probabilities between 0 and 1.")
        }
        guard rto > 0 else { throw ValidationError("--rto must be positive.") }
        guard delay >= 0, jitter >= 0 else { throw ValidationError("--delay and --jitter cannot be negative.") }
        guard refresh > 0, ttl > 0 else { throw ValidationError("--refresh and --ttl must be positive.") }
    }

    func run() async throws {
        let policies: [SenderPolicy]
        if sweep {
            policies = [1_000, 1_500, 2_000, 2_500, 3_000].flatMap { refresh in
                [3_000, 4_000, 4_500, 4_800, 5_000, 6_000].compactMap { ttl in
                    ttl > refresh ? SenderPolicy.typewire(refresh: refresh, ttl: ttl) : nil
                }
            }
        } else {
            var standard = FidelitySimulation.Configuration.standardPolicies(disconnectDetection: disconnectDetection)
            standard[standard.count - 1] = .typewire(refresh: refresh, ttl: ttl)
            policies = standard
        }
        let configuration = FidelitySimulation.Configuration(
            hours: hours, seed: seed,
            network: NetworkModel(delay: delay, jitter: jitter, loss: loss, retransmissionTimeout: rto, drop: drop),
            policies: policies
        )
        let clock = ContinuousClock()
        let start = clock.now
        let results = await FidelitySimulation(configuration: configuration).run()
        let elapsed = start.duration(to: clock.now)
        print(FidelitySimulation.Result.table(results))
        print("")
        print(
            "\(hours) typist-hours, seed \(seed), network \(delay)+\(jitter) ms, loss \(loss) (rto \(rto) ms), drop \(drop); \(policies.count) policies in \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 2))))"
        )
    }
}
