import Logging
import SQLiteNIO
import TypewireCore

/// ``ChatStore`` on one SQLite file (sqlite-nio bundles SQLite, so nothing needs installing).
///
/// One writer connection whose writes and transactions run one at a time, and reader connections beside
/// it in WAL mode (``SQLiteConnections``): a read, such as a socket's handshake, never waits behind a
/// write. The schema is migrated on open.
public final class SQLiteChatStore: ChatStore {
    let database: SQLiteConnections

    private init(database: SQLiteConnections) {
        self.database = database
    }

    /// Opens (or creates) the file and migrates its schema.
    /// - Parameter path: The file's path; `:memory:` keeps everything in memory.
    /// - Throws: ``StoreError`` if a newer release's schema is in the file (it is left as it was).
    public static func open(path: String, logger: Logger = Logger(label: "typewire.store")) async throws -> SQLiteChatStore {
        SQLiteChatStore(database: try await SQLiteConnections.open(path: path, logger: logger) { try await migrate($0) })
    }

    /// Closes the file.
    public func close() async throws {
        try await database.close()
    }

    private static let migrations: [[String]] = [
        [
            "CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT, is_bot INTEGER NOT NULL DEFAULT 0, shares_typing INTEGER NOT NULL DEFAULT 1)",
            "CREATE TABLE conversations (id TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT, creator TEXT NOT NULL)",
            "CREATE TABLE participants (conversation TEXT NOT NULL REFERENCES conversations(id), user TEXT NOT NULL, PRIMARY KEY (conversation, user))",
            "CREATE INDEX participants_by_user ON participants (user)",
            """
            CREATE TABLE messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, conversation TEXT NOT NULL, sender TEXT NOT NULL,
            sender_name TEXT, client_message_id TEXT NOT NULL, text TEXT NOT NULL, sent_at INTEGER NOT NULL, edited_at INTEGER,
            UNIQUE (sender, client_message_id))
            """,
            "CREATE INDEX messages_by_conversation ON messages (conversation, seq)",
        ],
        [
            "CREATE TABLE blocks (blocker TEXT NOT NULL, blocked TEXT NOT NULL, PRIMARY KEY (blocker, blocked))"
        ],
        [
            // A client message id is unique per conversation and sender, not per sender: the same id in a
            // second conversation is another message. SQLite cannot change a constraint in place.
            """
            CREATE TABLE messages_new (seq INTEGER PRIMARY KEY AUTOINCREMENT, conversation TEXT NOT NULL, sender TEXT NOT NULL,
            sender_name TEXT, client_message_id TEXT NOT NULL, text TEXT NOT NULL, sent_at INTEGER NOT NULL, edited_at INTEGER,
            UNIQUE (conversation, sender, client_message_id))
            """,
            """
            INSERT INTO messages_new (seq, conversation, sender, sender_name, client_message_id, text, sent_at, edited_at)
            SELECT seq, conversation, sender, sender_name, client_message_id, text, sent_at, edited_at FROM messages
            """,
            "DROP TABLE messages",
            "ALTER TABLE messages_new RENAME TO messages",
            "CREATE INDEX messages_by_conversation ON messages (conversation, seq)",
        ],
        [
            // Messages a send stored while their conversation was deleted (before sends checked membership
            // in their own statement): a conversation made again under the id must start empty.
            "DELETE FROM messages WHERE conversation NOT IN (SELECT id FROM conversations)"
        ],
        [
            // Whether the server API set the bot flag (then tokens do not change it). Bots from before are kept
            // as if it had: the server API may have made them.
            "ALTER TABLE users ADD COLUMN bot_set_by_api INTEGER NOT NULL DEFAULT 0",
            "UPDATE users SET bot_set_by_api = is_bot",
        ],
        [
            // Sharing one's presence, and who blocked a user (a blocked user is shown the blocker offline).
            "ALTER TABLE users ADD COLUMN shares_presence INTEGER NOT NULL DEFAULT 1",
            "CREATE INDEX blocks_by_blocked ON blocks (blocked)",
        ],
        [
            // The webhook outbox: one row per event and endpoint until the endpoint takes it.
            """
            CREATE TABLE webhook_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL, type TEXT NOT NULL,
            endpoint TEXT NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
            due_at INTEGER NOT NULL)
            """,
            "CREATE INDEX webhook_outbox_by_due ON webhook_outbox (due_at)",
        ],
        [
            // Threads: a reply names the message it answers; a thread is paged by its own index.
            "ALTER TABLE messages ADD COLUMN thread TEXT",
            "CREATE INDEX messages_by_thread ON messages (conversation, thread, seq)",
        ],
        [
            // A bounded outbox: each delivery's bytes, and the key a later event replaces it by (an edit).
            "ALTER TABLE webhook_outbox ADD COLUMN size INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE webhook_outbox ADD COLUMN coalescing_key TEXT",
            "UPDATE webhook_outbox SET size = length(CAST(body AS BLOB))",
            "CREATE INDEX webhook_outbox_by_key ON webhook_outbox (coalescing_key, endpoint) WHERE coalescing_key IS NOT NULL",
        ],
        [
            // Who may stop a bot's reply (the server API sets it).
            "ALTER TABLE conversations ADD COLUMN stop_rule TEXT NOT NULL DEFAULT 'asker'"
        ],
        [
            // Read state: each member's watermark per timeline ('' the main one, else the thread's parent): the
            // one they read to, and the one the others see (a private read moves the first only).
            """
            CREATE TABLE read_marks (conversation TEXT NOT NULL, thread TEXT NOT NULL, user TEXT NOT NULL, seq INTEGER NOT NULL,
            read_at INTEGER NOT NULL, shared_seq INTEGER NOT NULL, shared_at INTEGER NOT NULL, PRIMARY KEY (conversation, thread, user))
            """,
            // What a user shows of their reading ('share', 'hide', 'reciprocal').
            "ALTER TABLE users ADD COLUMN read_receipts TEXT NOT NULL DEFAULT 'share'",
        ],
        [
            // Last seen: when a user's socket last connected or their last one closed, to the minute.
            "ALTER TABLE users ADD COLUMN last_seen_at INTEGER"
        ],
        [
            // Delivery: each member's delivered mark per timeline (the newest message a device of theirs received).
            "ALTER TABLE read_marks ADD COLUMN delivered_seq INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE read_marks ADD COLUMN delivered_at INTEGER NOT NULL DEFAULT 0",
        ],
        [
            // How far a sweep of the messages went (the unread reminders': the last message seq it took).
            "CREATE TABLE webhook_sweeps (name TEXT PRIMARY KEY, position INTEGER NOT NULL)"
        ],
        [
            // A typing-only server's read state, over the app's own message ids.
            AppReadMarksSQL.createTable
        ],
    ]

    /// Brings the schema up to date, each step in a transaction of its own.
    /// - Throws: ``StoreError`` for a schema newer than these migrations (a later release's).
    private static func migrate(_ database: SQLiteConnections) async throws {
        try await database.transaction { connection in
            _ = try await connection.query("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            let version =
                try await connection.query("SELECT MAX(version) AS version FROM schema_version").first?.column("version")?.integer ?? 0
            guard version <= migrations.count else { throw StoreError.newerSchema(version, known: migrations.count) }
        }
        for (index, statements) in migrations.enumerated() {
            try await database.transaction { connection in
                let version =
                    try await connection.query("SELECT MAX(version) AS version FROM schema_version").first?
                    .column("version")?.integer ?? 0
                guard index + 1 > version else { return }
                for statement in statements { _ = try await connection.query(statement) }
                _ = try await connection.query("INSERT INTO schema_version (version) VALUES (?)", [.integer(index + 1)])
            }
        }
    }

    public func upsertUser(_ identity: Identity) async throws {
        _ = try await database.write {
            try await $0.query(
                """
                INSERT INTO users (id, name, is_bot) VALUES (?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET name = COALESCE(excluded.name, users.name),
                is_bot = CASE WHEN users.bot_set_by_api = 1 THEN users.is_bot ELSE excluded.is_bot END
                """,
                [.text(identity.userID), identity.name.map(SQLiteData.text) ?? .null, .integer(identity.isBot ? 1 : 0)]
            )
        }
    }

    public func user(_ id: String) async throws -> StoredUser? {
        try await database.read {
            try await $0.query(
                "SELECT name, is_bot, bot_set_by_api, shares_typing, shares_presence, read_receipts FROM users WHERE id = ?", [.text(id)])
        }.first.map { Self.storedUser(from: $0, name: "name") }
    }

    /// A user's row; `name` is the column that holds the name.
    private static func storedUser(from row: SQLiteRow, name: String) -> StoredUser {
        StoredUser(
            name: row.column(name)?.string, isBot: row.column("is_bot")?.integer == 1,
            botSetByServerAPI: row.column("bot_set_by_api")?.integer == 1, sharesTyping: row.column("shares_typing")?.integer != 0,
            sharesPresence: row.column("shares_presence")?.integer != 0,
            readReceipts: row.column("read_receipts")?.string.flatMap(ReadReceiptSharing.init(rawValue:)) ?? .share
        )
    }

    public func createConversation(
        id: String, kind: Conversation.Kind, title: String?, creator: String, members: [String]
    ) async throws -> Conversation {
        try await database.transaction { connection in
            _ = try await connection.query(
                "INSERT INTO conversations (id, kind, title, creator) VALUES (?, ?, ?, ?)",
                [.text(id), .text(kind.rawValue), title.map(SQLiteData.text) ?? .null, .text(creator)]
            )
            for member in Set(members + [creator]) {
                _ = try await connection.query(
                    "INSERT INTO participants (conversation, user) VALUES (?, ?)", [.text(id), .text(member)]
                )
            }
        }
        return Conversation(id: id, kind: kind, title: title, creator: creator)
    }

    public func putUser(_ identity: Identity) async throws {
        _ = try await database.write {
            try await $0.query(
                """
                INSERT INTO users (id, name, is_bot, bot_set_by_api) VALUES (?, ?, ?, 1)
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, is_bot = excluded.is_bot, bot_set_by_api = 1
                """,
                [.text(identity.userID), identity.name.map(SQLiteData.text) ?? .null, .integer(identity.isBot ? 1 : 0)]
            )
        }
    }

    public func putConversation(id: String, kind: Conversation.Kind, title: String?, members: [String], stopRule: Conversation.StopRule)
        async throws -> ConversationChange
    {
        try await database.transaction { connection in
            let created = try await !connection.query(
                "INSERT INTO conversations (id, kind, title, creator) VALUES (?, ?, ?, '') ON CONFLICT (id) DO NOTHING RETURNING id",
                [.text(id), .text(kind.rawValue), title.map(SQLiteData.text) ?? .null]
            ).isEmpty
            guard
                var conversation = try await connection.query(
                    "SELECT \(Self.conversationColumns) FROM conversations WHERE id = ?", [.text(id)]
                )
                .first.flatMap(Self.conversation(from:))
            else { throw StoreError.inconsistent("a conversation just put could not be read back") }
            guard conversation.kind == kind else { throw MembershipRefusal.kindIsFixed(conversation.kind) }
            _ = try await connection.query(
                "UPDATE conversations SET title = ?, stop_rule = ? WHERE id = ?",
                [title.map(SQLiteData.text) ?? .null, .text(stopRule.rawValue), .text(id)])
            let before = Set(
                try await connection.query("SELECT user FROM participants WHERE conversation = ?", [.text(id)])
                    .compactMap { $0.column("user")?.string })
            let after = Set(members)
            for user in before.subtracting(after) {
                _ = try await connection.query("DELETE FROM participants WHERE conversation = ? AND user = ?", [.text(id), .text(user)])
            }
            for user in after.subtracting(before) {
                _ = try await connection.query("INSERT INTO participants (conversation, user) VALUES (?, ?)", [.text(id), .text(user)])
            }
            conversation.title = title
            conversation.stopRule = stopRule
            return ConversationChange(
                conversation: conversation, created: created,
                joined: after.subtracting(before).sorted(), left: before.subtracting(after).sorted()
            )
        }
    }

    public func deleteConversation(_ id: String) async throws -> [String] {
        try await database.transaction { connection in
            let members = try await connection.query("SELECT user FROM participants WHERE conversation = ? ORDER BY user", [.text(id)])
                .compactMap { $0.column("user")?.string }
            for table in ["messages", "participants", "read_marks", "app_read_marks"] {
                _ = try await connection.query("DELETE FROM \(table) WHERE conversation = ?", [.text(id)])
            }
            _ = try await connection.query("DELETE FROM conversations WHERE id = ?", [.text(id)])
            return members
        }
    }

    public func conversation(_ id: String) async throws -> Conversation? {
        try await database.read { try await $0.query("SELECT \(Self.conversationColumns) FROM conversations WHERE id = ?", [.text(id)]) }
            .first.flatMap(Self.conversation(from:))
    }

    public func conversations(of user: String) async throws -> [Conversation] {
        try await database.read {
            try await $0.query(
                """
                SELECT c.id, c.kind, c.title, c.creator, c.stop_rule FROM conversations c
                JOIN participants p ON p.conversation = c.id WHERE p.user = ? ORDER BY c.id
                """,
                [.text(user)]
            )
        }.compactMap(Self.conversation(from:))
    }

    public func participants(of conversation: String) async throws -> [ConversationMember] {
        try await database.read {
            try await $0.query(
                """
                SELECT p.user, u.name, u.is_bot FROM participants p LEFT JOIN users u ON u.id = p.user WHERE p.conversation = ?
                ORDER BY p.user
                """,
                [.text(conversation)]
            )
        }.compactMap { row in
            guard let id = row.column("user")?.string else { return nil }
            return ConversationMember(
                id: id, name: row.column("name")?.string, online: false, isBot: row.column("is_bot")?.integer ?? 0 != 0)
        }
    }

    public func storeMessage(
        conversation: String, sender: Identity, clientMessageId: String, text: String, sentAt: Int64, thread: String?,
        webhooks: MessageWebhooks?
    ) async throws -> StoredMessage? {
        let message = NewMessage(
            conversation: conversation, sender: sender, clientMessageId: clientMessageId, text: text, sentAt: sentAt, thread: thread)
        // One transaction: the message, the sender's own read mark moved to it, and its webhooks.
        return try await database.transaction { connection in
            let stored = try await Self.store(message, on: connection)
            if let stored, stored.isNew {
                try await Self.markRead(stored.message, by: sender.userID, on: connection)
                if let webhooks, !webhooks.endpoints.isEmpty {
                    try await Self.insertWebhook(webhooks.event(stored.message), to: webhooks.endpoints, on: connection)
                }
            }
            return stored
        }
    }

    /// A message on its way into the table.
    private struct NewMessage {
        var conversation: String
        var sender: Identity
        var clientMessageId: String
        var text: String
        var sentAt: Int64
        var thread: String?
    }

    private static func store(_ new: NewMessage, on connection: SQLiteConnection) async throws -> StoredMessage? {
        // Stored only while the sender is a participant, checked in the same statement: a delete or a removal
        // committed after the server let the message in leaves nothing behind.
        let inserted = try await connection.query(
            """
            INSERT INTO messages (conversation, sender, sender_name, client_message_id, text, sent_at, thread)
            SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM participants WHERE conversation = ? AND user = ?)
            ON CONFLICT (conversation, sender, client_message_id) DO NOTHING
            RETURNING \(Self.messageColumns)
            """,
            [
                .text(new.conversation), .text(new.sender.userID), new.sender.name.map(SQLiteData.text) ?? .null,
                .text(new.clientMessageId), .text(new.text), .integer(Int(new.sentAt)), new.thread.map(SQLiteData.text) ?? .null,
                .text(new.conversation), .text(new.sender.userID),
            ]
        )
        if let row = inserted.first, let message = Self.message(from: row) {
            return StoredMessage(message: message, isNew: true)
        }
        let existing = try await connection.query(
            """
            SELECT \(Self.messageColumns) FROM messages
            WHERE conversation = ? AND sender = ? AND client_message_id = ?
            """,
            [.text(new.conversation), .text(new.sender.userID), .text(new.clientMessageId)]
        )
        return existing.first.flatMap(Self.message(from:)).map { StoredMessage(message: $0, isNew: false) }
    }

    public func message(_ id: String, in conversation: String) async throws -> ChatMessage? {
        guard let seq = Int(id) else { return nil }
        return try await database.read {
            try await $0.query(
                """
                SELECT \(Self.messageColumns) FROM messages
                WHERE seq = ? AND conversation = ?
                """,
                [.integer(seq), .text(conversation)]
            )
        }.first.flatMap(Self.message(from:))
    }

    public func recentMessages(of conversation: String, limit: Int) async throws -> [ChatMessage] {
        try await database.read {
            try await $0.query(
                """
                SELECT \(Self.messageColumns) FROM messages
                WHERE conversation = ? AND thread IS NULL ORDER BY seq DESC LIMIT ?
                """,
                [.text(conversation), .integer(limit)]
            )
        }.compactMap(Self.message(from:)).reversed()
    }

    public func recentMessages(of conversation: String, limit: Int, withinBytes bytes: Int) async throws -> [ChatMessage] {
        try await database.read { connection -> [ChatMessage] in
            // The sizes first: SQLite reads a column's `octet_length` from its record, without loading the text.
            let sizes = try await connection.query(
                "SELECT seq, octet_length(text) AS size FROM messages WHERE conversation = ? AND thread IS NULL ORDER BY seq DESC LIMIT ?",
                [.text(conversation), .integer(limit)]
            ).compactMap { row in row.column("seq")?.integer.flatMap { seq in row.column("size")?.integer.map { (seq: seq, size: $0) } } }
            var total = 0
            let fitting = sizes.prefix {
                total += $0.size
                return total <= bytes
            }
            guard let oldest = (fitting.last ?? sizes.first)?.seq else { return [] }
            return try await connection.query(
                """
                SELECT \(Self.messageColumns) FROM messages
                WHERE conversation = ? AND thread IS NULL AND seq >= ? ORDER BY seq LIMIT ?
                """,
                [.text(conversation), .integer(oldest), .integer(limit)]
            ).compactMap(Self.message(from:))
        }.newest(within: bytes)  // exact, should a message have come or changed between the two reads
    }

    public func editMessage(
        _ messageId: String, in conversation: String, by sender: String, text: String, editedAt: Int64
    ) async throws -> ChatMessage? {
        guard let seq = Int(messageId) else { return nil }
        return try await database.write {
            try await $0.query(
                """
                UPDATE messages SET text = ?, edited_at = ? WHERE seq = ? AND conversation = ? AND sender = ?
                RETURNING \(Self.messageColumns)
                """,
                [.text(text), .integer(Int(editedAt)), .integer(seq), .text(conversation), .text(sender)]
            )
        }.first.flatMap(Self.message(from:))
    }

    public func messages(of conversation: String, thread: String?, before: String?, limit: Int) async throws -> [ChatMessage] {
        let beforeSeq = before.flatMap(Int.init) ?? Int.max
        return try await database.read {
            try await $0.query(
                """
                SELECT \(Self.messageColumns) FROM messages
                WHERE conversation = ? AND \(thread == nil ? "thread IS NULL" : "thread = ?") AND seq < ? ORDER BY seq DESC LIMIT ?
                """,
                [.text(conversation)] + (thread.map { [.text($0)] } ?? []) + [.integer(beforeSeq), .integer(limit)]
            )
        }.compactMap(Self.message(from:)).reversed()
    }

    public func addParticipant(_ user: String, to conversation: String, limit: Int) async throws -> Bool {
        try await database.transaction { connection in
            guard
                let kind = try await connection.query("SELECT kind FROM conversations WHERE id = ?", [.text(conversation)])
                    .first?.column("kind")?.string
            else { throw MembershipRefusal.noConversation }
            guard kind == Conversation.Kind.group.rawValue else { throw MembershipRefusal.directIsForTwo }
            let counts = try await connection.query(
                "SELECT COUNT(*) AS total, COALESCE(SUM(user = ?), 0) AS mine FROM participants WHERE conversation = ?",
                [.text(user), .text(conversation)]
            ).first
            guard counts?.column("mine")?.integer == 0 else { return false }
            guard counts?.column("total")?.integer ?? 0 < limit else { throw MembershipRefusal.full(limit: limit) }
            _ = try await connection.query(
                "INSERT INTO participants (conversation, user) VALUES (?, ?)", [.text(conversation), .text(user)])
            return true
        }
    }

    public func removeParticipant(_ user: String, from conversation: String) async throws -> Bool {
        try await !database.write {
            try await $0.query(
                "DELETE FROM participants WHERE conversation = ? AND user = ? RETURNING user", [.text(conversation), .text(user)]
            )
        }.isEmpty
    }

    public func sharesTyping(_ user: String) async throws -> Bool {
        try await database.read { try await $0.query("SELECT shares_typing FROM users WHERE id = ?", [.text(user)]) }
            .first?.column("shares_typing")?.integer != 0
    }

    public func setSharesTyping(_ shares: Bool, for user: String) async throws {
        _ = try await database.write {
            try await $0.query(
                "INSERT INTO users (id, shares_typing) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET shares_typing = excluded.shares_typing",
                [.text(user), .integer(shares ? 1 : 0)]
            )
        }
    }

    public func setSharesPresence(_ shares: Bool, for user: String) async throws {
        _ = try await database.write {
            try await $0.query(
                "INSERT INTO users (id, shares_presence) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET shares_presence = excluded.shares_presence",
                [.text(user), .integer(shares ? 1 : 0)]
            )
        }
    }

    public func setReadReceipts(_ sharing: ReadReceiptSharing, for user: String) async throws {
        _ = try await database.write {
            try await $0.query(
                "INSERT INTO users (id, read_receipts) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET read_receipts = excluded.read_receipts",
                [.text(user), .text(sharing.rawValue)]
            )
        }
    }

    /// One query for the user and both sides of their blocks.
    public func userRecord(of id: String) async throws -> UserRecord {
        let user = SQLiteData.text(id)
        let rows = try await database.read {
            try await $0.query(
                """
                SELECT 'user' AS kind, name AS value, is_bot, bot_set_by_api, shares_typing, shares_presence, read_receipts FROM users
                WHERE id = ?
                UNION ALL SELECT 'blocked', blocked, NULL, NULL, NULL, NULL, NULL FROM blocks WHERE blocker = ?
                UNION ALL SELECT 'blocker', blocker, NULL, NULL, NULL, NULL, NULL FROM blocks WHERE blocked = ?
                """,
                [user, user, user]
            )
        }
        var record = UserRecord(stored: nil, blocked: [], blockers: [])
        for row in rows {
            switch row.column("kind")?.string {
            case "user": record.stored = Self.storedUser(from: row, name: "value")
            case "blocked": row.column("value")?.string.map { _ = record.blocked.insert($0) }
            case "blocker": row.column("value")?.string.map { _ = record.blockers.insert($0) }
            default: break
            }
        }
        return record
    }

    public func isBlocked(_ user: String, by blocker: String) async throws -> Bool {
        let rows = try await database.read {
            try await $0.query("SELECT 1 AS one FROM blocks WHERE blocker = ? AND blocked = ?", [.text(blocker), .text(user)])
        }
        return !rows.isEmpty
    }

    public func blockedUsers(of user: String) async throws -> Set<String> {
        let rows = try await database.read { try await $0.query("SELECT blocked FROM blocks WHERE blocker = ?", [.text(user)]) }
        return Set(rows.compactMap { $0.column("blocked")?.string })
    }

    public func blockers(of user: String) async throws -> Set<String> {
        let rows = try await database.read { try await $0.query("SELECT blocker FROM blocks WHERE blocked = ?", [.text(user)]) }
        return Set(rows.compactMap { $0.column("blocker")?.string })
    }

    public func setBlocked(_ blocked: Bool, user: String, by blocker: String, limit: Int) async throws -> Bool {
        guard blocked else {
            _ = try await database.write {
                try await $0.query("DELETE FROM blocks WHERE blocker = ? AND blocked = ?", [.text(blocker), .text(user)])
            }
            return true
        }
        // One statement on the one writer: the count and the insert cannot interleave with another block.
        let rows = try await database.write {
            try await $0.query(
                """
                INSERT INTO blocks (blocker, blocked) SELECT ?, ? WHERE (SELECT COUNT(*) FROM blocks WHERE blocker = ?) < ?
                ON CONFLICT DO NOTHING RETURNING 1 AS stored
                """,
                [.text(blocker), .text(user), .text(blocker), .integer(limit)])
        }
        guard rows.isEmpty else { return true }
        let stored = try await database.read {
            try await $0.query("SELECT 1 AS stored FROM blocks WHERE blocker = ? AND blocked = ?", [.text(blocker), .text(user)])
        }
        return !stored.isEmpty  // already blocked: true; at the limit: false
    }

    private static func conversation(from row: SQLiteRow) -> Conversation? {
        guard let id = row.column("id")?.string, let kind = row.column("kind")?.string.flatMap(Conversation.Kind.init(rawValue:)),
            let creator = row.column("creator")?.string
        else { return nil }
        let rule = row.column("stop_rule")?.string.flatMap(Conversation.StopRule.init(rawValue:)) ?? .asker
        return Conversation(id: id, kind: kind, title: row.column("title")?.string, creator: creator, stopRule: rule)
    }

    /// The columns `conversation(from:)` reads.
    private static let conversationColumns = "id, kind, title, creator, stop_rule"

    /// The columns `message(from:)` reads, in every query of messages (the migrations keep their own text).
    private static let messageColumns = "seq, conversation, sender, sender_name, client_message_id, text, sent_at, edited_at, thread"

    private static func message(from row: SQLiteRow) -> ChatMessage? {
        guard let seq = row.column("seq")?.integer, let conversation = row.column("conversation")?.string,
            let sender = row.column("sender")?.string, let text = row.column("text")?.string,
            let sentAt = row.column("sent_at")?.integer
        else { return nil }
        return ChatMessage(
            conversation: conversation, id: String(seq), sender: sender, senderName: row.column("sender_name")?.string,
            text: text, sentAt: Int64(sentAt), clientMessageId: row.column("client_message_id")?.string,
            editedAt: row.column("edited_at")?.integer.map(Int64.init), thread: row.column("thread")?.string
        )
    }
}
