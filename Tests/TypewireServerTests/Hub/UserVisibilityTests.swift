import Testing

@testable import TypewireServer

@Suite("UserVisibility: what connected users may see of each other")
struct UserVisibilityTests {
    @Test func aBlockHidesBothSidesFromEachOther() {
        var visibility = UserVisibility()
        visibility.connected("erin", blocked: ["carol"], blockers: [], sharesPresence: true)
        visibility.connected("carol", blocked: [], blockers: ["erin"], sharesPresence: true)
        #expect(visibility.hidden(from: "erin") == ["carol"] && visibility.hidden(from: "carol") == ["erin"])
        #expect(!visibility.showsPresence(of: "erin", to: "carol"), "the blocker is offline to the blocked")
        #expect(!visibility.showsPresence(of: "carol", to: "erin"))
        #expect(visibility.showsPresence(of: "erin", to: "bob") && !visibility.hidesAnyone(from: "bob"))
    }

    @Test func aBlockChangesOnlyTheSidesConnectedHere() {
        var visibility = UserVisibility()
        visibility.connected("carol", blocked: [], blockers: [], sharesPresence: true)
        visibility.setBlocked(true, user: "carol", by: "erin") { $0 == "carol" }
        #expect(visibility.hidden(from: "carol") == ["erin"])
        #expect(visibility.hidden(from: "erin").isEmpty, "Erin is not connected here: loaded from the store when she connects")
        #expect(visibility.hidesAnyone)
        visibility.setBlocked(false, user: "carol", by: "erin") { $0 == "carol" }
        #expect(!visibility.hidesAnyone(from: "carol"))
        #expect(!visibility.hidesAnyone, "nobody hides anyone: a fan-out asks nothing per subscriber")
    }

    @Test func aBlockedUserLeavingTakesTheirBlocksAlong() {
        var visibility = UserVisibility()
        #expect(!visibility.hidesAnyone)
        visibility.connected("erin", blocked: ["carol"], blockers: [], sharesPresence: true)
        #expect(visibility.hidesAnyone)
        visibility.disconnected("erin")
        #expect(!visibility.hidesAnyone)
    }

    @Test func twoBlocksEachWayOutliveTheEndOfOne() {
        var visibility = UserVisibility()
        visibility.connected("erin", blocked: ["carol"], blockers: ["carol"], sharesPresence: true)
        visibility.setBlocked(false, user: "carol", by: "erin") { _ in true }
        #expect(visibility.hidden(from: "erin") == ["carol"], "Carol still blocks Erin")
    }

    @Test func presenceSharedWithNobodyIsShownToNobody() {
        var visibility = UserVisibility()
        visibility.connected("dave", blocked: [], blockers: [], sharesPresence: false)
        #expect(!visibility.showsPresence(of: "dave", to: "bob") && !visibility.showsPresence(of: "dave", to: nil))
        visibility.setSharesPresence(true, for: "dave")
        #expect(visibility.showsPresence(of: "dave", to: nil))
        visibility.setSharesPresence(false, for: "dave")
        visibility.disconnected("dave")
        #expect(visibility.sharesPresence("dave"), "forgotten with the last socket")
    }
}
