import ArgumentParser
import Foundation
import TypewireBench

/// `typewire bench`: the load generator, Typewire next to the bare relay.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmark Typewire against a bare relay on loopback: latency, throughput, server CPU per frame and memory.",
        discussion: """
            Starts the relay and then Typewire (a fresh SQLite file it seeds) as child processes on free ports, opens \
            the sockets, drives typing at --rate, and prints one table: each figure for Typewire, the relay and their \
            ratio. Exits non-zero on errors or lost frames. docs/BENCHMARKS.md says how it measures.
            """
    )

    @Option(help: "Sockets in all (at most 60 000); default --conversations × --members.")
    var connections: Int?
    @Option(help: "Conversations.")
    var conversations = 100
    @Option(
        help: "Members of each conversation (default 10; 11 in scenarios tail and turns); socket s is member s / M of conversation s % M.")
    var members: Int?
    @Option(help: "Frames per second over all sockets: starts, refreshes, stops and messages.")
    var rate = 200.0
    @Option(help: "A typing session ends with a message instead of a stop once in this many sessions.")
    var messageEvery = 10
    @Option(help: "Members of each conversation who type; default all (1, the publisher, in scenarios tail, turns and receipts).")
    var typers: Int?
    @Option(help: "Scenarios tail and turns: deliveries a second of each step, e.g. 2500,5000,10000,20000 (tail's default).")
    var steps: String?
    @Option(
        help: "Scenarios tail and turns: how many times each step is measured, the targets taking turns; the table ends with the medians.")
    var rounds = 1
    @Option(
        help:
            "Scenario tail: this many more sockets, in conversations of their own; after each window a second one at the same step drops them all a second in, and they reconnect with the SDK's backoff."
    )
    var storm = 0
    @Flag(
        help:
            "Start Typewire with --stage-metrics and print where the time went, stage by stage: in each window (scenario tail) or while connecting (the others)."
    )
    var stages = false
    @Option(help: "Load before the measured window, e.g. 2s or 500ms.")
    var warmup = "2s"
    @Option(help: "The measured window, e.g. 10s (at most 10 min).")
    var duration = "10s"
    @Option(help: "Connections being opened at once.")
    var connectConcurrency = 500
    @Option(help: "Loopback source addresses 127.0.0.1 … 127.0.0.N the sockets are spread over.")
    var sourceAddresses = 8
    @Option(help: "Event-loop threads of each generator process.")
    var threads = 1
    @Option(help: "Generator processes.")
    var workers = 1
    @Option(
        help:
            "latency, connections (open N sockets, measure, close), expiry (Typewire only), tail (a publisher and 10 subscribers per conversation, p99 at each of --steps) turns (as tail, the publisher a bot streaming replies of 50 parts; steps 5500,11000,27500,55000 by default) or receipts (Typewire only: the typers send --rate messages a second, every other member reads each within a second)."
    )
    var scenario = BenchScenario.latency
    @Option(help: "both, typewire or relay.")
    var target = "both"
    @Flag(help: "Connect and subscribe only, with no load.")
    var idle = false
    @Flag(help: "Print the result as one JSON object.")
    var json = false
    @Option(help: "Bench a server that already runs at this ws:// URL (its store must hold the bench's conversations: see --seed-sqlite).")
    var url: String?
    @Option(
        help:
            "With --url: the server's PID, to read its CPU and memory from /proc; with --publisher-url, both nodes' (PID,PID): the CPU is their sum."
    )
    var serverPid: String?
    @Option(
        help:
            "With --url, scenario tail: the publishers connect to this ws:// URL instead, another node of the same cluster, so that every update crosses the cluster bus."
    )
    var publisherUrl: String?
    @Option(help: "With --url: seed the bench's users and conversations into this PostgreSQL database first (a cluster's store).")
    var seedPostgres: String?
    @Option(help: "With --url: the server's JWT secret, to mint the users' tokens.")
    var jwtSecret: String?
    @Option(help: "With --url: seed the bench's users and conversations into this SQLite file first (the server's own).")
    var seedSqlite: String?

    @Option(
        help:
            "Run the servers the bench starts on these CPUs only (a taskset list, e.g. 0); start the bench itself under taskset for the rest."
    )
    var serverCpus: String?

    @Option(help: .hidden) var worker: Int?
    @Option(help: .hidden) var goFile: String?
    @Option(help: .hidden) var workerOptions: String?

    func run() async throws {
        if let worker, let workerOptions, let goFile, let url {
            return try await WorkerMain.run(
                optionsJSON: workerOptions, url: url, jwtSecret: jwtSecret, index: worker, workers: workers, goFile: goFile)
        }
        let targets: [BenchTarget] =
            switch target {
            case "both": scenario == .expiry ? [.typewire] : [.relay, .typewire]
            case "typewire": [.typewire]
            case "relay": [.relay]
            default: throw ValidationError("--target must be both, typewire or relay.")
            }
        if url != nil, targets.count != 1 {
            throw ValidationError("With --url, say which server it is: --target typewire or --target relay.")
        }
        let tail = scenario == .tail
        let members = self.members ?? (scenario.isStepped ? 11 : 10)
        var options = BenchOptions(
            connections: connections ?? conversations * members, conversations: conversations, members: members, rate: rate,
            messageEvery: messageEvery, typers: typers ?? (scenario.isStepped || scenario == .receipts ? 1 : members),
            warmup: try Self.seconds(warmup, "--warmup"),
            duration: try Self.seconds(duration, "--duration"), connectConcurrency: connectConcurrency, sourceAddresses: sourceAddresses,
            threads: threads, scenario: scenario, idle: idle
        )
        if scenario.isStepped {
            options.steps = try steps.map(Self.steps) ?? (tail ? BenchOptions.tailSteps : BenchOptions.turnsSteps)
            options.rounds = rounds
            options.storm = storm
        }
        options.stages = stages
        options.publishersApart = publisherUrl != nil
        if let seedSqlite {
            guard url != nil else { throw ValidationError("--seed-sqlite goes with --url; without it the bench seeds its own file.") }
            try options.validate()
            try await BenchSeeder.seed(sqlite: seedSqlite, options: options)
        }
        if let seedPostgres {
            guard url != nil else { throw ValidationError("--seed-postgres goes with --url (the cluster's nodes).") }
            try options.validate()
            try await BenchSeeder.seed(postgres: seedPostgres, options: options)
        }
        if publisherUrl != nil, url == nil || !tail {
            throw ValidationError("--publisher-url goes with --url and --scenario tail.")
        }
        let pids = try (serverPid ?? "").split(separator: ",").map { text in
            guard let pid = Int32(text) else { throw ValidationError("--server-pid takes PIDs separated by commas; '\(text)' is not one.") }
            return pid
        }
        var runner = BenchRunner(
            options: options, targets: targets, workers: workers,
            external: url.map {
                .init(url: $0, pid: pids.first, jwtSecret: jwtSecret, publisherURL: publisherUrl, otherPIDs: Array(pids.dropFirst()))
            },
            progress: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        )
        runner.serverCPUs = serverCpus
        let deadline = runner.deadlineSeconds
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline) {
            FileHandle.standardError.write(Data("bench: the run passed its deadline of \(Int(deadline)) s; stopping.\n".utf8))
            ChildRegistry.shared.killAll()
            Foundation.exit(3)
        }
        let report: BenchReport
        do {
            report = try await runner.run()
        } catch let error as BenchError {
            throw CommandError(error.description)
        }
        print(json ? report.json() : report.table())
        if let failure = report.failure {
            throw CommandError("The run had errors or lost frames:\n\(failure)")
        }
    }

    /// Reads `2500,5000,10000`.
    static func steps(_ text: String) throws -> [Double] {
        try text.split(separator: ",").map { item in
            guard let value = Double(item.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("--steps \(text) is not a list of deliveries a second like 2500,5000,10000,20000.")
            }
            return value
        }
    }

    /// Reads `2s`, `500ms`, `1m` or a bare number of seconds.
    static func seconds(_ text: String, _ flag: String) throws -> Double {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            if let value = Double(text.dropLast(suffix.count)) { return value * scale }
        }
        guard let value = Double(text) else { throw ValidationError("\(flag) \(text) is not a duration like 2s, 500ms or 1m.") }
        return value
    }
}

extension BenchScenario: ExpressibleByArgument {}
