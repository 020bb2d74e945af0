import TypewireCore

/// A store that cannot be opened or used, with what to do about it.
public struct StoreError: Error, CustomStringConvertible {
    private let message: String

    static func inconsistent(_ message: String) -> StoreError { StoreError(message: "The store is inconsistent: \(message).") }

    static func badURL(_ url: String, _ expected: String) -> StoreError {
        StoreError(message: "The PostgreSQL URL '\(url)' cannot be used: \(expected).")
    }

    /// The schema is newer than this build's migrations: a later release wrote it, and this one would read
    /// it wrongly, so it does not start on it.
    static func newerSchema(_ version: Int, known: Int) -> StoreError {
        let this = "typewire \(TypewireVersion.current)"
        return StoreError(
            message: "The database's schema is version \(version), newer than the \(known) this server (\(this)) knows: "
                + "a newer release wrote it. Run that release or a later one on it, or start this one on a backup made for it.")
    }

    public var description: String { message }
}
