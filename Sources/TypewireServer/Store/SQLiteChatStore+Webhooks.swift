import SQLiteNIO

// The webhook outbox in the SQLite file: a table the writer connection changes, one statement a turn.
extension SQLiteChatStore: WebhookOutbox {
    public func enqueueWebhook(_ event: WebhookEvent, to endpoints: [String]) async throws {
        guard !endpoints.isEmpty else { return }
        try await database.transaction { try await Self.insertWebhook(event, to: endpoints, on: $0) }
    }

    /// Inserts one delivery of the event per endpoint, due when the event was made, in place of a waiting
    /// one of the same coalescing key.
    static func insertWebhook(_ event: WebhookEvent, to endpoints: [String], on connection: SQLiteConnection) async throws {
        let body = event.body()
        let key = event.coalescingKey
        for endpoint in endpoints {
            if let key {
                _ = try await connection.query(
                    "DELETE FROM webhook_outbox WHERE coalescing_key = ? AND endpoint = ?", [.text(key), .text(endpoint)])
            }
            _ = try await connection.query(
                """
                INSERT INTO webhook_outbox (event_id, type, endpoint, body, created_at, attempts, due_at, size, coalescing_key)
                VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)
                """,
                [
                    .text(event.id), .text(event.type.rawValue), .text(endpoint), .text(body), .integer(Int(event.createdAt)),
                    .integer(Int(event.createdAt)), .integer(body.utf8.count), key.map { .text($0) } ?? .null,
                ])
        }
    }

    public func claimWebhooks(dueAt now: Int64, limit: Int, leaseUntil: Int64, endpoints: [String]) async throws -> [WebhookDelivery] {
        guard !endpoints.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: endpoints.count).joined(separator: ", ")
        let rows = try await database.write { connection in
            try await connection.query(
                """
                UPDATE webhook_outbox SET due_at = ?
                WHERE id IN (
                    SELECT id FROM webhook_outbox WHERE due_at <= ? AND endpoint IN (\(placeholders)) ORDER BY due_at, id LIMIT ?)
                RETURNING id, event_id, type, endpoint, body, created_at, attempts
                """,
                [.integer(Int(leaseUntil)), .integer(Int(now))] + endpoints.map { .text($0) } + [.integer(limit)])
        }
        return rows.compactMap { row in
            guard let id = row.column("id")?.integer, let eventID = row.column("event_id")?.string,
                let type = row.column("type")?.string.flatMap(WebhookEventType.init(rawValue:)),
                let endpoint = row.column("endpoint")?.string, let body = row.column("body")?.string,
                let createdAt = row.column("created_at")?.integer, let attempts = row.column("attempts")?.integer
            else { return nil }
            return WebhookDelivery(
                id: Int64(id), eventID: eventID, type: type, endpoint: endpoint, body: body, createdAt: Int64(createdAt), attempts: attempts
            )
        }
    }

    public func webhooksDelivered(_ ids: [Int64]) async throws {
        // In statements of at most 500 ids: SQLite bounds a statement's parameters.
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = ids[start..<min(ids.count, start + 500)]
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            _ = try await database.write {
                try await $0.query("DELETE FROM webhook_outbox WHERE id IN (\(placeholders))", chunk.map { .integer(Int($0)) })
            }
        }
    }

    public func webhookFailed(_ id: Int64, attempts: Int, retryAt: Int64?) async throws {
        _ = try await database.write { connection in
            if let retryAt {
                try await connection.query(
                    "UPDATE webhook_outbox SET attempts = ?, due_at = ? WHERE id = ?",
                    [.integer(attempts), .integer(Int(retryAt)), .integer(Int(id))])
            } else {
                try await connection.query("DELETE FROM webhook_outbox WHERE id = ?", [.integer(Int(id))])
            }
        }
    }

    public func nextWebhookDue() async throws -> Int64? {
        try await database.read { try await $0.query("SELECT MIN(due_at) AS due FROM webhook_outbox") }.first?
            .column("due")?.integer.map(Int64.init)
    }

    public func webhookBacklog() async throws -> WebhookBacklog {
        let row = try await database.read {
            try await $0.query(
                "SELECT COUNT(*) AS pending, COALESCE(SUM(size), 0) AS bytes, MIN(created_at) AS oldest FROM webhook_outbox")
        }.first
        return WebhookBacklog(
            rows: row?.column("pending")?.integer ?? 0, bytes: row?.column("bytes")?.integer ?? 0,
            oldest: row?.column("oldest")?.integer.map(Int64.init))
    }

    public func trimWebhooks(endpoints: [String], createdBefore: Int64, maxRows: Int, maxBytes: Int) async throws -> WebhookTrim {
        let placeholders = Array(repeating: "?", count: endpoints.count).joined(separator: ", ")
        return try await database.transaction { connection in
            var trim = WebhookTrim()
            trim.unconfigured = try await Self.deleted(
                "DELETE FROM webhook_outbox WHERE endpoint NOT IN (\(placeholders)) RETURNING id", endpoints.map { .text($0) },
                on: connection)
            trim.expired = try await Self.deleted(
                "DELETE FROM webhook_outbox WHERE created_at < ? RETURNING id", [.integer(Int(createdBefore))], on: connection)
            trim.overCap = try await Self.deleted(
                """
                DELETE FROM webhook_outbox WHERE id IN (
                    SELECT id FROM (
                        SELECT id, COUNT(*) OVER newest AS kept, SUM(size) OVER newest AS kept_bytes FROM webhook_outbox
                        WINDOW newest AS (ORDER BY id DESC))
                    WHERE kept > ? OR kept_bytes > ?)
                RETURNING id
                """, [.integer(maxRows), .integer(maxBytes)], on: connection)
            return trim
        }
    }

    /// Runs a `DELETE … RETURNING id` and says how many rows it removed.
    private static func deleted(_ statement: String, _ bindings: [SQLiteData], on connection: SQLiteConnection) async throws -> Int {
        try await connection.query(statement, bindings).count
    }
}
