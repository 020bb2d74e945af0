import TypewireCore

/// Identifies one socket (one device of a user).
public typealias ConnectionID = Int

/// Who is doing what in which conversation, per device, with server-stamped expiry. A pure value: the
/// hub feeds it the server's time.
///
/// Activity is kept per connection, so a stop on the phone does not hide the laptop's typing, and fanned
/// out per user: ``entries(in:)`` gives one entry per user (the latest activity, the earliest start, the
/// latest expiry).
struct ActivityBoard {
    private struct DeviceEntry {
        var user: String
        var name: String?
        var activity: Activity
        var since: Int64
        var expiresAt: Int64
    }

    /// How long an activity lives after its last frame, in milliseconds.
    let ttl: Int64
    private var conversations: [String: [ConnectionID: DeviceEntry]] = [:]

    init(ttl: Int64) {
        self.ttl = ttl
    }

    /// Sets one device's activity; `.none` clears it.
    /// - Returns: Whether the conversation's state changed (a refresh changes `expiresAt`, so it does).
    mutating func set(
        _ activity: Activity, in conversation: String, connection: ConnectionID, user: String, name: String?, now: Int64
    ) -> Bool {
        guard activity.isActive else {
            return conversations[conversation]?.removeValue(forKey: connection) != nil
        }
        let previous = conversations[conversation]?[connection]
        let since = previous?.activity == activity ? previous!.since : now
        conversations[conversation, default: [:]][connection] = DeviceEntry(
            user: user, name: name, activity: activity, since: since, expiresAt: now + ttl
        )
        return true
    }

    /// Clears a user's activity on every device in one conversation (a sent message, a removal).
    /// - Returns: Whether anything was cleared.
    mutating func clear(user: String, in conversation: String) -> Bool {
        guard let devices = conversations[conversation] else { return false }
        let kept = devices.filter { $0.value.user != user }
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
        for (conversation, devices) in conversations where devices[connection] != nil {
            conversations[conversation]![connection] = nil
            if conversations[conversation]!.isEmpty { conversations[conversation] = nil }
            changed.append(conversation)
        }
        return changed
    }

    /// Drops entries whose time ran out.
    /// - Returns: The conversations that changed.
    mutating func expire(now: Int64) -> [String] {
        var changed: [String] = []
        for (conversation, devices) in conversations {
            let kept = devices.filter { $0.value.expiresAt > now }
            guard kept.count != devices.count else { continue }
            conversations[conversation] = kept.isEmpty ? nil : kept
            changed.append(conversation)
        }
        return changed
    }

    /// When the next entry expires.
    var nextExpiry: Int64? {
        conversations.values.lazy.flatMap(\.values).map(\.expiresAt).min()
    }

    /// The conversation's state, one entry per user, in the order they started.
    func entries(in conversation: String) -> [ActivityEntry] {
        guard let devices = conversations[conversation] else { return [] }
        var byUser: [String: ActivityEntry] = [:]
        for device in devices.values {
            let entry = ActivityEntry(user: device.user, name: device.name, activity: device.activity, since: device.since, expiresAt: device.expiresAt)
            guard var merged = byUser[device.user] else {
                byUser[device.user] = entry
                continue
            }
            if entry.since > merged.since { merged.activity = entry.activity }
            merged.since = min(merged.since, entry.since)
            merged.expiresAt = max(merged.expiresAt, entry.expiresAt)
            byUser[device.user] = merged
        }
        return byUser.values.sorted { ($0.since, $0.user) < ($1.since, $1.user) }
    }
}
