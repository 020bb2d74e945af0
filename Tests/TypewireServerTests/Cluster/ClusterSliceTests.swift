import Testing
import TypewireCore

@testable import TypewireServer

@Suite("ClusterSlice: a node's activity within what the bus carries")
struct ClusterSliceTests {
    func entry(_ user: String, thread: String? = nil, name: String? = nil, expiresAt: Int64 = 5_000) -> ActivityEntry {
        ActivityEntry(user: user, name: name ?? user, activity: .typing, since: 1, expiresAt: expiresAt, thread: thread)
    }

    @Test func aSmallSliceIsSentWhole() {
        let entries = [entry("alice"), entry("bob")]
        #expect(
            ClusterSlice.event(of: "c", entries: entries, maxEntries: 10, serverTime: 9)
                == .slice(conversation: "c", entries: entries, serverTime: 9))
    }

    @Test func theFirstEntriesAreListedAndTheOtherUsersCounted() {
        // One user in 400 threads (100 devices, 4 threads each) and 11 others.
        let flood = (0..<400).map { entry("mallory", thread: "t\($0)", expiresAt: 6_000) }
        let entries = [entry("alice")] + flood + (0..<11).map { entry("u\($0)", expiresAt: 7_000 + Int64($0)) }
        guard case .slice(_, let listed, _, let unlisted) = ClusterSlice.event(of: "c", entries: entries, maxEntries: 10, serverTime: 9)
        else {
            Issue.record("a slice")
            return
        }
        #expect(listed.count == 10 && listed.first?.user == "alice")
        #expect(unlisted == UnlistedActivity(users: 11, until: 7_010), "mallory is listed already: 11 others, until the last one's end")
    }

    @Test func entriesAreListedWithinTheBytesTheBusCarries() throws {
        let long = String(repeating: "n", count: 600)
        let entries = (0..<10).map {
            entry(String(repeating: "u\($0)", count: 100), thread: String(repeating: "t", count: 128), name: long)
        }
        guard case .slice(_, let listed, _, let unlisted) = ClusterSlice.event(of: "c", entries: entries, maxEntries: 10, serverTime: 9)
        else {
            Issue.record("a slice")
            return
        }
        #expect(listed.count < 10 && !listed.isEmpty)
        #expect(unlisted?.users == 10 - listed.count)
        let payload = ClusterPayload(secret: "a secret of thirty-two bytes or more", node: "n1")
        let sealed = try payload.encode(
            .slice(conversation: String(repeating: "c", count: 256), entries: listed, serverTime: 9, unlisted: unlisted),
            subject: "typewire")
        #expect(sealed.utf8.count <= ClusterPayload.limit, "within NOTIFY's payload, with the longest conversation id")
    }
}
