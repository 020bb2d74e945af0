/// The pings of a transport that does not ping by itself (URLSession's WebSocket task): one each interval,
/// and a pong still missing when the next ping is due ends the socket, so a socket that died without a word
/// (a network switch) is not taken for open for long. The rule swift-websocket's `autoPing` follows for
/// the NIO transport. A pure value; the transport keeps it under a lock.
struct PingRound {
    private var awaitingPong = false

    /// The interval ran out.
    /// - Returns: Whether to ping now; false if the last ping's pong never came (the socket is dead).
    mutating func due() -> Bool {
        guard !awaitingPong else { return false }
        awaitingPong = true
        return true
    }

    /// The pong of the last ping came.
    mutating func ponged() {
        awaitingPong = false
    }
}
