import Testing

@testable import TypewireServer

@Suite("UserSockets: sockets served and places held per user")
struct UserSocketsTests {
    @Test func aUserHasAsManyPlacesAsTheLimitAndComesOnlineWithTheFirst() {
        var sockets = UserSockets()
        #expect(sockets.take(1, of: "erin", limit: 2) == true, "her first socket: she comes online")
        #expect(sockets.take(2, of: "erin", limit: 2) == false)
        #expect(sockets.take(3, of: "erin", limit: 2) == nil, "at the limit")
        #expect(sockets.take(4, of: "bob", limit: 2) == true, "each user has places of their own")
    }

    @Test func aCutOffSocketHoldsItsPlaceUntilItIsGone() {
        var sockets = UserSockets()
        _ = sockets.take(1, of: "erin", limit: 1)
        let departure = sockets.stopServing(of: "erin")
        #expect(departure == .offline, "cut off: her last socket served, she goes offline")
        #expect(sockets.take(2, of: "erin", limit: 1) == nil, "but it still holds her place")
        sockets.release(1)
        #expect(sockets.places(of: "erin") == 0)
        #expect(sockets.take(2, of: "erin", limit: 1) == true)
        sockets.release(1)
        #expect(sockets.places(of: "erin") == 1, "releasing twice frees one place once")
    }

    @Test func theUserGoesOfflineWithTheirLastSocketServed() {
        var sockets = UserSockets()
        _ = sockets.take(1, of: "erin", limit: 5)
        _ = sockets.take(2, of: "erin", limit: 5)
        let first = sockets.stopServing(of: "erin")
        let second = sockets.stopServing(of: "erin")
        #expect(first == .stays && second == .offline)
    }

    @Test func aUserWhoseLastSocketWentAwayIsHeldOnlineUntilTheHoldEndsOrASocketComesBack() {
        var sockets = UserSockets()
        _ = sockets.take(1, of: "erin", limit: 5)
        let away = sockets.stopServing(of: "erin", wentAway: true)
        guard case .held(let first) = away else {
            Issue.record("\(away)")
            return
        }
        let back = sockets.take(2, of: "erin", limit: 5)
        #expect(back == false, "back within the grace: she does not come online, she never left")
        let endedWithTheSocket = sockets.endHold(first, of: "erin")
        #expect(!endedWithTheSocket, "the hold ended with the socket that came back")
        let again = sockets.stopServing(of: "erin", wentAway: true)
        guard case .held(let second) = again else {
            Issue.record("\(again)")
            return
        }
        let earlier = sockets.endHold(first, of: "erin")
        #expect(!earlier, "an earlier hold's grace does not end a later hold")
        let own = sockets.endHold(second, of: "erin")
        #expect(own, "her own grace ran out: she goes offline")
        let twice = sockets.endHold(second, of: "erin")
        #expect(!twice, "once")
        let online = sockets.take(3, of: "erin", limit: 5)
        #expect(online == true, "then a socket brings her online")
    }
}
