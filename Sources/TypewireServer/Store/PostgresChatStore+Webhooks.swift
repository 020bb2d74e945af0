import PostgresNIO

// The webhook outbox in the cluster's PostgreSQL: every node claims from the one table, a row by one node
// at a time (`FOR UPDATE SKIP LOCKED`: nodes claiming together take different rows, none waits).
extension PostgresChatStore: WebhookOutbox {
    public func enqueueWebhook(_ event: WebhookEvent, to endpoints: [String]) async throws {
        guard !endpoints.isEmpty else { return }
        try await transaction { try await Self.insertWebhook(event, to: endpoints, on: $0, logger: logger) }
    }

    /// Inserts one delivery of the event per endpoint, due when the event was made.
    static func insertWebhook(_ event: WebhookEvent, to endpoints: [String], on connection: PostgresConnection, logger: Logger) async throws
    {
        let body = event.body()
        for endpoint in endpoints {
            try await connection.query(
                """
                INSERT INTO webhook_outbox (event_id, type, endpoint, body, created_at, attempts, due_at)
                VALUES (\(event.id), \(event.type.rawValue), \(endpoint), \(body), \(event.createdAt), 0, \(event.createdAt))
                """, logger: logger
            ).drain()
        }
    }

    public func claimWebhooks(dueAt now: Int64, limit: Int, leaseUntil: Int64) async throws -> [WebhookDelivery] {
        let rows = try await client.query(
            """
            UPDATE webhook_outbox SET due_at = \(leaseUntil)
            WHERE id IN (SELECT id FROM webhook_outbox WHERE due_at <= \(now) ORDER BY due_at, id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
            RETURNING id, event_id, type, endpoint, body, created_at, attempts
            """, logger: logger)
        var deliveries: [WebhookDelivery] = []
        for try await (id, eventID, type, endpoint, body, createdAt, attempts) in rows.decode(
            (Int64, String, String, String, String, Int64, Int32).self)
        {
            guard let type = WebhookEventType(rawValue: type) else { continue }
            deliveries.append(
                WebhookDelivery(
                    id: id, eventID: eventID, type: type, endpoint: endpoint, body: body, createdAt: createdAt, attempts: Int(attempts)))
        }
        return deliveries
    }

    public func webhooksDelivered(_ ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        try await run("DELETE FROM webhook_outbox WHERE id = ANY(\(ids))")
    }

    public func webhookFailed(_ id: Int64, attempts: Int, retryAt: Int64?) async throws {
        if let retryAt {
            try await run("UPDATE webhook_outbox SET attempts = \(Int32(clamping: attempts)), due_at = \(retryAt) WHERE id = \(id)")
        } else {
            try await run("DELETE FROM webhook_outbox WHERE id = \(id)")
        }
    }

    public func nextWebhookDue() async throws -> Int64? {
        for try await due in try await client.query("SELECT MIN(due_at) FROM webhook_outbox", logger: logger).decode(Int64?.self) {
            return due
        }
        return nil
    }

    public func pendingWebhooks() async throws -> Int {
        for try await count in try await client.query("SELECT COUNT(*) FROM webhook_outbox", logger: logger).decode(Int64.self) {
            return Int(count)
        }
        return 0
    }
}
