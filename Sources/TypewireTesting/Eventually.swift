/// Waits until a condition holds, checking it every 10 ms, for at most `timeout`.
///
/// For state that nothing announces (a socket's count on the server, a closed flag); what arrives as a
/// frame or an element of a sequence is better awaited directly. The default timeout is
/// ``livenessBound``.
/// - Throws: ``EventuallyTimedOut`` if the condition still does not hold at the deadline.
public func eventually(
    within timeout: Duration = livenessBound, isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw EventuallyTimedOut(timeout: timeout) }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// A condition given to ``eventually(within:_:)`` did not hold in time.
public struct EventuallyTimedOut: Error, CustomStringConvertible {
    /// How long it was given.
    public let timeout: Duration

    public var description: String { "the condition did not hold within \(timeout)" }
}
