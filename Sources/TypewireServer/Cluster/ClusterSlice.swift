import TypewireCore

/// Users active in a node's slice that it leaves out (``ClusterSlice``): others count them in `total`.
struct UnlistedActivity: Codable, Sendable, Equatable {
    /// Distinct users left out.
    var users: Int
    /// When the last of their entries expires, on the sender's clock (milliseconds).
    var until: Int64
}

/// A node's own activity in a conversation as the bus carries it: the entries a receiver could list (the
/// first ``ServerConfiguration/Typing/maxEntries`` to start, within ``maxBytes``) and a count of the users
/// left out. Every node's first entries reach every other, so each node lists the conversation's first
/// entries as a single node would; the count keeps `total` (it may count twice a user active on two nodes,
/// one listing them and one not). One member typing in many threads on many devices cannot make the slice
/// too large for NOTIFY's 8 000 bytes, which silenced the conversation's typing on the other nodes.
enum ClusterSlice {
    /// The most bytes of entries' text (ids, names, details, threads) one slice carries: with the
    /// conversation's id, the sealing and base64, within NOTIFY's payload (`ClusterPayload.limit`).
    static let maxBytes = 5_000

    /// The slice event of `entries` (the node's own, in the order they started).
    static func event(of conversation: String, entries: [ActivityEntry], maxEntries: Int, serverTime: Int64) -> ClusterEvent {
        var bytes = 0
        let listed = Array(
            entries.prefix(maxEntries).prefix { entry in
                bytes +=
                    entry.user.utf8.count + (entry.name?.utf8.count ?? 0) + (entry.activity.detail?.utf8.count ?? 0)
                    + (entry.thread?.utf8.count ?? 0) + 40
                return bytes <= maxBytes
            })
        let unlisted = unlisted(besides: listed, in: entries.dropFirst(listed.count))
        return .slice(conversation: conversation, entries: listed, serverTime: serverTime, unlisted: unlisted)
    }

    /// The users of `left` not among `listed`, and when the last of their entries ends; nil if none.
    private static func unlisted(besides listed: [ActivityEntry], in left: ArraySlice<ActivityEntry>) -> UnlistedActivity? {
        let shown = Set(listed.map(\.user))
        let others = left.filter { !shown.contains($0.user) }
        guard let until = others.map(\.expiresAt).max() else { return nil }
        return UnlistedActivity(users: Set(others.map(\.user)).count, until: until)
    }
}
