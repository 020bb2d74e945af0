import PostgresNIO
import TypewireCore

// A typing-only server's read state in the cluster's PostgreSQL, over the app's own message ids
// (`AppReadMarksSQL`).
extension PostgresChatStore {
    private static let currentMarks = AppReadMarksSQL.current(.postgres) + " FOR UPDATE"
    private static let moveRead = AppReadMarksSQL.moveForward([.read, .shared], .postgres)
    private static let moveDelivered = AppReadMarksSQL.moveForward([.delivered], .postgres)
    private static let appMarks = AppReadMarksSQL.timelineMarks(.postgres)

    public func markAppRead(_ message: AppMessage, in conversation: String, by user: String, at time: Int64, privately: Bool)
        async throws -> ReadOutcome
    {
        let thread = message.thread ?? ""
        return try await transaction { connection in
            var marks: (own: Int64, ownID: String, shared: Int64, sharedID: String) = (0, "", 0, "")
            let current = try await connection.query(
                Self.query(Self.currentMarks, conversation, thread, user), logger: logger)
            for try await row in current.decode((Int64, String, Int64, String).self) { marks = row }
            var shows = !privately
            if shows {
                let setting = try await connection.query(#"SELECT read_receipts FROM users WHERE id = \#(user)"#, logger: logger)
                for try await value in setting.decode(String.self) { shows = value == ReadReceiptSharing.share.rawValue }
            }
            let own = AppReadMarksSQL.isAhead(message, of: marks.own, marks.ownID)
            let shared = shows && AppReadMarksSQL.isAhead(message, of: marks.shared, marks.sharedID)
            guard own || shared else { return .unchanged }
            try await connection.query(
                Self.query(
                    Self.moveRead, conversation, thread, user, message.sentAt, message.id, time, shared ? message.sentAt : 0,
                    shared ? message.id : "", shared ? time : 0),
                logger: logger
            ).drain()
            return .moved(ReadMark(user: user, messageId: message.id, at: time), thread: message.thread, own: own, shared: shared)
        }
    }

    public func markAppDelivered(_ message: AppMessage, in conversation: String, by user: String, at time: Int64) async throws
        -> DeliveredOutcome
    {
        try await transaction { connection in
            var shares = true
            let setting = try await connection.query(#"SELECT read_receipts FROM users WHERE id = \#(user)"#, logger: logger)
            for try await value in setting.decode(String.self) { shares = value == ReadReceiptSharing.share.rawValue }
            guard shares else { return .unchanged }
            var moved = false
            let rows = try await connection.query(
                Self.query(Self.moveDelivered, conversation, message.thread ?? "", user, message.sentAt, message.id, time), logger: logger)
            for try await _ in rows { moved = true }
            return moved ? .moved(ReadMark(user: user, messageId: message.id, at: time), thread: message.thread) : .unchanged
        }
    }

    public func appTimelineMarks(in conversation: String, limit: Int) async throws -> TimelineMarks {
        var marks = TimelineMarks()
        let rows = try await client.query(Self.query(Self.appMarks, conversation, limit), logger: logger)
        for try await (user, sharedTime, sharedID, sharedAt, deliveredTime, deliveredID, deliveredAt) in rows.decode(
            (String, Int64, String, Int64, Int64, String, Int64).self)
        {
            if sharedTime > 0 { marks.reads.append(ReadMark(user: user, messageId: sharedID, at: sharedAt)) }
            if deliveredTime > 0 { marks.delivered.append(ReadMark(user: user, messageId: deliveredID, at: deliveredAt)) }
        }
        return marks
    }

    /// A statement of `AppReadMarksSQL` with its parameters, in order.
    private static func query(_ sql: String, _ values: any PostgresDynamicTypeEncodable & Sendable...) -> PostgresQuery {
        var binds = PostgresBindings()
        for value in values { binds.append(value) }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }
}
