/// Why a benchmark could not run, or why it failed, in words a person can act on.
public struct BenchError: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    public let description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}
