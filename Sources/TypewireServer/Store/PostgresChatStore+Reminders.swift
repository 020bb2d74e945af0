import PostgresNIO

// `unread.reminder` on PostgreSQL: the messages table is the schedule, one row keeps how far the sweeps went,
// and a transaction-scoped advisory lock lets one node sweep at a time (each message is reminded once).
extension PostgresChatStore {
    public func sweepUnreadReminders(sentAfter: Int64, sentBefore: Int64, limit: Int, endpoints: [String], at now: Int64) async throws
        -> Int
    {
        guard !endpoints.isEmpty else { return 0 }
        let logger = logger
        return try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.reminderSweepLock))", logger: logger).drain()
            var position: Int64 = 0
            for try await (value) in try await connection.query(
                "SELECT position FROM webhook_sweeps WHERE name = \(Self.reminderSweep)", logger: logger
            ).decode(Int64.self) {
                position = value
            }
            var due: [(seq: Int64, conversation: String, sender: String, sentAt: Int64)] = []
            for try await (seq, conversation, sender, sentAt) in try await connection.query(
                """
                SELECT seq, conversation, sender, sent_at FROM messages
                WHERE seq > \(position) AND sent_at <= \(sentBefore) AND thread IS NULL ORDER BY seq LIMIT \(limit)
                """, logger: logger
            ).decode((Int64, String, String, Int64).self) {
                due.append((seq, conversation, sender, sentAt))
            }
            for message in due where message.sentAt > sentAfter {
                var users: [String] = []
                for try await (user) in try await connection.query(
                    """
                    SELECT p."user" FROM participants p
                    LEFT JOIN read_marks r ON r.conversation = p.conversation AND r.thread = '' AND r."user" = p."user"
                    LEFT JOIN users u ON u.id = p."user"
                    WHERE p.conversation = \(message.conversation) AND p."user" <> \(message.sender) AND coalesce(r.seq, 0) < \(message.seq)
                        AND NOT coalesce(u.is_bot, false)
                    ORDER BY p."user"
                    """, logger: logger
                ).decode(String.self) {
                    users.append(user)
                }
                guard !users.isEmpty else { continue }
                let event = WebhookEvent(
                    id: WebhookEvent.makeID(), createdAt: now,
                    payload: .unreadReminder(
                        conversation: message.conversation, messageId: String(message.seq), sender: message.sender, sentAt: message.sentAt,
                        users: users))
                try await Self.insertWebhook(event, to: endpoints, on: connection, logger: logger)
            }
            if let last = due.last?.seq {
                try await connection.query(
                    """
                    INSERT INTO webhook_sweeps (name, position) VALUES (\(Self.reminderSweep), \(last))
                    ON CONFLICT (name) DO UPDATE SET position = excluded.position
                    """, logger: logger
                ).drain()
            }
            return due.count
        }
    }

    /// The sweep's row in `webhook_sweeps`, and the advisory lock its transactions take.
    static let reminderSweep = "unread.reminder"
    static let reminderSweepLock: Int64 = 7_477_657_770
}
