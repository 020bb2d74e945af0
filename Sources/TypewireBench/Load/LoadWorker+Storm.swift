import TypewireClient

/// What one reconnect storm did: how many sockets came back, after how many failed attempts, and when the
/// last one was subscribed again.
public struct StormFigures: Codable, Sendable, Equatable {
    public var sockets: Int
    public var reconnected: Int
    public var failedAttempts: Int
    /// Seconds from the drop to the last socket's `subscribed`.
    public var secondsToReconnect: Double
}

extension LoadWorker {
    /// The longest a storm's socket keeps trying to come back.
    static let stormGiveUpSeconds = 60.0

    /// The reconnect storm: at `start` (CLOCK_MONOTONIC nanoseconds) every storm socket is dropped at once,
    /// as a lost network drops them, and each reconnects on its own after the SDK's backoff (``Backoff``'s
    /// defaults: 125-250 ms, then twice as long after each failed attempt), as ``TypewireClient`` does.
    /// - Returns: The storm's sockets, connected again, and what the storm did. A socket that gave up is an
    ///   error of the tally.
    /// - Parameter phase: The storm's sockets as ``connectStorm()`` (or the storm before) left them.
    func storm(_ phase: ConnectPhase, at start: UInt64) async throws -> (ConnectPhase, StormFigures) {
        let connector = connector(on: stormGroup ?? group)
        try await Self.sleep(until: start)
        for socket in phase.sockets { socket.channel.eventLoop.execute { socket.handler.value.drop() } }
        let dropped = BenchClock.monotonicNanos()
        let giveUp = dropped + UInt64(Self.stormGiveUpSeconds * 1e9)
        var sockets: [ConnectedSocket] = []
        var failures: [String] = []
        var failedAttempts = 0
        var lastReady = dropped
        await withTaskGroup(of: (ConnectedSocket?, Int, String?).self) { group in
            for (socket, token) in phase.planned {
                group.addTask {
                    var random = SystemRandomNumberGenerator()
                    let backoff = Backoff()
                    var failed = 0
                    while true {
                        try? await Task.sleep(for: backoff.delay(attempt: failed + 1, using: &random))
                        do {
                            return (try await connector.connect(socket, token: token), failed, nil)
                        } catch {
                            failed += 1
                            if BenchClock.monotonicNanos() > giveUp { return (nil, failed, "storm: \(socket.userID) gave up: \(error)") }
                        }
                    }
                }
            }
            for await (socket, failed, failure) in group {
                failedAttempts += failed
                if let socket {
                    sockets.append(socket)
                    lastReady = BenchClock.monotonicNanos()
                }
                if let failure { failures.append(failure) }
            }
        }
        let figures = StormFigures(
            sockets: phase.planned.count, reconnected: sockets.count, failedAttempts: failedAttempts,
            secondsToReconnect: Double(lastReady - dropped) / 1e9
        )
        let reconnected = ConnectPhase(
            sockets: sockets, failures: failures, planned: phase.planned, firstConnect: dropped, lastReady: lastReady)
        return (reconnected, figures)
    }
}
