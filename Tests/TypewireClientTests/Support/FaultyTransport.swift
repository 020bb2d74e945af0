import Logging
import NIOConcurrencyHelpers

@testable import TypewireClient

/// The client's own transport (the platform's, to a real server) with faults put in at the SDK's seam: the
/// first `refusals` connects fail before any socket opens, and the first `drops` sockets die (no close
/// frame, as a network that goes away) when the server's next frame is one `dropsOn` matches, which the
/// client then never reads.
final class FaultyTransport: SocketTransport {
    private let inner = platformSocketTransport()
    private let refusals: Int
    private let drops: Int
    private let dropsOn: @Sendable (String) -> Bool
    private let counts = NIOLockedValueBox((connects: 0, dropped: 0))

    struct Fault: Error {}

    init(refusals: Int, drops: Int, dropsOn: @escaping @Sendable (String) -> Bool) {
        self.refusals = refusals
        self.drops = drops
        self.dropsOn = dropsOn
    }

    /// Connects asked for, and sockets dropped so far.
    var connects: Int { counts.withLockedValue { $0.connects } }
    var dropped: Int { counts.withLockedValue { $0.dropped } }

    func connect(
        url: String, pingInterval: Duration, logger: Logger, _ body: @escaping @Sendable (SocketReader, SocketWriter) async throws -> Void
    ) async throws {
        let attempt = counts.withLockedValue {
            $0.connects += 1
            return $0.connects
        }
        guard attempt > refusals else { throw Fault() }
        let counts = counts
        let drops = drops
        let dropsOn = dropsOn
        try await inner.connect(url: url, pingInterval: pingInterval, logger: logger) { reader, writer in
            let faulty = SocketReader {
                guard let text = try await reader.next() else { return nil }
                let drop =
                    dropsOn(text)
                    && counts.withLockedValue { counts in
                        guard counts.dropped < drops else { return false }
                        counts.dropped += 1
                        return true
                    }
                if drop { throw Fault() }
                return text
            }
            try await body(faulty, writer)
        }
    }
}
