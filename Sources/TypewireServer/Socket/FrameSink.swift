/// Where the hub queues one socket's frames: what the hub holds of a socket.
///
/// Every call may come from any thread; frames and the close leave in the order they were queued. The
/// socket layer's sink is ``ChannelSink``: it writes on the socket's event loop, and a socket that
/// reads too slowly to follow (its unsent frames would hold more than ``ServerConfiguration/Sockets/maxQueuedBytes``)
/// is cut off.
public protocol FrameSink: AnyObject, Sendable {
    /// Queues a frame; after ``finish()`` it is dropped.
    func enqueue(_ frame: OutboundFrame)

    /// Ends the queue: what is queued still leaves, nothing more is taken.
    func finish()

    /// Sets what runs once the socket reads too slowly to follow. The sink closes the socket itself (1001,
    /// within the close timeout whatever the peer does); the handler, which the hub sets when the socket
    /// connects, forgets the connection, so that the others see the user's activity cleared at once.
    func onOverflow(_ handler: @escaping @Sendable () async -> Void)

    /// Closes the socket with the going-away code (1001) after what is queued, and returns once it is closed:
    /// the peer's close frame is waited for no longer than the close timeout.
    func close(reason: String) async
}
