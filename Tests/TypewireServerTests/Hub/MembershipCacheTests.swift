import Testing
import TypewireCore

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

    @Test func namesAreKeptForTheCachedMembersAndGoWithAnyChangeOfThem() {
        let alice = ConversationMember(id: "alice", name: "Alice", online: false)
        let bob = ConversationMember(id: "bob", name: "Bob", online: false)
        cache.keepNames([alice, bob], of: "c1", readWith: cache.nameChanges.ticket)
        #expect(cache.participants(of: "c1") == nil, "not cached: nothing to keep them for")
        cache.cache(["alice", "bob"], of: "c1")
        cache.keepNames([alice], of: "c1", readWith: cache.nameChanges.ticket)
        #expect(cache.participants(of: "c1") == nil, "a list that is not the members")
        cache.keepNames([alice, bob], of: "c1", readWith: cache.nameChanges.ticket)
        #expect(cache.participants(of: "c1") == [alice, bob])
        cache.add("carol", to: "c1")
        #expect(cache.participants(of: "c1") == nil)

        cache.cache(["alice", "bob"], of: "c1")
        cache.cache(["bob", "carol"], of: "c2")
        cache.keepNames([alice, bob], of: "c1", readWith: cache.nameChanges.ticket)
        cache.keepNames([bob, ConversationMember(id: "carol", name: "Carol", online: false)], of: "c2", readWith: cache.nameChanges.ticket)
        cache.forgetNames(of: "alice")
        #expect(cache.participants(of: "c1") == nil)
        #expect(cache.participants(of: "c2") != nil)
        cache.remove("carol", from: "c2")
        #expect(cache.participants(of: "c2") == nil)
    }

    @Test func aListReadBeforeANameMayHaveChangedIsNotKept() {
        let alice = ConversationMember(id: "alice", name: "Alice", online: false)
        cache.cache(["alice"], of: "c1")
        let ticket = cache.nameChanges.ticket  // the read begins
        cache.forgetNames(of: "dave")  // someone's name may change while the store answers
        cache.keepNames([alice], of: "c1", readWith: ticket)
        #expect(cache.participants(of: "c1") == nil, "overtaken: used once, not kept")
        cache.keepNames([alice], of: "c1", readWith: cache.nameChanges.ticket)
        #expect(cache.participants(of: "c1") == [alice])
    }
}
