import PostgresNIO
import TypewireCore

// Read state in the cluster's PostgreSQL: per member and timeline (`thread` '' for the main one) the mark they
// read up to (`seq`, `read_at`) and the mark the others may see (`shared_seq`, `shared_at`; 0 before any
// shared read).
extension PostgresChatStore {
    public func markRead(
        _ messageId: String, in conversation: String, by user: String, at time: Int64, privately: Bool
    ) async throws -> ReadOutcome {
        guard let seq = Int64(messageId) else { return .noSuchMessage }
        return try await transaction { connection in
            guard let thread = try await timeline(of: seq, in: conversation, on: connection) else { return .noSuchMessage }
            var marks: (seq: Int64, shared: Int64) = (0, 0)
            let current = try await connection.query(
                #"SELECT seq, shared_seq FROM read_marks WHERE conversation = \#(conversation) AND thread = \#(thread ?? "") AND "user" = \#(user)"#,
                logger: logger)
            for try await (own, shared) in current.decode((Int64, Int64).self) { marks = (own, shared) }
            var shows = !privately
            if shows {
                let setting = try await connection.query(#"SELECT read_receipts FROM users WHERE id = \#(user)"#, logger: logger)
                for try await value in setting.decode(String.self) { shows = value == ReadReceiptSharing.share.rawValue }
            }
            let own = seq > marks.seq
            let shared = shows && seq > marks.shared
            guard own || shared else { return .unchanged }
            let sharedSeq: Int64 = shows ? seq : 0
            let sharedAt: Int64 = shows ? time : 0
            let upserted = try await connection.query(
                #"""
                INSERT INTO read_marks (conversation, thread, "user", seq, read_at, shared_seq, shared_at)
                VALUES (\#(conversation), \#(thread ?? ""), \#(user), \#(seq), \#(time), \#(sharedSeq), \#(sharedAt))
                \#(unescaped: Self.moveMarkForward)
                """#, logger: logger)
            for try await _ in upserted {}
            return .moved(ReadMark(user: user, messageId: messageId, at: time), thread: thread, own: own, shared: shared)
        }
    }

    public func markUnread(from messageId: String, in conversation: String, by user: String, at time: Int64) async throws
        -> UnreadOutcome
    {
        guard let seq = Int64(messageId) else { return .noSuchMessage }
        return try await transaction { connection in
            guard let thread = try await timeline(of: seq, in: conversation, on: connection) else { return .noSuchMessage }
            var own: Int64 = 0
            let current = try await connection.query(
                #"SELECT seq FROM read_marks WHERE conversation = \#(conversation) AND thread = \#(thread ?? "") AND "user" = \#(user) FOR UPDATE"#,
                logger: logger)
            for try await value in current.decode(Int64.self) { own = value }
            guard own >= seq else { return .unchanged }
            var before: Int64 = 0
            // Two statements, so that each timeline's own index serves it (`thread IS NULL`, `thread = …`).
            let older: PostgresQuery =
                if let thread {
                    "SELECT COALESCE(MAX(seq), 0) FROM messages WHERE conversation = \(conversation) AND thread = \(thread) AND seq < \(seq)"
                } else {
                    "SELECT COALESCE(MAX(seq), 0) FROM messages WHERE conversation = \(conversation) AND thread IS NULL AND seq < \(seq)"
                }
            for try await value in try await connection.query(older, logger: logger).decode(Int64.self) { before = value }
            let updated = try await connection.query(
                #"""
                UPDATE read_marks SET seq = \#(before), read_at = \#(time)
                WHERE conversation = \#(conversation) AND thread = \#(thread ?? "") AND "user" = \#(user)
                """#, logger: logger)
            for try await _ in updated {}
            return .moved(to: before > 0 ? String(before) : nil, thread: thread)
        }
    }

    /// The timeline a message is in: `.some(nil)` the main one, `.some(parent)` a thread; nil if the
    /// conversation has no such message.
    private func timeline(of seq: Int64, in conversation: String, on connection: PostgresConnection) async throws -> String?? {
        var found: String??
        let rows = try await connection.query(
            "SELECT thread FROM messages WHERE seq = \(seq) AND conversation = \(conversation)", logger: logger)
        for try await thread in rows.decode(String?.self) { found = .some(thread) }
        return found
    }

    /// What an insert into `read_marks` does when the member has a mark there: each of the two marks moves
    /// forward only, and a row that moves neither is left as it was (and not returned).
    static let moveMarkForward = """
        ON CONFLICT (conversation, thread, "user") DO UPDATE SET
            seq = GREATEST(read_marks.seq, excluded.seq),
            read_at = CASE WHEN excluded.seq > read_marks.seq THEN excluded.read_at ELSE read_marks.read_at END,
            shared_seq = GREATEST(read_marks.shared_seq, excluded.shared_seq),
            shared_at = CASE WHEN excluded.shared_seq > read_marks.shared_seq THEN excluded.shared_at ELSE read_marks.shared_at END
        WHERE excluded.seq > read_marks.seq OR excluded.shared_seq > read_marks.shared_seq
        """

    public func markDelivered(_ messageId: String, in conversation: String, by user: String, at time: Int64) async throws
        -> DeliveredOutcome
    {
        guard let seq = Int64(messageId) else { return .noSuchMessage }
        return try await transaction { connection in
            guard let thread = try await timeline(of: seq, in: conversation, on: connection) else { return .noSuchMessage }
            var shares = true
            let setting = try await connection.query(#"SELECT read_receipts FROM users WHERE id = \#(user)"#, logger: logger)
            for try await value in setting.decode(String.self) { shares = value == ReadReceiptSharing.share.rawValue }
            guard shares else { return .unchanged }
            var moved = false
            let upserted = try await connection.query(
                #"""
                INSERT INTO read_marks (conversation, thread, "user", seq, read_at, shared_seq, shared_at, delivered_seq, delivered_at)
                VALUES (\#(conversation), \#(thread ?? ""), \#(user), 0, 0, 0, 0, \#(seq), \#(time))
                ON CONFLICT (conversation, thread, "user") DO UPDATE SET
                    delivered_seq = excluded.delivered_seq, delivered_at = excluded.delivered_at
                WHERE excluded.delivered_seq > read_marks.delivered_seq
                RETURNING delivered_seq
                """#, logger: logger)
            for try await _ in upserted { moved = true }
            return moved ? .moved(ReadMark(user: user, messageId: messageId, at: time), thread: thread) : .unchanged
        }
    }

    public func timelineMarks(in conversation: String, limit: Int) async throws -> TimelineMarks {
        var marks = TimelineMarks()
        let rows = try await client.query(
            #"""
            SELECT r."user", r.shared_seq, r.shared_at, r.delivered_seq, r.delivered_at FROM read_marks r
            JOIN participants p ON p.conversation = r.conversation AND p."user" = r."user"
            LEFT JOIN users u ON u.id = r."user"
            WHERE r.conversation = \#(conversation) AND r.thread = '' AND (r.shared_seq > 0 OR r.delivered_seq > 0)
            AND COALESCE(u.read_receipts, 'share') = 'share'
            ORDER BY r."user" LIMIT \#(limit)
            """#, logger: logger)
        for try await (user, seq, at, deliveredSeq, deliveredAt) in rows.decode((String, Int64, Int64, Int64, Int64).self) {
            if seq > 0 { marks.reads.append(ReadMark(user: user, messageId: String(seq), at: at)) }
            if deliveredSeq > 0 { marks.delivered.append(ReadMark(user: user, messageId: String(deliveredSeq), at: deliveredAt)) }
        }
        return marks
    }

    public func readCounts(in conversation: String, thread: String?, messages: Int) async throws -> [ReadCount] {
        let newest: PostgresQuery
        if let thread {
            newest = #"""
                SELECT m.seq, m.sender FROM messages m WHERE m.conversation = \#(conversation) AND m.thread = \#(thread)
                ORDER BY m.seq DESC LIMIT \#(messages)
                """#
        } else {
            newest = #"""
                SELECT m.seq, m.sender FROM messages m WHERE m.conversation = \#(conversation) AND m.thread IS NULL
                ORDER BY m.seq DESC LIMIT \#(messages)
                """#
        }
        var found: [(seq: Int64, sender: String)] = []
        for try await row in try await client.query(newest, logger: logger).decode((Int64, String).self) { found.append(row) }
        guard let oldest = found.last?.seq else { return [] }
        // The shared marks at or past the oldest of them, of current members: at most one per member.
        var marks: [(user: String, seq: Int64)] = []
        let rows = try await client.query(
            #"""
            SELECT r."user", r.shared_seq FROM read_marks r JOIN participants p ON p.conversation = r.conversation AND p."user" = r."user"
            LEFT JOIN users u ON u.id = r."user"
            WHERE r.conversation = \#(conversation) AND r.thread = \#(thread ?? "") AND r.shared_seq >= \#(oldest)
            AND COALESCE(u.read_receipts, 'share') = 'share'
            """#, logger: logger)
        for try await row in rows.decode((String, Int64).self) { marks.append(row) }
        return found.map { message in
            ReadCount(messageId: String(message.seq), readers: marks.count { $0.seq >= message.seq && $0.user != message.sender })
        }
    }

    public func unreadCount(of user: String, in conversation: String, thread: String?, through newest: Int64?, limit: Int) async throws
        -> Int
    {
        let newest = newest ?? .max
        // Two statements, so that each timeline's own index serves it (`thread IS NULL`, `thread = …`).
        let query: PostgresQuery
        if let thread {
            query = #"""
                SELECT COUNT(*) FROM (
                    SELECT 1 FROM messages WHERE conversation = \#(conversation) AND thread = \#(thread) AND sender <> \#(user) AND seq <= \#(newest)
                    AND seq > COALESCE((SELECT seq FROM read_marks WHERE conversation = \#(conversation) AND thread = \#(thread) AND "user" = \#(user)), 0)
                    LIMIT \#(limit)) AS unread
                """#
        } else {
            query = #"""
                SELECT COUNT(*) FROM (
                    SELECT 1 FROM messages WHERE conversation = \#(conversation) AND thread IS NULL AND sender <> \#(user) AND seq <= \#(newest)
                    AND seq > COALESCE((SELECT seq FROM read_marks WHERE conversation = \#(conversation) AND thread = '' AND "user" = \#(user)), 0)
                    LIMIT \#(limit)) AS unread
                """#
        }
        var count = 0
        for try await value in try await client.query(query, logger: logger).decode(Int64.self) { count = Int(value) }
        return count
    }
}
