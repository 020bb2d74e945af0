import Logging
import NIOConcurrencyHelpers
import NIOCore
import Prometheus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts and tells of the listening socket's accept failures for want of file descriptors (EMFILE, ENFILE):
/// NIO's accept backoff then waits a second before accepting again, so connections queue in the backlog
/// and time out, and without this nothing says why. Put first in the server channel's pipeline, where a
/// read error arrives before the backoff handler, which does not pass it on; logged at most once a second.
final class AcceptErrors: ChannelInboundHandler, Sendable {
    typealias InboundIn = Any

    private let counter: Counter
    private let logger: Logger
    private let lastLogged = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    init(metrics: HubMetrics, logger: Logger) {
        counter = metrics.makeCounter(
            "accept_out_of_descriptors",
            help: "Accepts that failed for want of file descriptors (EMFILE, ENFILE); the server waits a second before accepting again.")
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE {
            counter.increment()
            let now = ContinuousClock.now
            let tell = lastLogged.withLockedValue { last in
                guard last.map({ now - $0 >= .seconds(1) }) ?? true else { return false }
                last = now
                return true
            }
            if tell {
                logger.warning(
                    "A connection could not be accepted: the process is out of file descriptors; accepting again in a second. Raise the open-file limit (ulimit -n) or lower the sockets per user.",
                    metadata: ["errno": "\(error.errnoCode)"])
            }
        }
        context.fireErrorCaught(error)
    }
}
