import NIOCore

/// Holds Hummingbird's shutdown notice (`ChannelShouldQuiesceEvent`) for a connection whose pipeline is not
/// complete yet, and passes it on once it is.
///
/// The notice reaches every open connection when the server starts to shut down. A connection still before
/// its first request has none of the handlers that act on it (the socket's, or Hummingbird's HTTP/1 state
/// handler, both added once the request says what the connection is), so without the latch it would miss the
/// notice and keep the shutdown waiting. ``SocketChildChannel`` removes the latch when the pipeline is
/// complete; a notice held by then goes on to the new handlers.
final class QuiesceLatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private var quiesced = false

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        quiesced = true
    }

    func removeHandler(context: ChannelHandlerContext, removalToken: ChannelHandlerContext.RemovalToken) {
        if quiesced { context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }
        context.leavePipeline(removalToken: removalToken)
    }
}
