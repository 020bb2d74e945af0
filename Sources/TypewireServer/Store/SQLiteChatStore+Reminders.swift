import SQLiteNIO

// `unread.reminder` on SQLite: the messages table is the schedule, and one row keeps how far the sweeps went.
extension SQLiteChatStore {
    public func sweepUnreadReminders(sentAfter: Int64, sentBefore: Int64, limit: Int, endpoints: [String], at now: Int64) async throws
        -> Int
    {
        guard !endpoints.isEmpty else { return 0 }
        return try await database.transaction { connection in
            let position =
                try await connection.query("SELECT position FROM webhook_sweeps WHERE name = ?", [.text(Self.reminderSweep)])
                .first?.column("position")?.integer ?? 0
            let due = try await connection.query(
                """
                SELECT seq, conversation, sender, sent_at FROM messages
                WHERE seq > ? AND sent_at <= ? AND thread IS NULL ORDER BY seq LIMIT ?
                """,
                [.integer(position), .integer(Int(sentBefore)), .integer(limit)])
            for row in due {
                guard let seq = row.column("seq")?.integer, let conversation = row.column("conversation")?.string,
                    let sender = row.column("sender")?.string, let sentAt = row.column("sent_at")?.integer, sentAt > sentAfter
                else { continue }
                let users = try await connection.query(
                    """
                    SELECT p.user AS user FROM participants p
                    LEFT JOIN read_marks r ON r.conversation = p.conversation AND r.thread = '' AND r.user = p.user
                    LEFT JOIN users u ON u.id = p.user
                    WHERE p.conversation = ? AND p.user != ? AND coalesce(r.seq, 0) < ? AND coalesce(u.is_bot, 0) = 0
                    ORDER BY p.user
                    """,
                    [.text(conversation), .text(sender), .integer(seq)]
                ).compactMap { $0.column("user")?.string }
                guard !users.isEmpty else { continue }
                let event = WebhookEvent(
                    id: WebhookEvent.makeID(), createdAt: now,
                    payload: .unreadReminder(
                        conversation: conversation, messageId: String(seq), sender: sender, sentAt: Int64(sentAt), users: users))
                try await Self.insertWebhook(event, to: endpoints, on: connection)
            }
            if let last = due.last?.column("seq")?.integer {
                _ = try await connection.query(
                    "INSERT INTO webhook_sweeps (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position",
                    [.text(Self.reminderSweep), .integer(last)])
            }
            return due.count
        }
    }

    /// The sweep's row in `webhook_sweeps`.
    static let reminderSweep = "unread.reminder"
}
