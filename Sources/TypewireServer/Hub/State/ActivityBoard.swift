import TypewireCore

/// Identifies one socket (one device of a user).
public typealias ConnectionID = Int

/// Who is doing what in which conversation, per device, with server-stamped expiry. A pure value: the
/// hub feeds it the server's time.
///
/// Activity is kept per connection and thread, so a stop on the phone does not hide the laptop's typing,
/// and typing in a thread is not typing in the main timeline; it is fanned out per user and thread:
/// ``entries(in:)`` gives one entry per user and thread (the latest activity, the earliest start, the
/// latest expiry).
struct ActivityBoard {
    /// Where an entry comes from: a socket of this node, or a user's slice from another node of a cluster.
    private enum Device: Hashable {
        case local(ConnectionID, thread: String?)
        case remote(node: String, user: String, thread: String?)

        var isLocal: Bool { if case .local = self { true } else { false } }
    }

    private struct DeviceEntry {
        var user: String
        var thread: String?
        var name: String?
        var activity: MemberActivity
        var since: Int64
        var expiresAt: Int64
    }

    /// How long an activity lives after its last frame, in milliseconds.
    let ttl: Int64
    private var conversations: [String: [Device: DeviceEntry]] = [:]
    /// Per conversation and node, the users another node's slice left out (``ClusterSlice``), until when on
    /// this node's clock.
    private var unlisted: [String: [String: UnlistedActivity]] = [:]

    init(ttl: Int64) {
        self.ttl = ttl
    }

    /// The most threads of one conversation one device is doing something in at once; a new one past it
    /// takes the place of the one it started longest ago (a client cannot grow the board by naming threads).
    static let threadsPerDevice = 4

    /// Sets one device's activity in the main timeline or a thread; `.none` clears it.
    /// - Returns: Whether the conversation's state changed (a refresh changes `expiresAt`, so it does).
    mutating func set(
        _ activity: MemberActivity, in conversation: String, connection: ConnectionID, user: String, name: String?, now: Int64,
        thread: String? = nil
    ) -> Bool {
        let key = Device.local(connection, thread: thread)
        guard activity.isActive else {
            return conversations[conversation]?.removeValue(forKey: key) != nil
        }
        let previous = conversations[conversation]?[key]
        if previous == nil { makeRoom(for: connection, in: conversation) }
        let since = previous?.activity == activity ? previous!.since : now
        conversations[conversation, default: [:]][key] = DeviceEntry(
            user: user, thread: thread, name: name, activity: activity, since: since, expiresAt: now + ttl
        )
        return true
    }

    /// Drops the device's oldest entry in the conversation if it has ``threadsPerDevice`` already.
    private mutating func makeRoom(for connection: ConnectionID, in conversation: String) {
        guard let devices = conversations[conversation] else { return }
        let mine = devices.filter { if case .local(connection, _) = $0.key { true } else { false } }
        guard mine.count >= Self.threadsPerDevice, let oldest = mine.min(by: { $0.value.since < $1.value.since })?.key else { return }
        conversations[conversation]?[oldest] = nil
    }

    /// What a socket of this node is doing in a conversation's main timeline or thread (``MemberActivity/none`` if nothing).
    func activity(of connection: ConnectionID, in conversation: String, thread: String? = nil) -> MemberActivity {
        conversations[conversation]?[.local(connection, thread: thread)]?.activity ?? .none
    }

    /// Clears a user's activity on every device in one conversation, in its main timeline and every thread
    /// (a removal).
    /// - Returns: Whether anything was cleared.
    mutating func clear(user: String, in conversation: String) -> Bool {
        clear(in: conversation) { $0.user == user }
    }

    /// Clears a user's activity on every device in one thread of a conversation, or its main timeline (a
    /// message sent there): typing elsewhere in the conversation goes on.
    /// - Returns: Whether anything was cleared.
    mutating func clear(user: String, in conversation: String, thread: String?) -> Bool {
        clear(in: conversation) { $0.user == user && $0.thread == thread }
    }

    private mutating func clear(in conversation: String, where matches: (DeviceEntry) -> Bool) -> Bool {
        guard let devices = conversations[conversation] else { return false }
        let kept = devices.filter { !matches($0.value) }
        conversations[conversation] = kept.isEmpty ? nil : kept
        return kept.count != devices.count
    }

    /// Clears a user's activity everywhere (they turned sharing off).
    /// - Returns: The conversations that changed.
    mutating func clear(user: String) -> [String] {
        conversations.keys.filter { clear(user: user, in: $0) }
    }

    /// Clears everything a closed connection was doing.
    /// - Returns: The conversations that changed.
    mutating func clear(connection: ConnectionID) -> [String] {
        var changed: [String] = []
        for (conversation, devices) in conversations {
            let kept = devices.filter { if case .local(connection, _) = $0.key { false } else { true } }
            guard kept.count != devices.count else { continue }
            conversations[conversation] = kept.isEmpty ? nil : kept
            changed.append(conversation)
        }
        return changed
    }

    /// Drops entries whose time ran out.
    /// - Returns: The conversations that changed.
    mutating func expire(now: Int64) -> [String] {
        var changed: Set<String> = []
        for (conversation, devices) in conversations {
            let kept = devices.filter { $0.value.expiresAt > now }
            guard kept.count != devices.count else { continue }
            conversations[conversation] = kept.isEmpty ? nil : kept
            changed.insert(conversation)
        }
        for (conversation, nodes) in unlisted {
            let kept = nodes.filter { $0.value.until > now }
            guard kept.count != nodes.count else { continue }
            unlisted[conversation] = kept.isEmpty ? nil : kept
            changed.insert(conversation)
        }
        return changed.sorted()
    }

    /// Replaces what another node of the cluster reported for a conversation (its users' entries, with
    /// times already on this node's clock).
    /// - Returns: Whether the conversation's state changed.
    mutating func replace(
        slice entries: [ActivityEntry], unlisted left: UnlistedActivity? = nil, of node: String, in conversation: String
    ) -> Bool {
        let leftBefore = unlisted[conversation]?[node]
        unlisted[conversation, default: [:]][node] = left
        if unlisted[conversation]?.isEmpty == true { unlisted[conversation] = nil }
        let before = conversations[conversation] ?? [:]
        var devices = before.filter { if case .remote(node, _, _) = $0.key { false } else { true } }
        for entry in entries {
            devices[.remote(node: node, user: entry.user, thread: entry.thread)] = DeviceEntry(
                user: entry.user, thread: entry.thread, name: entry.name, activity: entry.activity, since: entry.since,
                expiresAt: entry.expiresAt
            )
        }
        conversations[conversation] = devices.isEmpty ? nil : devices
        return leftBefore != left || before.count != devices.count
            || devices.contains { before[$0.key].map(Self.sameEntry($0.value)) != true }
    }

    /// Clears everything another node reported (the node stopped or died).
    /// - Returns: The conversations that changed.
    mutating func clear(node: String) -> [String] {
        var changed: Set<String> = []
        for (conversation, devices) in conversations {
            let kept = devices.filter { if case .remote(node, _, _) = $0.key { false } else { true } }
            guard kept.count != devices.count else { continue }
            conversations[conversation] = kept.isEmpty ? nil : kept
            changed.insert(conversation)
        }
        for (conversation, nodes) in unlisted where nodes[node] != nil {
            unlisted[conversation]?[node] = nil
            if unlisted[conversation]?.isEmpty == true { unlisted[conversation] = nil }
            changed.insert(conversation)
        }
        return changed.sorted()
    }

    /// Clears what other nodes reported for a conversation (this node stopped following it, and hears no
    /// more of it on a bus that routes by interest).
    mutating func clearRemote(in conversation: String) {
        unlisted[conversation] = nil
        guard let devices = conversations[conversation] else { return }
        let kept = devices.filter(\.key.isLocal)
        conversations[conversation] = kept.isEmpty ? nil : kept
    }

    /// The conversations where this node's own sockets are doing something.
    var conversationsWithLocalActivity: [String] {
        conversations.compactMap { conversation, devices in devices.keys.contains(where: \.isLocal) ? conversation : nil }
    }

    private static func sameEntry(_ a: DeviceEntry) -> (DeviceEntry) -> Bool {
        { b in a.activity == b.activity && a.since == b.since && a.expiresAt == b.expiresAt && a.name == b.name }
    }

    /// Whether a user is doing something in a conversation, on any device.
    func isActive(_ user: String, in conversation: String) -> Bool {
        conversations[conversation]?.values.contains { $0.user == user } ?? false
    }

    /// When the next entry expires.
    var nextExpiry: Int64? {
        let entries = conversations.values.lazy.flatMap(\.values).map(\.expiresAt).min()
        let left = unlisted.values.lazy.flatMap(\.values).map(\.until).min()
        return [entries, left].compactMap { $0 }.min()
    }

    /// The users other nodes left out of their slices of a conversation (``ClusterSlice``): `total` counts them.
    func unlistedUsers(in conversation: String) -> Int {
        unlisted[conversation]?.values.reduce(0) { $0 + $1.users } ?? 0
    }

    /// The conversation's state, one entry per user and thread (the main timeline's without one), in the
    /// order they started.
    /// - Parameter localOnly: Only this node's sockets: the slice a cluster node shares with the others.
    func entries(in conversation: String, localOnly: Bool = false) -> [ActivityEntry] {
        guard let devices = conversations[conversation] else { return [] }
        var byUser: [UserThread: ActivityEntry] = [:]
        for (key, device) in devices where !localOnly || key.isLocal {
            let entry = ActivityEntry(
                user: device.user, name: device.name, activity: device.activity, since: device.since, expiresAt: device.expiresAt,
                thread: device.thread)
            let place = UserThread(user: device.user, thread: device.thread)
            guard var merged = byUser[place] else {
                byUser[place] = entry
                continue
            }
            if entry.since > merged.since { merged.activity = entry.activity }
            merged.since = min(merged.since, entry.since)
            merged.expiresAt = max(merged.expiresAt, entry.expiresAt)
            byUser[place] = merged
        }
        return byUser.values.sorted { ($0.since, $0.user, $0.thread ?? "") < ($1.since, $1.user, $1.thread ?? "") }
    }

    private struct UserThread: Hashable {
        var user: String
        var thread: String?
    }
}
