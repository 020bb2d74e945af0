/// Wakes the dispatcher: rung when an event reaches the outbox, waited on with a timeout. Rings while
/// nobody waits are kept as one (the dispatcher then looks once).
final class WebhookDoorbell: Sendable {
    private let rings: AsyncStream<Void>
    private let ringer: AsyncStream<Void>.Continuation

    init() {
        (rings, ringer) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Wakes the waiter, or the next one.
    func ring() {
        ringer.yield()
    }

    /// Ends every wait, now and later.
    func close() {
        ringer.finish()
    }

    /// A waiter: one task waits on it at a time (the dispatcher's).
    func makeWaiter() -> Waiter {
        Waiter(rings: rings.makeAsyncIterator(), ringer: ringer)
    }

    /// The dispatcher's side of the bell.
    struct Waiter {
        var rings: AsyncStream<Void>.Iterator
        let ringer: AsyncStream<Void>.Continuation

        /// Returns when the bell rings or `timeout` passes, whichever is first.
        /// - Returns: false once the bell is closed.
        mutating func wait(atMost timeout: Duration) async -> Bool {
            let ringer = ringer
            let alarm = Task {
                try await Task.sleep(for: timeout)
                ringer.yield()
            }
            defer { alarm.cancel() }
            return await rings.next() != nil
        }
    }
}
