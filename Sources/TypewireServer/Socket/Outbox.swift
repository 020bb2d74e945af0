/// Where the hub queues one socket's frames: what the hub holds of a socket.
///
/// Every call may come from any thread; frames and the close leave in the order they were queued. The
/// socket layer's outbox is ``ChannelOutbox``: it writes on the socket's event loop, and a socket that
/// reads too slowly to follow (its unsent bytes pass ``ServerConfiguration/maxQueuedBytes``) is cut off.
public protocol Outbox: AnyObject, Sendable {
    /// Queues a frame; after ``finish()`` it is dropped.
    func enqueue(_ frame: OutboundFrame)

    /// Ends the queue: what is queued still leaves, nothing more is taken.
    func finish()

    /// Sets what runs once the socket reads too slowly to follow (the hub sets it when the socket connects:
    /// it forgets the connection and closes the socket).
    func onOverflow(_ handler: @escaping @Sendable () async -> Void)

    /// Closes the socket with the going-away code (1001) after what is queued.
    /// - Parameters:
    ///   - reason: The close frame's reason.
    ///   - shutdown: True for a shutdown: returns once the socket is closed, waiting for the peer's close
    ///     frame no longer than the close timeout. False for a slow reader: its queue drains as it reads, the
    ///     close frame last, and the call returns at once.
    func close(reason: String, shutdown: Bool) async
}
