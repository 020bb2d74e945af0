/// The SQL of a typing-only server's read state (`app_read_marks`, over the app's own message ids), one text
/// for both stores but for their ``Dialect``. Per member and timeline (`thread`
/// '' for the main one) three marks, each a (time the app gave, app id, when it moved) triple: `read_` (their
/// own), `shared_` (the one the others see) and `delivered_`; a time of 0 is no mark. A mark moves forward
/// only, by (time, id).
enum AppReadMarksSQL {
    /// A mark's column prefix.
    enum Mark: String {
        case read = "read_"
        case shared = "shared_"
        case delivered = "delivered_"
    }

    /// How a store writes its n-th parameter, and the collation that orders text by its UTF-8 bytes (as
    /// ``isAhead(_:of:_:)`` does).
    struct Dialect: Sendable {
        let parameter: @Sendable (Int) -> String
        let byteOrder: String

        static let sqlite = Dialect(parameter: { _ in "?" }, byteOrder: "")
        static let postgres = Dialect(parameter: { "$\($0)" }, byteOrder: #" COLLATE "C""#)
    }

    /// The table, created by both stores' migration 15.
    static let createTable = """
        CREATE TABLE app_read_marks (conversation TEXT NOT NULL, thread TEXT NOT NULL, "user" TEXT NOT NULL,
        read_sent_at BIGINT NOT NULL DEFAULT 0, read_message_id TEXT NOT NULL DEFAULT '', read_at BIGINT NOT NULL DEFAULT 0,
        shared_sent_at BIGINT NOT NULL DEFAULT 0, shared_message_id TEXT NOT NULL DEFAULT '', shared_at BIGINT NOT NULL DEFAULT 0,
        delivered_sent_at BIGINT NOT NULL DEFAULT 0, delivered_message_id TEXT NOT NULL DEFAULT '',
        delivered_at BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (conversation, thread, "user"))
        """

    /// A member's read and shared marks in a timeline: parameters conversation, thread, user.
    static func current(_ dialect: Dialect) -> String {
        let parameter = dialect.parameter
        return """
            SELECT read_sent_at, read_message_id, shared_sent_at, shared_message_id FROM app_read_marks
            WHERE conversation = \(parameter(1)) AND thread = \(parameter(2)) AND "user" = \(parameter(3))
            """
    }

    /// Moves `marks` of a member forward, each to (time, id, at) unless it is there or past it; returns a row
    /// if any moved. Parameters: conversation, thread, user, then each mark's time, id and at.
    static func moveForward(_ marks: [Mark], _ dialect: Dialect) -> String {
        let parameter = dialect.parameter
        let columns = marks.flatMap { ["\($0.rawValue)sent_at", "\($0.rawValue)message_id", "\($0.rawValue)at"] }
        func ahead(_ mark: Mark) -> String {
            let (time, id) = ("\(mark.rawValue)sent_at", "\(mark.rawValue)message_id")
            return "(excluded.\(time) > app_read_marks.\(time) OR (excluded.\(time) = app_read_marks.\(time) AND "
                + "excluded.\(id)\(dialect.byteOrder) > app_read_marks.\(id)\(dialect.byteOrder)))"
        }
        let updates = marks.flatMap { mark in
            ["sent_at", "message_id", "at"].map { column in
                let name = "\(mark.rawValue)\(column)"
                return "\(name) = CASE WHEN \(ahead(mark)) THEN excluded.\(name) ELSE app_read_marks.\(name) END"
            }
        }
        return """
            INSERT INTO app_read_marks (conversation, thread, "user", \(columns.joined(separator: ", ")))
            VALUES (\((1...3 + columns.count).map(parameter).joined(separator: ", ")))
            ON CONFLICT (conversation, thread, "user") DO UPDATE SET \(updates.joined(separator: ", "))
            WHERE \(marks.map(ahead).joined(separator: " OR "))
            RETURNING thread
            """
    }

    /// The shared read and delivered marks of a conversation's current members in its main timeline, none of
    /// those who hide their reading: parameters conversation, limit.
    static func timelineMarks(_ dialect: Dialect) -> String {
        let parameter = dialect.parameter
        return """
            SELECT r."user", r.shared_sent_at, r.shared_message_id, r.shared_at, r.delivered_sent_at, r.delivered_message_id,
            r.delivered_at FROM app_read_marks r
            JOIN participants p ON p.conversation = r.conversation AND p."user" = r."user"
            LEFT JOIN users u ON u.id = r."user"
            WHERE r.conversation = \(parameter(1)) AND r.thread = '' AND (r.shared_sent_at > 0 OR r.delivered_sent_at > 0)
            AND COALESCE(u.read_receipts, 'share') = 'share'
            ORDER BY r."user" LIMIT \(parameter(2))
            """
    }

    /// Whether a message is past a mark at (`markTime`, `markID`): later, or as late with an id after the
    /// mark's in UTF-8 byte order.
    static func isAhead(_ message: AppMessage, of markTime: Int64, _ markID: String) -> Bool {
        message.sentAt > markTime || (message.sentAt == markTime && markID.utf8.lexicographicallyPrecedes(message.id.utf8))
    }
}
