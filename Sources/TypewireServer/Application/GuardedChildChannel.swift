import HummingbirdCore
import Logging
import NIOCore
import NIOPosix

/// A server child channel that closes a connection before anything is read when its client's sockets keep
/// being refused (``AddressRefusals``) or its client has too many connections not through their handshake
/// (``PendingHandshakes``), and puts a ``RequestHeadGuard`` in front of another's pipeline for the others.
struct GuardedChildChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    /// The setup's error for a connection closed as soon as accepted (nothing logs it).
    struct ClosedAtAccept: Error {}

    let base: Base
    let maxHeadBytes: Int
    let headTimeout: TimeAmount
    /// Whether the server still listens (``RequestHeadGuard`` waits for a connection's registration until not).
    let listener: ListenerState
    /// Where each loop's guards arm their deadlines.
    let timers: TimerQueues
    let refusals: AddressRefusals
    let pendingHandshakes: PendingHandshakes

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let peer = channel.remoteAddress
        guard refusals.accepts(peer), pendingHandshakes.opened(peer) else {
            // Closed here: NIO drops a failed setup of a server's async child channel without closing it. With a
            // reset, not a FIN: the server keeps no TIME_WAIT for the connection.
            let reset =
                (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
                ?? channel.eventLoop.makeSucceededVoidFuture()
            return reset.flatMap { channel.close() }.flatMapThrowing { throw ClosedAtAccept() }
        }
        return channel.eventLoop.makeCompletedFuture {
            let (refusals, pendingHandshakes) = (refusals, pendingHandshakes)
            try channel.pipeline.syncOperations.addHandler(
                RequestHeadGuard(
                    maxBytes: maxHeadBytes, timeout: headTimeout, listener: listener, timers: timers.queue(for: channel.eventLoop)
                ) { ending in
                    pendingHandshakes.ended(peer)
                    if ending == .timedOutPartway { refusals.refused(peer) }
                })
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
