/// A configuration the server cannot run with, and what to change.
public struct ConfigurationError: Error, CustomStringConvertible {
    private let message: String

    /// A cluster without PostgreSQL.
    static let clusterNeedsPostgres = ConfigurationError(
        message: "A cluster shares one PostgreSQL database: give every node the same --postgres-url."
    )
    /// A cluster whose nodes have no secret to sign their bus events with.
    static let clusterNeedsSecret = ConfigurationError(
        message:
            "The nodes of a cluster sign their bus events with a secret they share: give every node the same --cluster-secret (or --jwt-secret)."
    )

    public var description: String { message }
}
