import NIOCore

/// Guards a new connection until its first request head is complete: a head over ``maxBytes`` is answered
/// with 431 and the connection closed; a head not complete within ``timeout`` closes it. So a client cannot
/// hold a connection (and a file descriptor) open with half a header, nor make the server read a huge one.
///
/// It sits first in the pipeline and sees the raw bytes; once the first head has ended (a blank line), it
/// removes itself. Later requests on a kept-alive connection are bounded by NIO's decoder limits and
/// Hummingbird's idle timeout, which are set up only after the first head (the upgrade decision) and so
/// do not cover it. Neither HummingbirdCore nor NIOHTTP1 has a head deadline of its own.
///
/// It also closes a connection that never becomes active (registered with its event loop): one accepted as
/// the listener closes (a client reconnecting during a shutdown) is set up but never registered, so it is
/// neither read nor closed, and its client would wait for an answer until the head timeout (the gap is NIO's,
/// in its async server bootstrap: apple/swift-nio#2637; ``TypewireService`` also closes the listener before
/// the sockets, which makes it rare). A connection not active yet looks every ``activationCheck`` and closes
/// once ``ListenerState`` says the listener has closed: while it listens, a registration late on a loaded
/// machine is waited for (closing then would reset a request the client already sent).
final class RequestHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// How the connection's first head ended.
    enum Ending {
        /// It is complete: the request goes on.
        case complete
        /// The head timeout closed the connection after part of a head came.
        case timedOutPartway
        /// The connection closed otherwise (it sent nothing in time, the client went away, 431).
        case closed
    }

    let maxBytes: Int
    let timeout: TimeAmount
    /// Whether the server still listens, for a connection not active yet.
    private let listener: ListenerState
    /// Told once how the first head ended.
    private let ended: (Ending) -> Void
    private var hasEnded = false
    private var seen = 0
    /// The last bytes read, to find a blank line split across reads.
    private var tail: [UInt8] = []
    /// The connection's loop's timers, where the deadlines are armed.
    private let timers: TimerQueue
    private var deadline: TimerQueue.Timer?
    private var activation: TimerQueue.Timer?
    private var refused = false

    init(
        maxBytes: Int, timeout: TimeAmount, listener: ListenerState, timers: TimerQueue, ended: @escaping (Ending) -> Void = { _ in }
    ) {
        self.maxBytes = maxBytes
        self.timeout = timeout
        self.listener = listener
        self.timers = timers
        self.ended = ended
    }

    func handlerAdded(context: ChannelHandlerContext) {
        deadline = timers.schedule(in: timeout) {
            self.end(self.seen > 0 ? .timedOutPartway : .closed)
            context.close(promise: nil)
        }
        if !context.channel.isActive { checkActivation(context: context) }
    }

    /// How often a connection not active yet looks whether the listener has closed.
    static let activationCheck = TimeAmount.seconds(1)

    private func checkActivation(context: ChannelHandlerContext) {
        activation = timers.schedule(in: Self.activationCheck) {
            if self.listener.isClosed { context.close(promise: nil) } else { self.checkActivation(context: context) }
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        cancel(&activation)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancel(&deadline)
        cancel(&activation)
        end(.closed)  // harmless after an earlier end
    }

    private func cancel(_ timer: inout TimerQueue.Timer?) {
        if let armed = timer { timers.cancel(armed) }
        timer = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        end(.closed)
        context.fireChannelInactive()
    }

    /// Tells how the first head ended, once.
    private func end(_ ending: Ending) {
        guard !hasEnded else { return }
        hasEnded = true
        ended(ending)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }  // answered 431; dropped until the close
        let buffer = unwrapInboundIn(data)
        let bytes = tail + buffer.readableBytesView
        if let blankLine = Self.blankLine(in: bytes), seen - tail.count + blankLine <= maxBytes {
            end(.complete)
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        seen += buffer.readableBytes
        guard seen <= maxBytes else {
            refused = true
            let answer = "HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"
            // Closing with unread bytes would reset the connection, and the client might lose the answer: the
            // answer and a half close go first, then what still comes is read and dropped for a moment.
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(NIOAny(ByteBuffer(string: answer))).whenComplete { _ in loopBound.value.close(mode: .output, promise: nil)
            }
            cancel(&deadline)
            deadline = timers.schedule(in: .seconds(2)) { context.close(promise: nil) }
            return
        }
        tail = Array(bytes.suffix(3))
        context.fireChannelRead(data)
    }

    /// Where the first blank line (CRLF CRLF) ends in `bytes`, if it has one.
    private static func blankLine(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13
        {
            return index + 1
        }
        return nil
    }
}
