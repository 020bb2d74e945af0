/// A store that cannot be opened or used, with what to do about it.
public struct StoreError: Error, CustomStringConvertible {
    private let message: String

    static func inconsistent(_ message: String) -> StoreError { StoreError(message: "The store is inconsistent: \(message).") }

    static func badURL(_ url: String, _ expected: String) -> StoreError {
        StoreError(message: "The PostgreSQL URL '\(url)' cannot be used: \(expected).")
    }

    static let clusterNeedsPostgres = StoreError(
        message: "A cluster shares one PostgreSQL database: give every node the same --postgres-url."
    )
    static let clusterNeedsSecret = StoreError(
        message: "The nodes of a cluster sign their bus events with a secret they share: give every node the same --cluster-secret (or --jwt-secret)."
    )

    public var description: String { message }
}
