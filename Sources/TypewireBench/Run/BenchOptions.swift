/// What `typewire bench` measures.
public enum BenchScenario: String, Codable, Sendable, CaseIterable {
    /// Typing load at a fixed rate: latency, throughput, server CPU per delivered frame.
    case latency
    /// Open N sockets and close them: connections per second and server memory per connection.
    case connections
    /// Typewire only: starts that are never refreshed, and how late their entries disappear.
    case expiry
    /// The tail: one publisher beside each conversation's subscribers, open loop, at each of
    /// ``BenchOptions/steps`` deliveries a second in turn, every target measured at each step before the next.
    case tail
    /// Bots' replies: as `tail`, but each conversation's publisher is a bot streaming replies (turns) of
    /// ``BenchOptions/partsPerTurn`` parts and a final part, one turn at a time, and the figures are per
    /// delivered part. A bot's sockets get its own parts too (on Typewire and the relay alike).
    case turns
    /// Read receipts (Typewire only): the typers send messages at ``BenchOptions/rate`` a second over all,
    /// and every other member, subscribed with its read state, reads each message at a random moment of the
    /// second after it arrived (a `read` frame, as the SDK reports at most one a second per timeline); the
    /// figures are per read: the server's CPU and the frames (`receipts`, `unread`) it sent.
    case receipts

    /// Whether the scenario measures one window per step and round, the targets taking turns (`tail`, `turns`).
    public var isStepped: Bool { self == .tail || self == .turns }
}

/// Which servers a run measures.
public enum BenchTarget: String, Codable, Sendable {
    /// Typewire (`typewire serve`).
    case typewire
    /// The bare relay (`typewire relay`).
    case relay
}

/// One run's settings, bounded so that a run always ends.
public struct BenchOptions: Codable, Sendable {
    /// Sockets in all.
    public var connections: Int
    /// Conversations.
    public var conversations: Int
    /// Members of each conversation.
    public var members: Int
    /// Frames per second over all sockets (starts, refreshes, stops and messages).
    public var rate: Double
    /// A typing session ends with a message instead of a stop once in this many sessions, on average.
    public var messageEvery: Int
    /// How many members of each conversation type.
    public var typers: Int
    /// Seconds of load before the measured window.
    public var warmup: Double
    /// Seconds in the measured window.
    public var duration: Double
    /// Connections being opened at once.
    public var connectConcurrency: Int
    /// Loopback source addresses the sockets are spread over (127.0.0.1 …).
    public var sourceAddresses: Int
    /// Event-loop threads of each generator process.
    public var threads: Int
    /// The scenario.
    public var scenario: BenchScenario
    /// Connect and subscribe only, with no load.
    public var idle: Bool
    /// Scenario `tail`: the deliveries a second of each step, lowest first.
    public var steps: [Double] = []
    /// Scenario `tail`: how many times each step is measured (the targets taking turns each time).
    public var rounds = 1
    /// Scenario `tail`: sockets beside the load, in conversations of their own (``SocketPlan/stormSockets``),
    /// dropped after each window and reconnected with the SDK's backoff during a second window at the same step.
    public var storm = 0
    /// Start Typewire with `--stage-metrics` and report where each window's time went (scenario `tail`), or
    /// the connecting's (the other scenarios).
    public var stages = false
    /// Scenario `tail` on a cluster: the publishers are on another node than their subscribers
    /// (`--publisher-url`), and only the subscribers' copies are counted and timed (what a publisher gets
    /// does not cross the cluster bus).
    public var publishersApart = false

    /// The most sockets a run may open.
    public static let maxConnections = 60_000
    /// The longest measured window, in seconds.
    public static let maxDuration = 600.0
    /// The most frames one socket may send a second (Typewire's default rate limit).
    public static let maxRatePerSocket = 10.0
    /// The most frames one publisher may send a second in the `tail` scenario, which starts Typewire with
    /// higher activity and message limits (a server given with `--url` needs `--activity-rate 1000`).
    public static let maxTailRatePerSocket = 50.0
    /// The `tail` scenario's steps, in deliveries a second.
    public static let tailSteps: [Double] = [2_500, 5_000, 10_000, 20_000]
    /// The `turns` scenario's steps, in deliveries a second: 100 bots (the default 100 conversations of 11)
    /// streaming 5, 10, 25 and 50 parts a second each, every part reaching the conversation's 11 sockets.
    public static let turnsSteps: [Double] = [5_500, 11_000, 27_500, 55_000]
    /// Parts of one turn in the `turns` scenario before its final part.
    public static let partsPerTurn = 50
    /// Start and refresh frames in one typing session before it ends.
    public static let framesPerSession = 3
    /// Seconds the sockets may still receive after the window, before counting.
    public static let drain = 2.0

    /// The most descriptors a process of the run holds at once for its sockets (a few dozen of its own come on
    /// top): the server, and a lone generator, one per socket; in the tail scenario the generator holds every
    /// target's sockets at once, and during a storm the dropped sockets may still be closing (on the storm's
    /// loop, at nice 19) while their replacements connect, so the storm counts once more.
    func descriptorsHeld(byTargets targets: Int) -> Int {
        guard scenario.isStepped else { return connections }
        return targets * (connections + storm) + storm
    }

    /// Creates options; ``validate()`` checks them.
    public init(
        connections: Int, conversations: Int, members: Int, rate: Double, messageEvery: Int, typers: Int,
        warmup: Double, duration: Double, connectConcurrency: Int, sourceAddresses: Int, threads: Int,
        scenario: BenchScenario, idle: Bool
    ) {
        self.connections = connections
        self.conversations = conversations
        self.members = members
        self.rate = rate
        self.messageEvery = messageEvery
        self.typers = typers
        self.warmup = warmup
        self.duration = duration
        self.connectConcurrency = connectConcurrency
        self.sourceAddresses = sourceAddresses
        self.threads = threads
        self.scenario = scenario
        self.idle = idle
    }

    /// Whether the run sends frames after connecting.
    var hasLoad: Bool { !idle && scenario != .connections }

    /// The frames a second that offer `deliveries` a second: each frame reaches every counted socket of its
    /// conversation but the sender's own (a server sends no socket the update of its own change).
    /// In scenario `turns` every socket of the conversation gets each part, the bot's own included.
    func rate(forDeliveries deliveries: Double) -> Double {
        if scenario == .turns { return deliveries * Double(conversations) / Double(max(1, connections)) }
        let receivers = connections - (publishersApart ? min(typers * conversations, connections - 1) : 0)
        let sendersCounted = publishersApart ? 0 : conversations
        return deliveries * Double(conversations) / Double(max(1, receivers - sendersCounted))
    }

    /// The frame rates of the run's windows: one per step in scenarios `tail` and `turns`, else `rate`.
    var windowRates: [Double] { scenario.isStepped ? steps.map(rate(forDeliveries:)) : [rate] }

    /// How many measured windows the run has (a storm's second window at each step and round included).
    var windows: Int { scenario.isStepped ? steps.count * rounds * (storm > 0 ? 2 : 1) : 1 }

    /// Whether Typewire paces or caps this run's updates (a large group gets one update per 100 ms, and an
    /// update lists 10 entries): then a refresh may be folded into a later update, or its sender not
    /// listed, so latency samples cannot be counted against frames sent, and `lost` is not counted.
    var serverCoalesces: Bool { members >= 100 || typers > 10 }

    /// The sockets that type, over all workers.
    var typingSockets: Int { SocketPlan(options: self).sockets.filter(\.isTyper).count }

    /// Refuses settings past the caps, or that the server's rate limit would cut.
    public func validate() throws(BenchError) {
        guard connections > 0, connections <= Self.maxConnections else {
            throw BenchError("--connections must be between 1 and \(Self.maxConnections); it is \(connections).")
        }
        guard conversations > 0, members > 0 else { throw BenchError("--conversations and --members must be at least 1.") }
        guard connections <= conversations * members else {
            throw BenchError(
                "--connections \(connections) exceeds --conversations × --members (\(conversations * members)): each socket is one member of one conversation."
            )
        }
        guard duration > 0, duration <= Self.maxDuration, warmup >= 0, warmup <= Self.maxDuration else {
            throw BenchError("--duration must be over 0 s and at most \(Int(Self.maxDuration)) s, --warmup at most as long.")
        }
        guard typers >= 1, typers <= members else { throw BenchError("--typers must be between 1 and --members (\(members)).") }
        guard messageEvery >= 1 else { throw BenchError("--message-every must be at least 1.") }
        guard connectConcurrency >= 1, (1...250).contains(sourceAddresses), (1...8).contains(threads) else {
            throw BenchError("--connect-concurrency must be at least 1, --source-addresses 1…250, --threads 1…8.")
        }
        if scenario.isStepped {
            guard !steps.isEmpty, steps.count <= 20, steps.allSatisfy({ $0 > 0 }) else {
                throw BenchError("--steps must list 1 to 20 deliveries a second, each over 0, e.g. 2500,5000,10000,20000.")
            }
            guard (1...20).contains(rounds) else { throw BenchError("--rounds must be between 1 and 20.") }
            guard storm >= 0, connections + storm <= Self.maxConnections else {
                throw BenchError("--storm must be at least 0, and with the other sockets at most \(Self.maxConnections).")
            }
            guard !serverCoalesces else {
                throw BenchError(
                    "The \(scenario.rawValue) scenario counts every delivery: use at most 10 --typers and under 100 --members.")
            }
        }
        if scenario == .receipts, typers * conversations >= connections {
            throw BenchError("The receipts scenario needs members who read: use fewer --typers than --members.")
        }
        if hasLoad {
            let perSocket = scenario.isStepped ? Self.maxTailRatePerSocket : Self.maxRatePerSocket
            let typing = typingSockets
            for rate in windowRates {
                guard rate > 0, rate <= 1_000_000 else { throw BenchError("--rate must be over 0 and at most 1 000 000 frames a second.") }
                guard rate <= Double(typing) * perSocket else {
                    throw BenchError(
                        "A rate of \(Int(rate)) frames a second needs over \(Int(perSocket)) frames a second from each of the \(typing) typing sockets; lower --rate or --steps, or raise --typers / --connections."
                    )
                }
            }
        }
    }
}
