import Atomics
import NIOCore

/// Whether the server still listens, for the connections that wait to be registered with their event loop.
///
/// NIO registers an accepted connection two loop hops after its setup (the listener's loop, then the
/// connection's), which on a loaded machine can take seconds; a connection accepted as the listener closes
/// is set up but never registered (apple/swift-nio#2637). ``RequestHeadGuard`` closes a connection that is
/// not active yet only once the listener has closed, so a slow registration is waited for and a lost one is
/// not.
final class ListenerState: Sendable {
    private let closed = ManagedAtomic(false)

    /// Whether the listening channel has closed.
    var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Follows the listening channel: closed once it closes.
    func follow(_ listener: any Channel) {
        listener.closeFuture.whenComplete { _ in self.closed.store(true, ordering: .releasing) }
    }
}
