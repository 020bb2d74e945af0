import Testing
import TypewireCore

@testable import TypewireServer

@Suite("LastSeenRule: the minute where both share, buckets where either hides, nothing across a block")
struct LastSeenRuleTests {
    static let now: Int64 = 1_800_000_000_000
    static let offline = ConversationMember(id: "alice", name: "Alice", online: false)

    static func shown(
        _ participant: ConversationMember = offline, hidden: Bool = false, onlineButHiding: Bool = false, at: Int64? = now - 120_000,
        sharing: Bool = true, viewerShares: Bool = true
    ) -> ConversationMember {
        LastSeenRule.shown(
            participant, hidden: hidden, onlineButHiding: onlineButHiding,
            record: at.map { LastSeenRecord(at: $0, sharesPresence: sharing) }, viewerShares: viewerShares, now: now)
    }

    @Test func bothSharingShowTheMinute() {
        #expect(Self.shown().lastSeenAt == Self.now - 120_000 && Self.shown().lastSeen == nil)
    }

    @Test func eitherHidingShowsABucketOnly() {
        for (sharing, viewerShares) in [(false, true), (true, false), (false, false)] {
            let shown = Self.shown(at: Self.now - 4 * 86_400_000, sharing: sharing, viewerShares: viewerShares)
            #expect(shown.lastSeenAt == nil && shown.lastSeen == .withinWeek, "\(sharing) \(viewerShares)")
        }
        let online = Self.shown(onlineButHiding: true, at: Self.now - 40 * 86_400_000, sharing: false)
        #expect(online.lastSeen == .recently && online.lastSeenAt == nil, "online now, hiding it: recently, whatever is stored")
    }

    @Test func nothingAcrossABlockForTheOnlineOrTheNeverSeen() {
        #expect(Self.shown(hidden: true) == Self.offline)
        #expect(Self.shown(hidden: true, onlineButHiding: true) == Self.offline)
        #expect(Self.shown(at: nil) == Self.offline)
        let online = ConversationMember(id: "alice", name: "Alice", online: true)
        #expect(Self.shown(online) == online)
    }

    @Test func aLiveOfflineSaysThisMinuteOrRecently() {
        #expect(LastSeenRule.justNow(at: Self.now + 59_999, hiding: false, viewerShares: true) == (Self.now, nil))
        #expect(LastSeenRule.justNow(at: Self.now, hiding: true, viewerShares: true) == (nil, .recently))
        #expect(LastSeenRule.justNow(at: Self.now, hiding: false, viewerShares: false) == (nil, .recently))
    }
}
