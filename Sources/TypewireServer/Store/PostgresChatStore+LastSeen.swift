import PostgresNIO
import TypewireCore

// Last seen in PostgreSQL: `users.last_seen_at`, moved forward only.
extension PostgresChatStore {
    public func recordLastSeen(of user: String, at time: Int64) async throws {
        try await run(
            """
            INSERT INTO users (id, last_seen_at) VALUES (\(user), \(time))
            ON CONFLICT (id) DO UPDATE SET last_seen_at = GREATEST(COALESCE(users.last_seen_at, 0), excluded.last_seen_at)
            """)
    }

    public func lastSeen(in conversation: String) async throws -> [String: LastSeenRecord] {
        let rows = try await client.query(
            #"""
            SELECT p."user", u.last_seen_at, u.shares_presence FROM participants p JOIN users u ON u.id = p."user"
            WHERE p.conversation = \#(conversation) AND u.last_seen_at IS NOT NULL
            """#,
            logger: logger
        )
        var records: [String: LastSeenRecord] = [:]
        for try await (user, at, shares) in rows.decode((String, Int64, Bool).self) {
            records[user] = LastSeenRecord(at: at, sharesPresence: shares)
        }
        return records
    }

    public func lastSeen(of user: String) async throws -> LastSeenRecord? {
        var record: LastSeenRecord?
        let rows = try await client.query(
            "SELECT last_seen_at, shares_presence FROM users WHERE id = \(user) AND last_seen_at IS NOT NULL", logger: logger)
        for try await (at, shares) in rows.decode((Int64, Bool).self) { record = LastSeenRecord(at: at, sharesPresence: shares) }
        return record
    }
}
