import Testing

@testable import TypewireClient

/// When a transport that pings by itself (URLSession's WebSocket task) gives the socket up.
@Suite("PingRound: a pong missing at the next ping ends the socket")
struct PingRoundTests {
    @Test func aPongAnsweredInTimeKeepsTheSocketAndAMissingOneEndsIt() {
        var pings = PingRound()
        let first = pings.due()
        #expect(first, "the first ping goes out")
        pings.ponged()
        let second = pings.due()
        #expect(second, "its pong came: the next goes out")
        let third = pings.due()
        #expect(!third, "the next is due and the last pong never came: the socket is dead")
    }

    @Test func aLatePongBeforeTheNextPingStillCounts() {
        var pings = PingRound()
        _ = pings.due()
        pings.ponged()
        pings.ponged()  // a duplicate changes nothing
        let next = pings.due()
        #expect(next)
    }
}
