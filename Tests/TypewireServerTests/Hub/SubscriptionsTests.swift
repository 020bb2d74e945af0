import Testing

@testable import TypewireServer

@Suite("Subscriptions: who follows what, both ways, each change saying what it did")
struct SubscriptionsTests {
    let alice: ConnectionID = 1
    let bob: ConnectionID = 2

    @Test func aSubscriptionIsCountedOnceAndSeenBothWays() {
        var subscriptions = Subscriptions<String>()
        #expect(subscriptions.subscribe(alice, as: "alice's socket", to: "c") == .init(count: 1, began: ["c"]), "the first follower here")
        #expect(subscriptions.subscribe(alice, as: "alice's socket", to: "c") == .init(), "again: no change")
        #expect(subscriptions.subscribers(of: "c") == [alice: "alice's socket"])
        #expect(subscriptions.conversations(of: alice) == ["c"])
        #expect(subscriptions.contains(alice, in: "c") && !subscriptions.contains(bob, in: "c"))
        #expect(subscriptions.subscribe(bob, as: "bob's socket", to: "c") == .init(count: 1), "a second follower begins nothing")
    }

    @Test func theLastSubscriberLeavingAbandonsTheConversation() {
        var subscriptions = Subscriptions<String>()
        _ = subscriptions.subscribe(alice, as: "alice's socket", to: "c")
        _ = subscriptions.subscribe(bob, as: "bob's socket", to: "c")
        #expect(subscriptions.unsubscribe(alice, from: "c") == .init(count: -1))
        #expect(subscriptions.isFollowed("c"))
        #expect(subscriptions.unsubscribe(alice, from: "c") == .init(), "not subscribed: no change")
        #expect(subscriptions.unsubscribe(bob, from: "c") == .init(count: -1, abandoned: ["c"]))
        #expect(!subscriptions.isFollowed("c") && subscriptions.conversations(of: bob).isEmpty)
    }

    @Test func aClosedSocketLeavesEverythingItFollowedAndAbandonsWhatOnlyItFollowed() {
        var subscriptions = Subscriptions<String>()
        for conversation in ["a", "b", "c"] { _ = subscriptions.subscribe(alice, as: "alice's socket", to: conversation) }
        _ = subscriptions.subscribe(bob, as: "bob's socket", to: "b")
        let change = subscriptions.removeAll(of: alice)
        #expect(change.count == -3 && Set(change.abandoned) == ["a", "c"])
        #expect(subscriptions.subscribers(of: "b") == [bob: "bob's socket"])
        #expect(subscriptions.removeAll(of: alice) == .init(), "gone already")
    }
}
