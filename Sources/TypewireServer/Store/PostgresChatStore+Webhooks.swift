import PostgresNIO

// The webhook outbox in the cluster's PostgreSQL: every node claims from the one table, a row by one node
// at a time (`FOR UPDATE SKIP LOCKED`: nodes claiming together take different rows, none waits).
extension PostgresChatStore: WebhookOutbox {
    public func enqueueWebhook(_ event: WebhookEvent, to endpoints: [String]) async throws {
        guard !endpoints.isEmpty else { return }
        try await transaction { try await Self.insertWebhook(event, to: endpoints, on: $0, logger: logger) }
    }

    /// Inserts one delivery of the event per endpoint, due when the event was made, in place of a waiting
    /// one of the same coalescing key.
    static func insertWebhook(_ event: WebhookEvent, to endpoints: [String], on connection: PostgresConnection, logger: Logger) async throws
    {
        let body = event.body()
        let size = Int64(body.utf8.count)
        let key = event.coalescingKey
        for endpoint in endpoints {
            if let key {
                try await connection.query(
                    "DELETE FROM webhook_outbox WHERE coalescing_key = \(key) AND endpoint = \(endpoint)", logger: logger
                ).drain()
            }
            try await connection.query(
                """
                INSERT INTO webhook_outbox (event_id, type, endpoint, body, created_at, attempts, due_at, size, coalescing_key)
                VALUES (\(event.id), \(event.type.rawValue), \(endpoint), \(body), \(event.createdAt), 0, \(event.createdAt), \(size), \(key))
                """, logger: logger
            ).drain()
        }
    }

    public func claimWebhooks(dueAt now: Int64, limit: Int, leaseUntil: Int64, endpoints: [String]) async throws -> [WebhookDelivery] {
        guard !endpoints.isEmpty else { return [] }
        let rows = try await client.query(
            """
            UPDATE webhook_outbox SET due_at = \(leaseUntil)
            WHERE id IN (
                SELECT id FROM webhook_outbox WHERE due_at <= \(now) AND endpoint = ANY(\(endpoints))
                ORDER BY due_at, id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
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

    public func webhookBacklog() async throws -> WebhookBacklog {
        let rows = try await client.query(
            "SELECT COUNT(*), COALESCE(SUM(size), 0)::BIGINT, MIN(created_at) FROM webhook_outbox", logger: logger)
        for try await (count, bytes, oldest) in rows.decode((Int64, Int64, Int64?).self) {
            return WebhookBacklog(rows: Int(count), bytes: Int(clamping: bytes), oldest: oldest)
        }
        return WebhookBacklog(rows: 0, bytes: 0, oldest: nil)
    }

    public func trimWebhooks(endpoints: [String], createdBefore: Int64, maxRows: Int, maxBytes: Int) async throws -> WebhookTrim {
        let logger = logger
        return try await transaction { connection in
            func deleted(_ query: PostgresQuery) async throws -> Int {
                var count = 0
                for try await _ in try await connection.query(query, logger: logger).decode(Int64.self) { count += 1 }
                return count
            }
            var trim = WebhookTrim()
            trim.unconfigured = try await deleted("DELETE FROM webhook_outbox WHERE endpoint <> ALL(\(endpoints)) RETURNING id")
            trim.expired = try await deleted("DELETE FROM webhook_outbox WHERE created_at < \(createdBefore) RETURNING id")
            trim.overCap = try await deleted(
                """
                DELETE FROM webhook_outbox WHERE id IN (
                    SELECT id FROM (
                        SELECT id, COUNT(*) OVER newest AS kept, SUM(size) OVER newest AS kept_bytes FROM webhook_outbox
                        WINDOW newest AS (ORDER BY id DESC)) AS ranked
                    WHERE kept > \(Int64(maxRows)) OR kept_bytes > \(Int64(maxBytes)))
                RETURNING id
                """)
            return trim
        }
    }
}
