import SQLiteNIO
import TypewireCore

// A typing-only server's read state in the SQLite file, over the app's own message ids (`AppReadMarksSQL`).
extension SQLiteChatStore {
    private static let currentMarks = AppReadMarksSQL.current(.sqlite)
    private static let moveRead = AppReadMarksSQL.moveForward([.read, .shared], .sqlite)
    private static let moveDelivered = AppReadMarksSQL.moveForward([.delivered], .sqlite)
    private static let appMarks = AppReadMarksSQL.timelineMarks(.sqlite)

    public func markAppRead(_ message: AppMessage, in conversation: String, by user: String, at time: Int64, privately: Bool)
        async throws -> ReadOutcome
    {
        let thread = message.thread ?? ""
        return try await database.transaction { connection in
            let current = try await connection.query(Self.currentMarks, [.text(conversation), .text(thread), .text(user)]).first
            let shows = try await privately ? false : Self.sharesReading(user, on: connection)
            let own = AppReadMarksSQL.isAhead(
                message, of: Int64(current?.column("read_sent_at")?.integer ?? 0), current?.column("read_message_id")?.string ?? "")
            let shared =
                shows
                && AppReadMarksSQL.isAhead(
                    message, of: Int64(current?.column("shared_sent_at")?.integer ?? 0), current?.column("shared_message_id")?.string ?? "")
            guard own || shared else { return .unchanged }
            let (sentAt, at) = (Int(message.sentAt), Int(time))
            _ = try await connection.query(
                Self.moveRead,
                [
                    .text(conversation), .text(thread), .text(user), .integer(sentAt), .text(message.id), .integer(at),
                    .integer(shared ? sentAt : 0), .text(shared ? message.id : ""), .integer(shared ? at : 0),
                ])
            return .moved(ReadMark(user: user, messageId: message.id, at: time), thread: message.thread, own: own, shared: shared)
        }
    }

    public func markAppDelivered(_ message: AppMessage, in conversation: String, by user: String, at time: Int64) async throws
        -> DeliveredOutcome
    {
        try await database.transaction { connection in
            guard try await Self.sharesReading(user, on: connection) else { return .unchanged }
            let moved = try await connection.query(
                Self.moveDelivered,
                [
                    .text(conversation), .text(message.thread ?? ""), .text(user), .integer(Int(message.sentAt)), .text(message.id),
                    .integer(Int(time)),
                ])
            return moved.isEmpty ? .unchanged : .moved(ReadMark(user: user, messageId: message.id, at: time), thread: message.thread)
        }
    }

    public func appTimelineMarks(in conversation: String, limit: Int) async throws -> TimelineMarks {
        let rows = try await database.read { try await $0.query(Self.appMarks, [.text(conversation), .integer(limit)]) }
        var marks = TimelineMarks()
        for row in rows {
            guard let user = row.column("user")?.string else { continue }
            for (mark, into) in [("shared_", \TimelineMarks.reads), ("delivered_", \TimelineMarks.delivered)]
            where row.column(mark + "sent_at")?.integer ?? 0 > 0 {
                let id = row.column(mark + "message_id")?.string ?? ""
                marks[keyPath: into].append(ReadMark(user: user, messageId: id, at: Int64(row.column(mark + "at")?.integer ?? 0)))
            }
        }
        return marks
    }
}
