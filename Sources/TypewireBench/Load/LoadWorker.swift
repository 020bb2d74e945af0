import NIOCore
import NIOPosix

/// Where a worker's sockets go, and how they say hello.
public struct BenchEndpoint: Codable, Sendable {
    /// Host, port and path of the WebSocket.
    public var host: String
    public var port: Int
    public var path: String
    /// The secret to mint each user's token with; nil for the relay, which takes any token.
    public var jwtSecret: String?
    /// Where the typing sockets connect instead (another node of a cluster, on the same host), if anywhere else.
    public var publisherPort: Int?

    /// Creates an endpoint.
    public init(host: String, port: Int, path: String, jwtSecret: String?) {
        self.host = host
        self.port = port
        self.path = path
        self.jwtSecret = jwtSecret
    }

    /// Reads `ws://host:port/path`.
    public init(url: String, jwtSecret: String?) throws(BenchError) {
        guard url.hasPrefix("ws://") else { throw BenchError("--url must be ws://HOST:PORT/PATH on this machine; it is \(url).") }
        let rest = url.dropFirst(5)
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) else {
            throw BenchError("--url \(url) names no port.")
        }
        self.init(host: String(authority[..<colon]), port: port, path: path.isEmpty ? "/v1/socket" : String(path), jwtSecret: jwtSecret)
    }
}

/// What a worker did: its tally, how its connecting went, and its own CPU in the window.
public struct WorkerResult: Codable, Sendable {
    public var tally: Tally
    /// Sockets that reached `subscribed`.
    public var ready: Int
    /// CLOCK_MONOTONIC nanoseconds of the first connect and the last `subscribed`.
    public var firstConnect: UInt64
    public var lastReady: UInt64
    /// This process's CPU seconds in the window.
    public var cpuSeconds: Double
}

/// One generator: opens its share of the sockets (every W-th), drives their load, and counts.
///
/// The parent runs one in its own process, or spawns W processes that each run one.
public final class LoadWorker: Sendable {
    let options: BenchOptions
    private let plan: SocketPlan
    private let mine: [SocketPlan.Socket]
    private let endpoint: BenchEndpoint
    let group: MultiThreadedEventLoopGroup
    /// The reconnect storm's own loop (``BenchOptions/storm``), on a thread of the lowest priority: the storm's
    /// handshakes run when the measuring loops have nothing to do, so they cannot delay what those measure.
    let stormGroup: MultiThreadedEventLoopGroup?
    private let tallies: [ObjectIdentifier: TallyBox]
    private let loops: [any EventLoop]
    private let index: Int
    private let workers: Int

    /// Creates worker `index` of `workers`.
    public init(options: BenchOptions, endpoint: BenchEndpoint, index: Int, workers: Int) {
        self.options = options
        self.plan = SocketPlan(options: options)
        self.mine = plan.sockets(ofWorker: index, of: workers)
        self.endpoint = endpoint
        self.index = index
        self.workers = workers
        let group = MultiThreadedEventLoopGroup(numberOfThreads: options.threads)
        self.group = group
        let loops = Array(group.makeIterator())
        self.loops = loops
        let stormGroup = options.storm > 0 ? MultiThreadedEventLoopGroup(numberOfThreads: 1) : nil
        stormGroup?.next().execute { ThreadPriority.lowest() }
        self.stormGroup = stormGroup
        let counted = loops + (stormGroup.map { Array($0.makeIterator()) } ?? [])
        self.tallies = Dictionary(uniqueKeysWithValues: counted.map { (ObjectIdentifier($0), TallyBox()) })
    }

    /// Connects every socket, at most `connectConcurrency` at once; a failed one is counted as an error.
    /// - Returns: The ready sockets and when the first connect began and the last socket became ready.
    public func connect() async throws -> ConnectPhase {
        try await connect(mine)
    }

    /// Connects the reconnect storm's sockets (``SocketPlan/stormSockets(of:)``) on the storm's loop, as
    /// ``connect()`` does the others.
    func connectStorm() async throws -> ConnectPhase {
        try await connect(SocketPlan.stormSockets(of: options), on: stormGroup ?? group)
    }

    /// The users' tokens, minted with the endpoint's secret (the relay takes any); in scenario `turns` the
    /// publishers are bots.
    private func tokens(for sockets: [SocketPlan.Socket]) async throws -> [String] {
        var authority: TokenMinter?
        if let secret = endpoint.jwtSecret { authority = try await TokenMinter(secret: secret) }
        var tokens: [String] = []
        tokens.reserveCapacity(sockets.count)
        let bots = options.scenario == .turns
        for socket in sockets {
            tokens.append(try await authority?.token(for: socket.userID, isBot: bots && socket.isTyper) ?? "relay")
        }
        return tokens
    }

    /// Opens sockets to the endpoint on `group`'s loops, each counting what its sockets receive.
    func connector(on group: MultiThreadedEventLoopGroup) -> BenchConnector {
        BenchConnector(
            host: endpoint.host, port: endpoint.port, typistPort: endpoint.publisherPort, path: endpoint.path, group: group,
            sourceAddresses: options.sourceAddresses,
            members: options.members, tracksExpiry: options.scenario == .expiry, readsMessages: options.scenario == .receipts,
            tallies: tallies
        )
    }

    private func connect(_ mine: [SocketPlan.Socket], on group: MultiThreadedEventLoopGroup? = nil) async throws -> ConnectPhase {
        let tokens = try await tokens(for: mine)
        let connector = connector(on: group ?? self.group)
        let first = BenchClock.monotonicNanos()
        var connected: [ConnectedSocket] = []
        var failures: [String] = []
        await withTaskGroup(of: Result<ConnectedSocket, any Error>.self) { group in
            var next = 0
            func add() {
                let socket = mine[next]
                let token = tokens[next]
                next += 1
                group.addTask {
                    do { return .success(try await connector.connect(socket, token: token)) } catch { return .failure(error) }
                }
            }
            while next < mine.count, next < options.connectConcurrency { add() }
            for await result in group {
                switch result {
                case .success(let socket): connected.append(socket)
                case .failure(let error): failures.append("\(error)")
                }
                if next < mine.count { add() }
            }
        }
        let last = BenchClock.monotonicNanos()
        return ConnectPhase(
            sockets: connected, failures: failures, planned: Array(zip(mine, tokens)), firstConnect: first, lastReady: last)
    }

    /// Runs the load from `start` (CLOCK_MONOTONIC nanoseconds): warmup, the measured window, a drain;
    /// then closes the sockets and returns the counts.
    public func run(_ phase: ConnectPhase, start: UInt64) async throws -> WorkerResult {
        var result = try await drive(phase, start: start, rate: options.rate)
        result.tally.countConnectFailures(of: phase)
        await close(phase)
        return result
    }

    /// Runs one window of load at `rate` frames a second from `start` and returns its counts, leaving the
    /// sockets open for the next (scenario `tail` runs one per step).
    func drive(_ phase: ConnectPhase, start: UInt64, rate: Double) async throws -> WorkerResult {
        for box in tallies.values { box.reset() }
        let windowStart = start + UInt64(options.warmup * 1e9)
        let windowEnd = windowStart + UInt64((options.hasLoad ? options.duration : 0) * 1e9)
        for box in tallies.values { box.setWindow(start: windowStart, end: windowEnd) }
        let typingTotal = options.typingSockets
        var drivers: [NIOLoopBound<LoadDriver>] = []
        if options.hasLoad {
            let expiryOnly = options.scenario == .expiry
            for (loopIndex, loop) in loops.enumerated() {
                let onLoop = phase.sockets.filter { $0.channel.eventLoop === loop }
                let plan = self.plan
                let options = self.options
                let tally = tallies[ObjectIdentifier(loop)]!
                let seed = UInt64(index * 64 + loopIndex + 1)
                let driver = try await loop.submit {
                    let handlers = onLoop.map(\.handler.value).filter(\.socket.isTyper)
                    let share = rate * Double(handlers.count) / Double(max(1, typingTotal))
                    let driver = LoadDriver(
                        loop: loop, handlers: handlers, rate: share, refreshMillis: handlers.first?.refreshInterval ?? 2_000,
                        recipients: plan.recipients, tally: tally, messageEvery: options.messageEvery, expiryOnly: expiryOnly,
                        streamsTurns: options.scenario == .turns, sendsMessages: options.scenario == .receipts, seed: seed
                    )
                    driver.run(from: expiryOnly ? windowStart : start, until: windowEnd)
                    return NIOLoopBound(driver, eventLoop: loop)
                }.get()
                drivers.append(driver)
            }
        }
        let cpuStart = ProcessStats.cpuSeconds(of: nil)
        try await Self.sleep(until: windowEnd)
        let cpuEnd = ProcessStats.cpuSeconds(of: nil)
        let drain = !options.hasLoad ? 0 : options.scenario == .expiry ? 4.8 + BenchOptions.drain + 1 : BenchOptions.drain
        try await Self.sleep(until: windowEnd + UInt64(drain * 1e9))
        for driver in drivers { try await driver.eventLoop.submit { driver.value.cancel() }.get() }
        var tally = Tally()
        for box in tallies.values { tally.merge(box.tally) }
        return WorkerResult(
            tally: tally, ready: phase.sockets.count, firstConnect: phase.firstConnect, lastReady: phase.lastReady,
            cpuSeconds: max(0, (cpuEnd ?? 0) - (cpuStart ?? 0))
        )
    }

    /// Closes every socket with 1000 and waits until they are closed (at most 5 s).
    public func close(_ phase: ConnectPhase) async {
        for socket in phase.sockets {
            socket.channel.eventLoop.execute { socket.handler.value.close() }
        }
        let deadline = BenchClock.monotonicNanos() + 5_000_000_000
        for socket in phase.sockets {
            while socket.channel.isActive, BenchClock.monotonicNanos() < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        }
    }

    /// Stops the event loops.
    public func shutdown() async {
        try? await group.shutdownGracefully()
        try? await stormGroup?.shutdownGracefully()
    }

    static func sleep(until deadline: UInt64) async throws {
        let now = BenchClock.monotonicNanos()
        if deadline > now { try await Task.sleep(for: .nanoseconds(Int64(deadline - now))) }
    }
}

/// The sockets a worker opened, and the ones it could not.
public struct ConnectPhase: Sendable {
    let sockets: [ConnectedSocket]
    /// Why the sockets that could not connect failed.
    let failures: [String]
    /// Every socket it was to open, with its user's token (a reconnect storm opens them again).
    let planned: [(socket: SocketPlan.Socket, token: String)]
    /// CLOCK_MONOTONIC nanoseconds of the first connect and the last `subscribed`.
    public let firstConnect: UInt64
    public let lastReady: UInt64
    /// Sockets that are ready.
    public var ready: Int { sockets.count }
}

extension Tally {
    /// Counts each socket that could not connect as an error.
    mutating func countConnectFailures(of phase: ConnectPhase) {
        for failure in phase.failures { error("connect failed: \(failure)") }
    }
}
