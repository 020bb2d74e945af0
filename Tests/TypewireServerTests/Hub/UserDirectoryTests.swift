import Testing

@testable import TypewireServer

@Suite("UserDirectory: who is online here and elsewhere, and what they share")
struct UserDirectoryTests {
    static let quiet = UserSettings(blocked: ["mallory"], blockers: [], sharesTyping: false, sharesPresence: false)

    @Test func aUserComesOnlineWithTheFirstSocketAndGoesOfflineWithTheLast() {
        var users = UserDirectory()
        let change1 = users.connect(1, of: "alice", settings: Self.quiet)
        #expect(change1)
        let change2 = users.connect(2, of: "alice", settings: Self.quiet)
        #expect(!change2, "a second device")
        #expect(users.sockets(of: "alice") == [1, 2])
        let change3 = users.disconnect(1, of: "alice")
        #expect(change3 == .stays)
        let change4 = users.disconnect(2, of: "alice")
        #expect(change4 == .left(wentOffline: true))
        #expect(!users.isOnline("alice"))
    }

    @Test func aUsersSettingsHoldUntilForgottenSoTheOfflineAnnouncementStillHeedsThem() {
        var users = UserDirectory()
        _ = users.connect(1, of: "alice", settings: Self.quiet)
        #expect(!users.sharesTyping("alice") && !users.visibility.sharesPresence("alice"))
        _ = users.disconnect(1, of: "alice")
        #expect(!users.visibility.showsPresence(of: "alice", to: "bob"), "still hidden while going offline")
        users.forgetSettings(of: "alice")
        #expect(users.sharesTyping("alice") && users.visibility.sharesPresence("alice"))
        #expect(users.visibility.hidden(from: "alice").isEmpty)
    }

    @Test func aUserWhoseLastSocketWentAwayShowsOnlineButCountsOfflineForPushesUntilTheHoldEnds() {
        var users = UserDirectory()
        _ = users.connect(1, of: "alice", settings: Self.quiet)
        let away = users.disconnect(1, of: "alice", wentAway: true)
        #expect(away == .held)
        #expect(users.isOnline("alice") && users.isHeld("alice"))
        users.forgetSettings(of: "alice")
        #expect(!users.visibility.showsPresence(of: "alice", to: "bob"), "her settings stay while she is held")
        let back = users.connect(2, of: "alice", settings: Self.quiet)
        #expect(!back, "back within the grace: nothing to announce")
        let heldAfterReturn = users.endHold(of: "alice")
        #expect(!users.isHeld("alice") && !heldAfterReturn)
        let again = users.disconnect(2, of: "alice", wentAway: true)
        #expect(again == .held)
        let ended = users.endHold(of: "alice")
        #expect(ended)
        #expect(!users.isOnline("alice"), "the grace ran out")
        _ = users.setRemote("alice", on: "node-b", online: true)
        _ = users.connect(3, of: "alice", settings: Self.quiet)
        let elsewhere = users.disconnect(3, of: "alice", wentAway: true)
        #expect(elsewhere == .left(wentOffline: false), "online elsewhere: no hold")
    }

    @Test func aUserOnAnotherNodeStaysOnlineWhenTheLastLocalSocketCloses() {
        var users = UserDirectory()
        let change5 = users.setRemote("alice", on: "node-b", online: true)
        #expect(change5)
        let change6 = users.connect(1, of: "alice", settings: Self.quiet)
        #expect(!change6, "online already, elsewhere")
        let change7 = users.disconnect(1, of: "alice")
        #expect(change7 == .left(wentOffline: false))
        #expect(users.users(on: "node-b") == ["alice"])
        let change8 = users.setRemote("alice", on: "node-b", online: false)
        #expect(change8, "gone everywhere")
        let change9 = users.setRemote("alice", on: "node-b", online: false)
        #expect(!change9)
    }

    @Test func sharingAndBlocksChangeOnlyForUsersConnectedHere() {
        var users = UserDirectory()
        users.setSharesTyping(false, for: "carol")
        #expect(users.sharesTyping("carol"), "not connected: loaded from the store when she connects")
        _ = users.connect(1, of: "bob", settings: UserSettings(blocked: [], blockers: [], sharesTyping: true, sharesPresence: true))
        users.setBlocked(true, user: "bob", by: "carol")
        #expect(users.visibility.hidden(from: "bob") == ["carol"])
        users.setBlocked(false, user: "bob", by: "carol")
        #expect(users.visibility.hidden(from: "bob").isEmpty)
    }
}
