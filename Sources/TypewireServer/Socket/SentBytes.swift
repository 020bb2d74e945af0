/// The memory held by one socket's frames that are written and have not yet left for the kernel: each
/// frame's bytes and what writing it costs beside them (``overheadPerWrite``), from its write until NIO has
/// handed it to the kernel. The socket's bound (``ServerConfiguration/Sockets/maxQueuedBytes``) is on this sum: a
/// socket that reads nothing cannot make the server hold more for it, however small its frames (a 2-byte pong
/// costs over a hundred bytes of memory in NIO's queue).
///
/// NIO says when a write has left only through a promise per write, which would cost an allocation per
/// delivery. The sink asks after each flush instead: if NIO holds nothing (the common case: the kernel took
/// it all), everything has left; if bytes are left behind, one empty write after them, with a promise (a
/// mark), tells when everything before it has left. A pure value, on the socket's event loop.
struct SentBytes {
    /// Memory a write takes beside its bytes: NIO's pending-write entry and its share of the queue's storage,
    /// and the frame's buffer object and allocation (the bytes of a frame fanned out to many sockets are
    /// shared; its own frames, such as pongs and answers, are not). docs/RELIABILITY.md has the measurement.
    static let overheadPerWrite = 160

    /// The most memory the socket's unsent frames may hold.
    let limit: Int
    /// Memory charged for every frame written, and the part released, since the socket opened.
    private var charged = 0
    private var released = 0
    /// A mark is on its way through NIO's queue.
    private var markOut = false

    init(limit: Int) {
        self.limit = limit
    }

    /// The memory the frames not known to have left hold now.
    var held: Int { charged - released }

    /// Whether bytes were left behind at the last flush and a mark has not yet come through them: the peer
    /// does not read as fast as the socket writes.
    var isBehind: Bool { markOut }

    /// The memory a frame takes while it waits.
    static func cost(of frame: OutboundFrame) -> Int {
        frame.byteCount + overheadPerWrite
    }

    /// The memory left within the bound.
    var room: Int { limit - held }

    /// Whether the frame can be written within the bound.
    func fits(_ frame: OutboundFrame) -> Bool {
        held + Self.cost(of: frame) <= limit
    }

    /// A frame was written.
    mutating func wrote(_ frame: OutboundFrame) {
        charged += Self.cost(of: frame)
    }

    /// A flush left `bytesLeft` in NIO's buffer.
    /// - Returns: The mark to write after them (an empty write whose completion calls ``left(upTo:)``), if
    ///   bytes are left and no mark is out already; nil otherwise.
    mutating func flushed(leaving bytesLeft: Int) -> Int? {
        guard bytesLeft > 0 else {
            released = charged
            return nil
        }
        guard !markOut else { return nil }
        markOut = true
        return charged
    }

    /// A mark came through: everything written before it has left.
    mutating func left(upTo mark: Int) {
        released = max(released, mark)
        markOut = false
    }
}
