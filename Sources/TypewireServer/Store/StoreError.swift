/// A store that cannot be opened or used, with what to do about it.
public struct StoreError: Error, CustomStringConvertible {
    private let message: String

    static func inconsistent(_ message: String) -> StoreError { StoreError(message: "The store is inconsistent: \(message).") }

    static func badURL(_ url: String, _ expected: String) -> StoreError {
        StoreError(message: "The PostgreSQL URL '\(url)' cannot be used: \(expected).")
    }

    public var description: String { message }
}
