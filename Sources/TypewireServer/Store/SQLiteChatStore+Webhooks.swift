import SQLiteNIO

// The webhook outbox in the SQLite file: a table the writer connection changes, one statement a turn.
extension SQLiteChatStore: WebhookOutbox {
    public func enqueueWebhook(_ event: WebhookEvent, to endpoints: [String]) async throws {
        guard !endpoints.isEmpty else { return }
        try await database.transaction { try await Self.insertWebhook(event, to: endpoints, on: $0) }
    }

    /// Inserts one delivery of the event per endpoint, due when the event was made.
    static func insertWebhook(_ event: WebhookEvent, to endpoints: [String], on connection: SQLiteConnection) async throws {
        let body = event.body()
        for endpoint in endpoints {
            _ = try await connection.query(
                """
                INSERT INTO webhook_outbox (event_id, type, endpoint, body, created_at, attempts, due_at)
                VALUES (?, ?, ?, ?, ?, 0, ?)
                """,
                [
                    .text(event.id), .text(event.type.rawValue), .text(endpoint), .text(body), .integer(Int(event.createdAt)),
                    .integer(Int(event.createdAt)),
                ])
        }
    }

    public func claimWebhooks(dueAt now: Int64, limit: Int, leaseUntil: Int64) async throws -> [WebhookDelivery] {
        let rows = try await database.write { connection in
            try await connection.query(
                """
                UPDATE webhook_outbox SET due_at = ?
                WHERE id IN (SELECT id FROM webhook_outbox WHERE due_at <= ? ORDER BY due_at, id LIMIT ?)
                RETURNING id, event_id, type, endpoint, body, created_at, attempts
                """,
                [.integer(Int(leaseUntil)), .integer(Int(now)), .integer(limit)])
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

    public func pendingWebhooks() async throws -> Int {
        try await database.read { try await $0.query("SELECT COUNT(*) AS pending FROM webhook_outbox") }.first?
            .column("pending")?.integer ?? 0
    }
}
