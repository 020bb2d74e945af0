import Testing

@testable import TypewireServer

@Suite("MembershipCache: participants indexed both ways")
final class MembershipCacheTests {
    var cache = MembershipCache()

    @Test func aUsersConversationsFollowCachingJoiningLeavingAndEviction() {
        cache.cache(["alice", "bob"], of: "c1")
        cache.cache(["alice", "carol"], of: "c2")
        #expect(cache.conversations(of: "alice") == ["c1", "c2"])
        cache.add("bob", to: "c2")
        #expect(cache["c2"] == ["alice", "bob", "carol"])
        #expect(cache.conversations(of: "bob") == ["c1", "c2"])
        cache.remove("alice", from: "c1")
        #expect(cache.conversations(of: "alice") == ["c2"])
        cache.evict("c2")
        #expect(cache["c2"] == nil)
        #expect(cache.conversations(of: "alice").isEmpty && cache.conversations(of: "carol").isEmpty)
        #expect(cache.conversations(of: "bob") == ["c1"])
    }

    @Test func changesToAConversationThatIsNotCachedAreIgnored() {
        cache.add("alice", to: "c9")
        #expect(cache["c9"] == nil && cache.conversations(of: "alice").isEmpty)
    }

    @Test func cachingAgainReplacesTheMembers() {
        cache.cache(["alice", "bob"], of: "c1")
        cache.cache(["bob"], of: "c1")
        #expect(cache.conversations(of: "alice").isEmpty)
        #expect(cache["c1"] == ["bob"])
    }
}
