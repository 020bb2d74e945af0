import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Throwaway PostgreSQL databases for tests, on the server named by `TYPEWIRE_TEST_POSTGRES_URL`
/// (`bash scripts/postgres.sh` starts one). Tests that need PostgreSQL are skipped when it is unset.
public enum TestDatabase {
    /// The test server's URL, if the environment names one.
    public static var serverURL: String? {
        ProcessInfo.processInfo.environment["TYPEWIRE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Why PostgreSQL tests are skipped, for `.enabled(if:)`.
    public static let skipReason =
        "PostgreSQL tests need TYPEWIRE_TEST_POSTGRES_URL (bash scripts/postgres.sh starts a server and prints it)"

    /// Creates an empty database on the test server and returns its URL.
    public static func create() async throws -> String {
        guard let serverURL else { throw TestDatabaseError(message: "TYPEWIRE_TEST_POSTGRES_URL is not set") }
        let name = "typewire_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try await execute("CREATE DATABASE \(name)", on: serverURL)
        guard var url = URLComponents(string: serverURL) else {
            throw TestDatabaseError(message: "TYPEWIRE_TEST_POSTGRES_URL is not a URL")
        }
        url.path = "/" + name
        return url.string!
    }

    /// Runs one SQL statement on a database of the test server, as any client of it could (for tests
    /// that play such a client, e.g. one that sends its own `NOTIFY`).
    public static func execute(_ sql: String, on databaseURL: String) async throws {
        let client = try client(of: databaseURL)
        try await withThrowingTaskGroup(of: Void.self) { group in
            let (started, start) = AsyncStream.makeStream(of: Never.self)
            group.addTask {
                start.finish()
                await client.run()
            }
            defer { group.cancelAll() }
            for await _ in started {}  // so the query does not log that `run()` has not begun
            for try await _ in try await client.query(PostgresQuery(unsafeSQL: sql)) {}
        }
    }
}

extension TestDatabase {
    /// Listens on a NOTIFY channel as any client of the database could, runs `body`, and returns the payloads
    /// heard once `enough` holds of them (or after 10 s, whatever was heard): what a database role that may
    /// only connect sees of a cluster's bus.
    public static func notifications(
        on channel: String, of databaseURL: String, during body: () async throws -> Void,
        until enough: @escaping @Sendable ([String]) -> Bool
    ) async throws -> [String] {
        let client = try client(of: databaseURL)
        let heard = NIOLockedValueBox<[String]>([])
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let (listening, ready) = AsyncStream.makeStream(of: Never.self)
            group.addTask {
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        ready.finish()
                        for try await notification in notifications { heard.withLockedValue { $0.append(notification.payload) } }
                    }
                }
            }
            for await _ in listening {}
            try await body()
            let deadline = ContinuousClock.now + .seconds(10)
            while !enough(heard.withLockedValue { $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            return heard.withLockedValue { $0 }
        }
    }

    private static func client(of databaseURL: String) throws -> PostgresClient {
        guard let url = URLComponents(string: databaseURL) else { throw TestDatabaseError(message: "'\(databaseURL)' is not a URL") }
        var configuration = PostgresClient.Configuration(
            host: url.host ?? "127.0.0.1", port: url.port ?? 5432, username: url.user ?? "postgres", password: url.password,
            database: String(url.path.drop { $0 == "/" }), tls: .disable
        )
        configuration.options.maximumConnections = 1
        return PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "typewire.test-database"))
    }
}

/// The test database could not be made.
public struct TestDatabaseError: Error, CustomStringConvertible {
    let message: String
    public var description: String { message }
}
