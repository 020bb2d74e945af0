import Logging
import NIOConcurrencyHelpers
import Prometheus

/// Counts events the bus dropped, in a metric and in the log (the first, then every thousandth): those a full
/// queue could not take, payloads that were not sealed with the cluster's key, or replayed ones.
final class DropCount: Sendable {
    private let count = NIOLockedValueBox(0)
    private let logger: Logger
    private let counter: Counter?
    private let message: Logger.Message

    init(
        logger: Logger, counter: Counter? = nil,
        message: Logger.Message = "the cluster bus cannot keep up: events for the other nodes were dropped"
    ) {
        self.logger = logger
        self.counter = counter
        self.message = message
    }

    /// A counter of sealed payloads that are stale or were accepted before.
    static func replayed(logger: Logger, counter: Counter) -> DropCount {
        DropCount(
            logger: logger, counter: counter,
            message:
                "a cluster event older than 30 s or heard before was dropped (a replay, or nodes whose clocks disagree by more than 30 s)")
    }

    /// A counter of payloads that are not sealed with the cluster's key.
    static func unsigned(logger: Logger, counter: Counter) -> DropCount {
        DropCount(
            logger: logger, counter: counter,
            message:
                "a cluster event that is not sealed with this cluster's key was dropped (do all nodes share the cluster secret and run the same version?)"
        )
    }

    func add(_ metadata: Logger.Metadata = [:]) {
        counter?.increment()
        let total = count.withLockedValue { count -> Int in
            count += 1
            return count
        }
        if total == 1 || total.isMultiple(of: 1_000) {
            logger.error(message, metadata: metadata.merging(["dropped": "\(total)"]) { $1 })
        }
    }
}
