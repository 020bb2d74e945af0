import SQLiteNIO
import TypewireCore

// Last seen in the SQLite file: `users.last_seen_at`, moved forward only.
extension SQLiteChatStore {
    public func recordLastSeen(of user: String, at time: Int64) async throws {
        _ = try await database.write {
            try await $0.query(
                """
                INSERT INTO users (id, last_seen_at) VALUES (?, ?)
                ON CONFLICT (id) DO UPDATE SET last_seen_at = MAX(COALESCE(users.last_seen_at, 0), excluded.last_seen_at)
                """,
                [.text(user), .integer(Int(time))]
            )
        }
    }

    public func lastSeen(in conversation: String) async throws -> [String: LastSeenRecord] {
        let rows = try await database.read {
            try await $0.query(
                """
                SELECT p.user, u.last_seen_at, u.shares_presence FROM participants p JOIN users u ON u.id = p.user
                WHERE p.conversation = ? AND u.last_seen_at IS NOT NULL
                """,
                [.text(conversation)]
            )
        }
        var records: [String: LastSeenRecord] = [:]
        for row in rows {
            guard let user = row.column("user")?.string, let record = Self.lastSeenRecord(from: row) else { continue }
            records[user] = record
        }
        return records
    }

    public func lastSeen(of user: String) async throws -> LastSeenRecord? {
        try await database.read {
            try await $0.query("SELECT last_seen_at, shares_presence FROM users WHERE id = ?", [.text(user)])
        }.first.flatMap(Self.lastSeenRecord(from:))
    }

    private static func lastSeenRecord(from row: SQLiteRow) -> LastSeenRecord? {
        guard let at = row.column("last_seen_at")?.integer else { return nil }
        return LastSeenRecord(at: Int64(at), sharesPresence: row.column("shares_presence")?.integer != 0)
    }
}
