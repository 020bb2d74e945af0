import Foundation
import PostgresNIO

/// Reads a `postgres://user:password@host:port/database?sslmode=…` URL into a client configuration.
///
/// `sslmode` may be `disable` (the default for 127.0.0.1 and localhost), `prefer` (the default
/// elsewhere) or `require`.
struct PostgresURL {
    let configuration: PostgresClient.Configuration

    init(_ string: String) throws(StoreError) {
        var shown = URLComponents(string: string)
        if shown?.password != nil { shown?.password = "***" }  // never log a password
        let text = shown?.string ?? "(not a URL)"
        guard let url = URLComponents(string: string), ["postgres", "postgresql"].contains(url.scheme ?? ""),
            let host = url.host, !host.isEmpty
        else {
            throw StoreError.badURL(text, "expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        let database = String(url.path.drop { $0 == "/" })
        let mode =
            url.queryItems?.first { $0.name == "sslmode" }?.value
            ?? (["127.0.0.1", "localhost", "::1"].contains(host) ? "disable" : "prefer")
        let tls: PostgresClient.Configuration.TLS
        switch mode {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require": tls = .require(.makeClientConfiguration())
        default: throw StoreError.badURL(text, "sslmode must be disable, prefer or require")
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: url.port ?? 5432, username: url.user ?? "postgres", password: url.password,
            database: database.isEmpty ? nil : database, tls: tls
        )
        configuration.options.maximumConnections = 10
        self.configuration = configuration
    }
}
