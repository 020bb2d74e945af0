import SQLiteNIO
import TypewireCore

// Read state in the SQLite file: per member and timeline (`thread` '' for the main one) the mark they read up
// to (`seq`, `read_at`) and the mark the others may see (`shared_seq`, `shared_at`; 0 before any shared read).
extension SQLiteChatStore {
    public func markRead(
        _ messageId: String, in conversation: String, by user: String, at time: Int64, privately: Bool
    ) async throws -> ReadOutcome {
        guard let seq = Int(messageId) else { return .noSuchMessage }
        // Two statements in one turn of the writer, no transaction: the message's timeline, the member's marks
        // and whether they share their reading in one read, then the one write (forward only by itself); no
        // other write runs between them. A read is the hot write of a large group: every statement is a hop to
        // the writer's thread and a parse.
        return try await database.write { connection in
            guard
                let found = try await connection.query(
                    """
                    SELECT m.thread AS thread, r.seq AS seq, r.shared_seq AS shared_seq, u.read_receipts AS read_receipts
                    FROM messages m
                    LEFT JOIN read_marks r ON r.conversation = m.conversation AND r.thread = coalesce(m.thread, '') AND r.user = ?
                    LEFT JOIN users u ON u.id = ?
                    WHERE m.seq = ? AND m.conversation = ?
                    """,
                    [.text(user), .text(user), .integer(seq), .text(conversation)]
                ).first
            else { return .noSuchMessage }
            let thread = found.column("thread")?.string
            let sharing = found.column("read_receipts")?.string ?? ReadReceiptSharing.share.rawValue
            let shows = !privately && sharing == ReadReceiptSharing.share.rawValue
            let own = seq > found.column("seq")?.integer ?? 0
            let shared = shows && seq > found.column("shared_seq")?.integer ?? 0
            guard own || shared else { return .unchanged }
            _ = try await Self.moveMark(of: user, to: seq, in: conversation, thread: thread, at: time, shared: shows, on: connection)
            return .moved(ReadMark(user: user, messageId: messageId, at: time), thread: thread, own: own, shared: shared)
        }
    }

    public func markUnread(from messageId: String, in conversation: String, by user: String, at time: Int64) async throws
        -> UnreadOutcome
    {
        guard let seq = Int(messageId) else { return .noSuchMessage }
        return try await database.transaction { connection in
            guard let thread = try await Self.timeline(of: seq, in: conversation, on: connection) else { return .noSuchMessage }
            let own =
                try await connection.query(
                    "SELECT seq FROM read_marks WHERE conversation = ? AND thread = ? AND user = ?",
                    [.text(conversation), .text(thread ?? ""), .text(user)]
                ).first?.column("seq")?.integer ?? 0
            guard own >= seq else { return .unchanged }
            // Two statements, so that each timeline's own index serves it (`thread IS NULL`, `thread = ?`).
            let before =
                try await connection.query(
                    thread == nil
                        ? "SELECT max(seq) AS seq FROM messages WHERE conversation = ? AND thread IS NULL AND seq < ?"
                        : "SELECT max(seq) AS seq FROM messages WHERE conversation = ? AND seq < ? AND thread = ?",
                    [.text(conversation), .integer(seq)] + (thread.map { [.text($0)] } ?? [])
                ).first?.column("seq")?.integer ?? 0
            _ = try await connection.query(
                "UPDATE read_marks SET seq = ?, read_at = ? WHERE conversation = ? AND thread = ? AND user = ?",
                [.integer(before), .integer(Int(time)), .text(conversation), .text(thread ?? ""), .text(user)])
            return .moved(to: before > 0 ? String(before) : nil, thread: thread)
        }
    }

    /// The timeline a message is in: `.some(nil)` the main one, `.some(parent)` a thread; nil if the
    /// conversation has no such message.
    private static func timeline(of seq: Int, in conversation: String, on connection: SQLiteConnection) async throws -> String?? {
        let found = try await connection.query(
            "SELECT thread FROM messages WHERE seq = ? AND conversation = ?", [.integer(seq), .text(conversation)])
        return found.first.map { $0.column("thread")?.string }
    }

    /// A sender has read what they answered: their mark in the message's timeline moves to their own message
    /// (the one the others see too, unless they hide their reading).
    static func markRead(_ message: ChatMessage, by sender: String, on connection: SQLiteConnection) async throws {
        guard let seq = Int(message.id) else { return }
        let shared = try await sharesReading(sender, on: connection)
        _ = try await moveMark(
            of: sender, to: seq, in: message.conversation, thread: message.thread, at: message.sentAt, shared: shared, on: connection)
    }

    /// Whether a user shows others their reading (a user with no row does: the default).
    static func sharesReading(_ user: String, on connection: SQLiteConnection) async throws -> Bool {
        let rows = try await connection.query("SELECT read_receipts FROM users WHERE id = ?", [.text(user)])
        return (rows.first?.column("read_receipts")?.string ?? ReadReceiptSharing.share.rawValue) == ReadReceiptSharing.share.rawValue
    }

    /// Moves a member's mark in a timeline forward to `seq` (and the mark others see, if `shared`), never back;
    /// whether either moved.
    private static func moveMark(
        of user: String, to seq: Int, in conversation: String, thread: String?, at time: Int64, shared: Bool,
        on connection: SQLiteConnection
    ) async throws -> Bool {
        try await !connection.query(
            """
            INSERT INTO read_marks (conversation, thread, user, seq, read_at, shared_seq, shared_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (conversation, thread, user) DO UPDATE SET
                seq = max(read_marks.seq, excluded.seq),
                read_at = CASE WHEN excluded.seq > read_marks.seq THEN excluded.read_at ELSE read_marks.read_at END,
                shared_seq = max(read_marks.shared_seq, excluded.shared_seq),
                shared_at = CASE WHEN excluded.shared_seq > read_marks.shared_seq THEN excluded.shared_at ELSE read_marks.shared_at END
            WHERE excluded.seq > read_marks.seq OR excluded.shared_seq > read_marks.shared_seq
            RETURNING seq
            """,
            [
                .text(conversation), .text(thread ?? ""), .text(user), .integer(seq), .integer(Int(time)),
                .integer(shared ? seq : 0), .integer(shared ? Int(time) : 0),
            ]
        ).isEmpty
    }

    public func markDelivered(_ messageId: String, in conversation: String, by user: String, at time: Int64) async throws
        -> DeliveredOutcome
    {
        guard let seq = Int(messageId) else { return .noSuchMessage }
        return try await database.transaction { connection in
            guard let thread = try await Self.timeline(of: seq, in: conversation, on: connection) else { return .noSuchMessage }
            guard try await Self.sharesReading(user, on: connection) else { return .unchanged }
            let moved = try await connection.query(
                """
                INSERT INTO read_marks (conversation, thread, user, seq, read_at, shared_seq, shared_at, delivered_seq, delivered_at)
                VALUES (?, ?, ?, 0, 0, 0, 0, ?, ?)
                ON CONFLICT (conversation, thread, user) DO UPDATE SET
                    delivered_seq = excluded.delivered_seq, delivered_at = excluded.delivered_at
                WHERE excluded.delivered_seq > read_marks.delivered_seq
                RETURNING delivered_seq
                """,
                [.text(conversation), .text(thread ?? ""), .text(user), .integer(seq), .integer(Int(time))])
            return moved.isEmpty ? .unchanged : .moved(ReadMark(user: user, messageId: messageId, at: time), thread: thread)
        }
    }

    public func timelineMarks(in conversation: String, limit: Int) async throws -> TimelineMarks {
        let rows = try await database.read {
            try await $0.query(
                """
                SELECT r.user, r.shared_seq, r.shared_at, r.delivered_seq, r.delivered_at FROM read_marks r
                JOIN participants p ON p.conversation = r.conversation AND p.user = r.user
                LEFT JOIN users u ON u.id = r.user
                WHERE r.conversation = ? AND r.thread = '' AND (r.shared_seq > 0 OR r.delivered_seq > 0)
                AND coalesce(u.read_receipts, 'share') = 'share'
                ORDER BY r.user LIMIT ?
                """,
                [.text(conversation), .integer(limit)])
        }
        var marks = TimelineMarks()
        for row in rows {
            guard let user = row.column("user")?.string else { continue }
            if let seq = row.column("shared_seq")?.integer, seq > 0, let at = row.column("shared_at")?.integer {
                marks.reads.append(ReadMark(user: user, messageId: String(seq), at: Int64(at)))
            }
            if let seq = row.column("delivered_seq")?.integer, seq > 0, let at = row.column("delivered_at")?.integer {
                marks.delivered.append(ReadMark(user: user, messageId: String(seq), at: Int64(at)))
            }
        }
        return marks
    }

    public func readCounts(in conversation: String, thread: String?, messages: Int) async throws -> [ReadCount] {
        try await database.read {
            try await $0.query(
                """
                SELECT m.seq AS seq, (
                    SELECT COUNT(*) FROM read_marks r JOIN participants p ON p.conversation = r.conversation AND p.user = r.user
                    LEFT JOIN users u ON u.id = r.user
                    WHERE r.conversation = m.conversation AND r.thread = ? AND r.shared_seq >= m.seq AND r.user != m.sender
                    AND coalesce(u.read_receipts, 'share') = 'share'
                ) AS readers
                FROM messages m WHERE m.conversation = ? AND m.thread IS ? ORDER BY m.seq DESC LIMIT ?
                """,
                [.text(thread ?? ""), .text(conversation), thread.map(SQLiteData.text) ?? .null, .integer(messages)])
        }.compactMap { row in
            guard let seq = row.column("seq")?.integer, let readers = row.column("readers")?.integer else { return nil }
            return ReadCount(messageId: String(seq), readers: readers)
        }
    }

    public func unreadCount(of user: String, in conversation: String, thread: String?, through newest: Int64?, limit: Int) async throws
        -> Int
    {
        try await database.read {
            try await $0.query(
                """
                SELECT COUNT(*) AS unread FROM (
                    SELECT 1 FROM messages WHERE conversation = ? AND thread IS ? AND sender != ? AND seq <= ?
                    AND seq > coalesce((SELECT seq FROM read_marks WHERE conversation = ? AND thread = ? AND user = ?), 0)
                    LIMIT ?)
                """,
                [
                    .text(conversation), thread.map(SQLiteData.text) ?? .null, .text(user), .integer(Int(newest ?? .max)),
                    .text(conversation), .text(thread ?? ""), .text(user), .integer(limit),
                ])
        }.first?.column("unread")?.integer ?? 0
    }
}
