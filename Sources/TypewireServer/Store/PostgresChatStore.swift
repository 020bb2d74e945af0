import Logging
import PostgresNIO
import TypewireCore

/// ``ChatStore`` on PostgreSQL (postgres-nio, a connection pool): the shared store of a cluster.
///
/// The schema is migrated on open, under an advisory lock, so nodes that start together migrate once.
/// The store owns the pool's task; ``close()`` ends it.
public final class PostgresChatStore: ChatStore {
    let client: PostgresClient
    private let runner: Task<Void, Never>
    let logger: Logger

    /// Starts the pool's task and returns once it runs: a query leased before `run()` began waits for it
    /// anyway, but postgres-nio logs a warning for each (three at every node's start, for the migration).
    private init(client: PostgresClient, logger: Logger) async {
        self.client = client
        self.logger = logger
        let (started, start) = AsyncStream.makeStream(of: Never.self)
        runner = Task {
            start.finish()
            await client.run()
        }
        for await _ in started {}
    }

    /// Connects to the database and migrates its schema.
    /// - Parameter url: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`.
    /// - Throws: ``StoreError`` for a URL that cannot be used or a newer release's schema in the database (left
    ///   as it was); the database's error if it cannot be reached.
    public static func open(url: String, logger: Logger = Logger(label: "typewire.store")) async throws -> PostgresChatStore {
        let store = await PostgresChatStore(
            client: PostgresClient(configuration: try PostgresURL(url).configuration, backgroundLogger: logger), logger: logger)
        do {
            try await store.migrate()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// How long ``close()`` waits for the pool to end its connections.
    static let closeTimeout = Duration.seconds(3)

    /// Closes the pool: its connections end, or, if the pool has not ended within ``closeTimeout`` (seen
    /// once in a while at a cluster node's shutdown, every other step of it done), it is left to the
    /// process's exit, which closes its connections; either way the call returns.
    public func close() async {
        runner.cancel()
        let runner = runner
        // Unstructured waits: a task group would wait for the pool's end anyway (awaiting a task's value
        // cannot be cancelled).
        let (outcomes, outcome) = AsyncStream.makeStream(of: Bool.self)
        Task {
            await runner.value
            outcome.yield(true)
        }
        Task {
            try? await Task.sleep(for: Self.closeTimeout)
            outcome.yield(false)
        }
        let ended = await outcomes.first { _ in true } ?? true
        outcome.finish()
        if !ended { logger.warning("The PostgreSQL pool did not end within \(Self.closeTimeout); its connections close with the process.") }
    }

    private static let migrations: [[PostgresQuery]] = [
        [
            "CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT, is_bot BOOLEAN NOT NULL DEFAULT FALSE, shares_typing BOOLEAN NOT NULL DEFAULT TRUE)",
            "CREATE TABLE conversations (id TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT, creator TEXT NOT NULL)",
            """
            CREATE TABLE participants (conversation TEXT NOT NULL REFERENCES conversations(id), "user" TEXT NOT NULL,
            PRIMARY KEY (conversation, "user"))
            """,
            #"CREATE INDEX participants_by_user ON participants ("user")"#,
            """
            CREATE TABLE messages (seq BIGSERIAL PRIMARY KEY, conversation TEXT NOT NULL, sender TEXT NOT NULL,
            sender_name TEXT, client_message_id TEXT NOT NULL, text TEXT NOT NULL, sent_at BIGINT NOT NULL, edited_at BIGINT,
            UNIQUE (sender, client_message_id))
            """,
            "CREATE INDEX messages_by_conversation ON messages (conversation, seq)",
            "CREATE TABLE blocks (blocker TEXT NOT NULL, blocked TEXT NOT NULL, PRIMARY KEY (blocker, blocked))",
        ],
        [
            // The cluster: each node's heartbeat, and which users each node has sockets of.
            "CREATE TABLE cluster_nodes (id TEXT PRIMARY KEY, heartbeat_at TIMESTAMPTZ NOT NULL)",
            #"CREATE TABLE cluster_presence (node TEXT NOT NULL, "user" TEXT NOT NULL, PRIMARY KEY (node, "user"))"#,
        ],
        [
            // A client message id is unique per conversation and sender, not per sender.
            """
            ALTER TABLE messages DROP CONSTRAINT messages_sender_client_message_id_key,
            ADD CONSTRAINT messages_conversation_sender_client_message_id_key UNIQUE (conversation, sender, client_message_id)
            """
        ],
        [
            // Messages a send stored while their conversation was deleted (before sends checked membership
            // in their own statement): a conversation made again under the id must start empty.
            "DELETE FROM messages WHERE conversation NOT IN (SELECT id FROM conversations)"
        ],
        [
            // Whether the server API set the bot flag (then tokens do not change it). Bots from before are kept
            // as if it had: the server API may have made them.
            "ALTER TABLE users ADD COLUMN bot_set_by_api BOOLEAN NOT NULL DEFAULT FALSE",
            "UPDATE users SET bot_set_by_api = is_bot",
        ],
        [
            // Sharing one's presence, and who blocked a user (a blocked user is shown the blocker offline).
            "ALTER TABLE users ADD COLUMN shares_presence BOOLEAN NOT NULL DEFAULT TRUE",
            "CREATE INDEX blocks_by_blocked ON blocks (blocked)",
        ],
        [
            // The webhook outbox: one row per event and endpoint until the endpoint takes it.
            """
            CREATE TABLE webhook_outbox (id BIGSERIAL PRIMARY KEY, event_id TEXT NOT NULL, type TEXT NOT NULL,
            endpoint TEXT NOT NULL, body TEXT NOT NULL, created_at BIGINT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
            due_at BIGINT NOT NULL)
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
            "ALTER TABLE webhook_outbox ADD COLUMN size BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE webhook_outbox ADD COLUMN coalescing_key TEXT",
            "UPDATE webhook_outbox SET size = octet_length(body)",
            "CREATE INDEX webhook_outbox_by_key ON webhook_outbox (coalescing_key, endpoint) WHERE coalescing_key IS NOT NULL",
        ],
        [
            // Who may stop a bot's reply (the server API sets it).
            "ALTER TABLE conversations ADD COLUMN stop_rule TEXT NOT NULL DEFAULT 'asker'"
        ],
        [
            // Read state: each member's watermark per timeline ('' the main one, else the thread's parent): the
            // one they read to, and the one the others see (a private read moves the first only).
            #"""
            CREATE TABLE read_marks (conversation TEXT NOT NULL, thread TEXT NOT NULL, "user" TEXT NOT NULL, seq BIGINT NOT NULL,
            read_at BIGINT NOT NULL, shared_seq BIGINT NOT NULL, shared_at BIGINT NOT NULL, PRIMARY KEY (conversation, thread, "user"))
            """#,
            // What a user shows of their reading ('share', 'hide', 'reciprocal').
            "ALTER TABLE users ADD COLUMN read_receipts TEXT NOT NULL DEFAULT 'share'",
        ],
        [
            // Last seen: when a user's socket last connected or their last one closed, to the minute.
            "ALTER TABLE users ADD COLUMN last_seen_at BIGINT"
        ],
        [
            // Delivery: each member's delivered mark per timeline (the newest message a device of theirs received).
            "ALTER TABLE read_marks ADD COLUMN delivered_seq BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE read_marks ADD COLUMN delivered_at BIGINT NOT NULL DEFAULT 0",
        ],
        [
            // How far a sweep of the messages went (the unread reminders': the last message seq it took).
            "CREATE TABLE webhook_sweeps (name TEXT PRIMARY KEY, position BIGINT NOT NULL)"
        ],
        [
            // A typing-only server's read state, over the app's own message ids.
            PostgresQuery(unsafeSQL: AppReadMarksSQL.createTable)
        ],
    ]

    private func migrate() async throws {
        try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7477657769)", logger: logger).drain()
            try await connection.query("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", logger: logger).drain()
            var version = 0
            for try await value in try await connection.query("SELECT COALESCE(MAX(version), 0) FROM schema_version", logger: logger)
                .decode(Int.self)
            { version = value }
            guard version <= Self.migrations.count else { throw StoreError.newerSchema(version, known: Self.migrations.count) }
            for (index, statements) in Self.migrations.enumerated() where index + 1 > version {
                for statement in statements { try await connection.query(statement, logger: logger).drain() }
                try await connection.query("INSERT INTO schema_version (version) VALUES (\(index + 1))", logger: logger).drain()
            }
        }
    }

    public func upsertUser(_ identity: Identity) async throws {
        try await run(
            """
            INSERT INTO users (id, name, is_bot) VALUES (\(identity.userID), \(identity.name), \(identity.isBot))
            ON CONFLICT (id) DO UPDATE SET name = COALESCE(excluded.name, users.name),
            is_bot = CASE WHEN users.bot_set_by_api THEN users.is_bot ELSE excluded.is_bot END
            """)
    }

    public func putUser(_ identity: Identity) async throws {
        try await run(
            """
            INSERT INTO users (id, name, is_bot, bot_set_by_api) VALUES (\(identity.userID), \(identity.name), \(identity.isBot), TRUE)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, is_bot = excluded.is_bot, bot_set_by_api = TRUE
            """)
    }

    public func putConversation(id: String, kind: Conversation.Kind, title: String?, members: [String], stopRule: Conversation.StopRule)
        async throws -> ConversationChange
    {
        try await transaction { connection in
            // Created here, or by a put that committed first (the insert waits for it): then its kind counts.
            var created = false
            let inserted = try await connection.query(
                "INSERT INTO conversations (id, kind, title, creator) VALUES (\(id), \(kind.rawValue), \(title), '') ON CONFLICT (id) DO NOTHING RETURNING id",
                logger: logger
            )
            for try await _ in inserted { created = true }
            let found = try await Self.conversations(
                from: connection.query(
                    "SELECT id, kind, title, creator, stop_rule FROM conversations WHERE id = \(id) FOR UPDATE", logger: logger))
            guard var conversation = found.first else { throw StoreError.inconsistent("a conversation just put could not be read back") }
            guard conversation.kind == kind else { throw MembershipRefusal.kindIsFixed(conversation.kind) }
            try await connection.query(
                "UPDATE conversations SET title = \(title), stop_rule = \(stopRule.rawValue) WHERE id = \(id)", logger: logger
            ).drain()
            var before: Set<String> = []
            for try await user in try await connection.query(
                #"SELECT "user" FROM participants WHERE conversation = \#(id)"#, logger: logger
            ).decode(String.self) {
                before.insert(user)
            }
            let after = Set(members)
            for user in before.subtracting(after) {
                try await connection.query(#"DELETE FROM participants WHERE conversation = \#(id) AND "user" = \#(user)"#, logger: logger)
                    .drain()
            }
            for user in after.subtracting(before) {
                try await connection.query(#"INSERT INTO participants (conversation, "user") VALUES (\#(id), \#(user))"#, logger: logger)
                    .drain()
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
        try await transaction { connection in
            // The conversation's row first, as every change of its members locks it; then its participants,
            // whose rows a message being stored holds (`storeMessage`): their delete waits for those messages,
            // and the messages' delete, a statement later, sees them.
            try await connection.query("SELECT id FROM conversations WHERE id = \(id) FOR UPDATE", logger: logger).drain()
            var members: [String] = []
            let rows = try await connection.query(#"DELETE FROM participants WHERE conversation = \#(id) RETURNING "user""#, logger: logger)
            for try await user in rows.decode(String.self) { members.append(user) }
            try await connection.query("DELETE FROM messages WHERE conversation = \(id)", logger: logger).drain()
            try await connection.query("DELETE FROM read_marks WHERE conversation = \(id)", logger: logger).drain()
            try await connection.query("DELETE FROM app_read_marks WHERE conversation = \(id)", logger: logger).drain()
            try await connection.query("DELETE FROM conversations WHERE id = \(id)", logger: logger).drain()
            return members.sorted()
        }
    }

    public func user(_ id: String) async throws -> StoredUser? {
        var user: StoredUser?
        let rows = try await client.query(
            "SELECT name, is_bot, bot_set_by_api, shares_typing, shares_presence, read_receipts FROM users WHERE id = \(id)", logger: logger
        )
        for try await (name, isBot, setByAPI, shares, presence, reads) in rows.decode((String?, Bool, Bool, Bool, Bool, String).self) {
            user = StoredUser(
                name: name, isBot: isBot, botSetByServerAPI: setByAPI, sharesTyping: shares, sharesPresence: presence,
                readReceipts: ReadReceiptSharing(rawValue: reads) ?? .share)
        }
        return user
    }

    public func createConversation(
        id: String, kind: Conversation.Kind, title: String?, creator: String, members: [String]
    ) async throws -> Conversation {
        try await transaction { connection in
            try await connection.query(
                "INSERT INTO conversations (id, kind, title, creator) VALUES (\(id), \(kind.rawValue), \(title), \(creator))",
                logger: logger
            ).drain()
            for member in Set(members + [creator]) {
                try await connection.query(#"INSERT INTO participants (conversation, "user") VALUES (\#(id), \#(member))"#, logger: logger)
                    .drain()
            }
        }
        return Conversation(id: id, kind: kind, title: title, creator: creator)
    }

    public func conversation(_ id: String) async throws -> Conversation? {
        try await conversations("SELECT id, kind, title, creator, stop_rule FROM conversations WHERE id = \(id)").first
    }

    public func conversations(of user: String) async throws -> [Conversation] {
        try await conversations(
            #"""
            SELECT c.id, c.kind, c.title, c.creator, c.stop_rule FROM conversations c
            JOIN participants p ON p.conversation = c.id WHERE p."user" = \#(user) ORDER BY c.id
            """#)
    }

    public func participants(of conversation: String) async throws -> [ConversationMember] {
        var participants: [ConversationMember] = []
        let rows = try await client.query(
            #"""
            SELECT p."user", u.name, COALESCE(u.is_bot, FALSE) FROM participants p LEFT JOIN users u ON u.id = p."user"
            WHERE p.conversation = \#(conversation) ORDER BY p."user"
            """#,
            logger: logger
        )
        for try await (id, name, isBot) in rows.decode((String, String?, Bool).self) {
            participants.append(ConversationMember(id: id, name: name, online: false, isBot: isBot))
        }
        return participants
    }

    public func storeMessage(
        conversation: String, sender: Identity, clientMessageId: String, text: String, sentAt: Int64, thread: String?,
        webhooks: MessageWebhooks?
    ) async throws -> StoredMessage? {
        // Stored only while the sender is a participant, checked in the same statement, which holds the
        // participant's row until it commits: a delete or a removal waits for it, or wins and leaves nothing.
        // The same statement moves the sender's own read mark to the new message (never back), and the mark
        // the others see unless the sender hides their reading.
        let insert: PostgresQuery = #"""
            WITH inserted AS (
                INSERT INTO messages (conversation, sender, sender_name, client_message_id, text, sent_at, thread)
                SELECT \#(conversation), \#(sender.userID), \#(sender.name), \#(clientMessageId), \#(text), \#(sentAt), \#(thread)
                FROM participants WHERE conversation = \#(conversation) AND "user" = \#(sender.userID) FOR KEY SHARE
                ON CONFLICT (conversation, sender, client_message_id) DO NOTHING
                RETURNING \#(unescaped: Self.messageColumns)
            ), marked AS (
                INSERT INTO read_marks (conversation, thread, "user", seq, read_at, shared_seq, shared_at)
                SELECT i.conversation, COALESCE(i.thread, ''), i.sender, i.seq, i.sent_at,
                    CASE WHEN COALESCE(u.read_receipts, 'share') = 'share' THEN i.seq ELSE 0 END,
                    CASE WHEN COALESCE(u.read_receipts, 'share') = 'share' THEN i.sent_at ELSE 0 END
                FROM inserted i LEFT JOIN users u ON u.id = i.sender
                \#(unescaped: Self.moveMarkForward)
            )
            SELECT \#(unescaped: Self.messageColumns) FROM inserted
            """#
        let inserted: [ChatMessage]
        if let webhooks, !webhooks.endpoints.isEmpty {
            let logger = logger
            inserted = try await transaction { connection in
                let inserted = try await Self.messages(from: connection.query(insert, logger: logger))
                if let message = inserted.first {
                    try await Self.insertWebhook(webhooks.event(message), to: webhooks.endpoints, on: connection, logger: logger)
                }
                return inserted
            }
        } else {
            inserted = try await messages(insert)
        }
        if let message = inserted.first { return StoredMessage(message: message, isNew: true) }
        let existing = try await messages(
            """
            SELECT \(unescaped: Self.messageColumns) FROM messages
            WHERE conversation = \(conversation) AND sender = \(sender.userID) AND client_message_id = \(clientMessageId)
            """)
        return existing.first.map { StoredMessage(message: $0, isNew: false) }
    }

    public func editMessage(
        _ messageId: String, in conversation: String, by sender: String, text: String, editedAt: Int64
    ) async throws -> ChatMessage? {
        guard let seq = Int64(messageId) else { return nil }
        return try await messages(
            """
            UPDATE messages SET text = \(text), edited_at = \(editedAt)
            WHERE seq = \(seq) AND conversation = \(conversation) AND sender = \(sender)
            RETURNING \(unescaped: Self.messageColumns)
            """
        ).first
    }

    public func message(_ id: String, in conversation: String) async throws -> ChatMessage? {
        guard let seq = Int64(id) else { return nil }
        return try await messages(
            "SELECT \(unescaped: Self.messageColumns) FROM messages WHERE seq = \(seq) AND conversation = \(conversation)"
        ).first
    }

    public func recentMessages(of conversation: String, limit: Int) async throws -> [ChatMessage] {
        try await messages(
            """
            SELECT \(unescaped: Self.messageColumns) FROM messages WHERE conversation = \(conversation) AND thread IS NULL
            ORDER BY seq DESC LIMIT \(limit)
            """
        ).reversed()
    }

    public func recentMessages(of conversation: String, limit: Int, withinBytes bytes: Int) async throws -> [ChatMessage] {
        // A running total of the latest texts' sizes picks them; the texts left out are not read (detoasted).
        try await messages(
            """
            SELECT \(unescaped: Self.messageColumns) FROM (
                SELECT *, SUM(octet_length(text)) OVER (ORDER BY seq DESC) AS total, ROW_NUMBER() OVER (ORDER BY seq DESC) AS n
                FROM (SELECT * FROM messages WHERE conversation = \(conversation) AND thread IS NULL ORDER BY seq DESC LIMIT \(limit)) AS latest
            ) AS recent WHERE n = 1 OR total <= \(bytes) ORDER BY seq
            """)
    }

    public func messages(of conversation: String, thread: String?, before: String?, limit: Int) async throws -> [ChatMessage] {
        let beforeSeq = before.flatMap(Int64.init) ?? .max
        let page: [ChatMessage]
        if let thread {
            page = try await messages(
                """
                SELECT \(unescaped: Self.messageColumns) FROM messages
                WHERE conversation = \(conversation) AND thread = \(thread) AND seq < \(beforeSeq) ORDER BY seq DESC LIMIT \(limit)
                """)
        } else {
            page = try await messages(
                """
                SELECT \(unescaped: Self.messageColumns) FROM messages
                WHERE conversation = \(conversation) AND thread IS NULL AND seq < \(beforeSeq) ORDER BY seq DESC LIMIT \(limit)
                """)
        }
        return page.reversed()
    }

    public func addParticipant(_ user: String, to conversation: String, limit: Int) async throws -> Bool {
        try await transaction { connection in
            // The conversation's row is locked: adds, puts and deletes of one conversation take turns.
            var kind: String?
            let found = try await connection.query("SELECT kind FROM conversations WHERE id = \(conversation) FOR UPDATE", logger: logger)
            for try await value in found.decode(String.self) { kind = value }
            guard let kind else { throw MembershipRefusal.noConversation }
            guard kind == Conversation.Kind.group.rawValue else { throw MembershipRefusal.directIsForTwo }
            var total = 0
            var mine = 0
            let counts = try await connection.query(
                #"SELECT COUNT(*), COUNT(*) FILTER (WHERE "user" = \#(user)) FROM participants WHERE conversation = \#(conversation)"#,
                logger: logger
            )
            for try await (all, own) in counts.decode((Int, Int).self) { (total, mine) = (all, own) }
            guard mine == 0 else { return false }
            guard total < limit else { throw MembershipRefusal.full(limit: limit) }
            try await connection.query(
                #"INSERT INTO participants (conversation, "user") VALUES (\#(conversation), \#(user))"#, logger: logger
            ).drain()
            return true
        }
    }

    public func removeParticipant(_ user: String, from conversation: String) async throws -> Bool {
        var removed = false
        let rows = try await client.query(
            #"DELETE FROM participants WHERE conversation = \#(conversation) AND "user" = \#(user) RETURNING "user""#, logger: logger
        )
        for try await _ in rows { removed = true }
        return removed
    }

    public func sharesTyping(_ user: String) async throws -> Bool {
        var shares = true
        for try await value in try await client.query("SELECT shares_typing FROM users WHERE id = \(user)", logger: logger).decode(
            Bool.self)
        {
            shares = value
        }
        return shares
    }

    public func setSharesTyping(_ shares: Bool, for user: String) async throws {
        try await run(
            """
            INSERT INTO users (id, shares_typing) VALUES (\(user), \(shares))
            ON CONFLICT (id) DO UPDATE SET shares_typing = excluded.shares_typing
            """)
    }

    public func setSharesPresence(_ shares: Bool, for user: String) async throws {
        try await run(
            """
            INSERT INTO users (id, shares_presence) VALUES (\(user), \(shares))
            ON CONFLICT (id) DO UPDATE SET shares_presence = excluded.shares_presence
            """)
    }

    public func setReadReceipts(_ sharing: ReadReceiptSharing, for user: String) async throws {
        try await run(
            """
            INSERT INTO users (id, read_receipts) VALUES (\(user), \(sharing.rawValue))
            ON CONFLICT (id) DO UPDATE SET read_receipts = excluded.read_receipts
            """)
    }

    public func blockers(of user: String) async throws -> Set<String> {
        var blockers: Set<String> = []
        for try await id in try await client.query("SELECT blocker FROM blocks WHERE blocked = \(user)", logger: logger).decode(String.self)
        {
            blockers.insert(id)
        }
        return blockers
    }

    public func isBlocked(_ user: String, by blocker: String) async throws -> Bool {
        var found = false
        for try await _ in try await client.query(
            "SELECT 1 FROM blocks WHERE blocker = \(blocker) AND blocked = \(user)", logger: logger
        ).decode(Int32.self) {
            found = true
        }
        return found
    }

    public func blockedUsers(of user: String) async throws -> Set<String> {
        var blocked: Set<String> = []
        for try await id in try await client.query("SELECT blocked FROM blocks WHERE blocker = \(user)", logger: logger).decode(String.self)
        {
            blocked.insert(id)
        }
        return blocked
    }

    public func setBlocked(_ blocked: Bool, user: String, by blocker: String, limit: Int) async throws -> Bool {
        guard blocked else {
            try await run("DELETE FROM blocks WHERE blocker = \(blocker) AND blocked = \(user)")
            return true
        }
        let logger = logger
        return try await transaction { connection in
            // The blocker's row serializes their blocks: two at once cannot both pass the count.
            try await connection.query(
                "INSERT INTO users (id) VALUES (\(blocker)) ON CONFLICT (id) DO UPDATE SET id = users.id", logger: logger
            ).drain()
            var count: Int64 = 0
            for try await (total, has) in try await connection.query(
                "SELECT COUNT(*), COUNT(*) FILTER (WHERE blocked = \(user)) FROM blocks WHERE blocker = \(blocker)", logger: logger
            ).decode((Int64, Int64).self) {
                if has > 0 { return true }
                count = total
            }
            guard count < Int64(limit) else { return false }
            try await connection.query(
                "INSERT INTO blocks (blocker, blocked) VALUES (\(blocker), \(user)) ON CONFLICT DO NOTHING", logger: logger
            ).drain()
            return true
        }
    }

    // MARK: Helpers

    /// Runs `body` in a transaction on a connection of its own; a ``MembershipRefusal`` or ``StoreError`` it
    /// throws (after which the transaction was rolled back) is thrown as it is, not wrapped in postgres-nio's
    /// transaction error.
    func transaction<Result>(_ body: (PostgresConnection) async throws -> sending Result) async throws -> sending Result {
        do {
            return try await client.withTransaction(logger: logger, body)
        } catch let error as PostgresTransactionError {
            if let refusal = error.closureError as? MembershipRefusal, error.rollbackError == nil { throw refusal }
            if let refusal = error.closureError as? StoreError, error.rollbackError == nil { throw refusal }
            throw error
        }
    }

    /// Runs a statement and reads its rows to the end (errors surface only there).
    func run(_ query: PostgresQuery) async throws {
        try await client.query(query, logger: logger).drain()
    }

    private func conversations(_ query: PostgresQuery) async throws -> [Conversation] {
        try await Self.conversations(from: client.query(query, logger: logger))
    }

    /// The conversations of rows of `id, kind, title, creator, stop_rule`.
    private static func conversations(from rows: PostgresRowSequence) async throws -> [Conversation] {
        var conversations: [Conversation] = []
        for try await (id, kind, title, creator, rule) in rows.decode((String, String, String?, String, String).self) {
            guard let kind = Conversation.Kind(rawValue: kind) else { continue }
            conversations.append(
                Conversation(id: id, kind: kind, title: title, creator: creator, stopRule: Conversation.StopRule(rawValue: rule) ?? .asker))
        }
        return conversations
    }

    private static let messageColumns = "seq, conversation, sender, sender_name, client_message_id, text, sent_at, edited_at, thread"

    func messages(_ query: PostgresQuery) async throws -> [ChatMessage] {
        try await Self.messages(from: client.query(query, logger: logger))
    }

    /// The messages of rows that hold ``messageColumns``.
    static func messages(from rows: PostgresRowSequence) async throws -> [ChatMessage] {
        var messages: [ChatMessage] = []
        for try await (seq, conversation, sender, senderName, clientMessageId, text, sentAt, editedAt, thread) in rows.decode(
            (Int64, String, String, String?, String, String, Int64, Int64?, String?).self
        ) {
            messages.append(
                ChatMessage(
                    conversation: conversation, id: String(seq), sender: sender, senderName: senderName, text: text, sentAt: sentAt,
                    clientMessageId: clientMessageId, editedAt: editedAt, thread: thread
                ))
        }
        return messages
    }
}

extension PostgresRowSequence {
    /// Reads every row, so that an error in the statement surfaces.
    func drain() async throws {
        for try await _ in self {}
    }
}
