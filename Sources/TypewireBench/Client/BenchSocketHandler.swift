import NIOCore
import NIOWebSocket

/// One benchmark socket after the WebSocket upgrade: says hello, subscribes, then counts what arrives.
///
/// Lives on its channel's event loop; everything it counts goes into its loop's ``TallyBox``. Frames are
/// scanned, not decoded (``FrameScanner``): per receiving socket it keeps the latest stamp of each sender
/// and records a latency sample when a larger one arrives, so a stamp repeated in later updates of the
/// conversation counts once. A socket's own stamps and entry are not counted: a server does not send a
/// socket the update its own `activity` caused, so they reach it only inside someone else's, late.
final class BenchSocketHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private enum Phase { case hello, subscribing, ready, closing }

    let socket: SocketPlan.Socket
    private let token: String
    private let tally: TallyBox
    private let ready: EventLoopPromise<Void>
    private let tracksExpiry: Bool
    /// Scenario `receipts`: subscribes with its read state and reads each message of others within a second.
    private let readsMessages: Bool
    private var phase = Phase.hello
    private var context: ChannelHandlerContext?
    /// The latest stamp seen from each member of the conversation.
    private var lastStamp: [UInt64]
    /// The entries of the latest `activity` update: user → `expiresAt` (scenario `expiry`).
    private var entries: [String: Int64] = [:]
    private var messagesSent = 0
    /// Scenario `turns`: the replies this bot began, and the parts of the one under way.
    private var turns = 0
    private(set) var partsInTurn = 0
    /// When the latest `activity` frame arrived, and its `serverTime`.
    private var lastActivity: UInt64?
    private var lastServerTime: Int64?
    /// The refresh interval the server announced in `welcome` (milliseconds), if it did.
    private(set) var refreshInterval: Int?

    /// Whether what this socket receives is counted and timed (not a publisher's own copies when the
    /// publishers are on another node of a cluster than their subscribers).
    private let counts: Bool

    init(
        socket: SocketPlan.Socket, members: Int, token: String, tally: TallyBox, ready: EventLoopPromise<Void>, tracksExpiry: Bool,
        readsMessages: Bool = false, counts: Bool = true
    ) {
        self.counts = counts
        self.readsMessages = readsMessages
        self.socket = socket
        self.token = token
        self.tally = tally
        self.ready = ready
        self.tracksExpiry = tracksExpiry
        self.lastStamp = Array(repeating: 0, count: members)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// Says hello; called once the upgrade has finished and the HTTP handlers are gone.
    func start() {
        send(#"{"type":"hello","token":"\#(token)"}"#)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail("socket \(socket.userID) closed by the server")
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail("socket \(socket.userID): \(error)")
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            let now = BenchClock.monotonicNanos()
            frame.unmaskedData.withUnsafeReadableBytes { received(UnsafeRawBufferPointer($0), at: now) }
        case .ping:
            write(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
        case .connectionClose:
            fail("socket \(socket.userID) got a close frame from the server")
            context.close(promise: nil)
        default:
            break
        }
    }

    private func received(_ bytes: UnsafeRawBufferPointer, at now: UInt64) {
        let kind = FrameScanner.kind(bytes)
        switch (phase, kind) {
        case (_, .error):
            let text = String(decoding: bytes.prefix(300), as: UTF8.self)
            if phase == .ready { tally.error("socket \(socket.userID) got \(text)") } else { fail("socket \(socket.userID) got \(text)") }
        case (.hello, .welcome):
            refreshInterval = FrameScanner.refreshInterval(bytes)
            phase = .subscribing
            let readState = readsMessages ? #","readState":true"# : ""
            send(#"{"type":"subscribe","conversation":"\#(socket.conversationID)"\#(readState)}"#)
        case (.subscribing, .subscribed):
            phase = .ready
            ready.succeed()
        case (.ready, _):
            if readsMessages, kind == .message, !socket.isTyper, let id = FrameScanner.messageID(bytes) { read(id) }
            count(kind, bytes, at: now)
        default:
            break
        }
    }

    private func count(_ kind: FrameScanner.Kind, _ bytes: UnsafeRawBufferPointer, at now: UInt64) {
        guard counts else { return }
        var lateness: [UInt64] = []
        if tracksExpiry, kind == .activity {
            let wall = BenchClock.wallMillis()
            let current = FrameScanner.entries(bytes).filter { $0.user != socket.userID }
            let users = Set(current.map(\.user))
            for (user, expiresAt) in entries where !users.contains(user) { lateness.append(UInt64(max(0, wall - expiresAt))) }
            entries = Dictionary(current, uniquingKeysWith: { $1 })
        }
        let previousActivity = lastActivity
        let previousServerTime = lastServerTime
        let entryCount = kind == .activity ? FrameScanner.entryCount(bytes) : 0
        let serverTime = kind == .activity ? FrameScanner.serverTime(bytes) : nil
        if kind == .activity {
            lastActivity = now
            lastServerTime = serverTime ?? lastServerTime
        }
        tally.withLock { state in
            if state.inWindow(now) {
                state.tally.delivered += 1
                if kind == .activity {
                    state.tally.activityReceived += 1
                    state.tally.mostEntries = max(state.tally.mostEntries, entryCount)
                    if let previousActivity { state.tally.activityGaps.record(max(1, (now &- previousActivity) / 1_000)) }
                    if let previousServerTime, let serverTime {
                        state.tally.serverTimeGaps.record(UInt64(max(0, serverTime - previousServerTime)))
                    }
                }
                if kind == .message { state.tally.messagesReceived += 1 }
                if kind == .receipts { state.tally.receiptsReceived += 1 }
                if kind == .unread { state.tally.unreadReceived += 1 }
            }
            for late in lateness { state.tally.expiryLateness.record(late) }
            guard kind == .activity || kind == .message || kind == .stream else { return }
            FrameScanner.forEachStamp(bytes, inPart: kind == .stream) { sent, sender in
                guard sender != socket.member, sender < lastStamp.count, sent > lastStamp[sender] else { return }
                lastStamp[sender] = sent
                if state.inWindow(sent) { state.tally.latency.record(max(1, (now &- sent) / 1_000)) }
            }
        }
    }

    // MARK: Sending (on the event loop)

    /// Sends a start or refresh, stamped with the time and this member's index; returns the stamp.
    @discardableResult
    func sendActivity() -> UInt64 {
        let now = BenchClock.monotonicNanos()
        send(#"{"type":"activity","conversation":"\#(socket.conversationID)","activity":"tool","detail":"t\#(now)u\#(socket.member)"}"#)
        return now
    }

    /// Scenario `turns`: sends the next part of this bot's reply, beginning one if none is under way,
    /// stamped as ``sendActivity()`` stamps; returns the stamp.
    func sendPart() -> UInt64 {
        if partsInTurn == 0 { turns += 1 }
        partsInTurn += 1
        let now = BenchClock.monotonicNanos()
        send(
            #"{"type":"stream","conversation":"\#(socket.conversationID)","messageId":"r\#(socket.index)-\#(turns)","delta":"t\#(now)u\#(socket.member) "}"#
        )
        return now
    }

    /// Scenario `turns`: the next part begins a new reply. Each window does so: while the other target is
    /// measured, the server times the reply under way out (`replyTimeout`), and its next part would be refused.
    func beginNewTurn() { partsInTurn = 0 }

    /// Scenario `turns`: ends the reply under way with its final part (the server stores it whole).
    func sendFinalPart() {
        send(
            #"{"type":"stream","conversation":"\#(socket.conversationID)","messageId":"r\#(socket.index)-\#(turns)","delta":"","final":true}"#
        )
        partsInTurn = 0
    }

    /// Scenario `receipts`: reads the message at a random moment of the next second, as a person's screen
    /// would report it (the SDK sends at most one `read` a second per timeline).
    private func read(_ messageID: String) {
        guard let context else { return }
        let loop = context.eventLoop
        let bound = NIOLoopBound(self, eventLoop: loop)
        loop.scheduleTask(in: .milliseconds(Int64.random(in: 0..<1_000))) {
            let handler = bound.value
            guard handler.phase == .ready else { return }
            handler.send(#"{"type":"read","conversation":"\#(handler.socket.conversationID)","messageId":"\#(messageID)"}"#)
            let now = BenchClock.monotonicNanos()
            handler.tally.withLock { state in if state.inWindow(now) { state.tally.readsSent += 1 } }
        }
    }

    /// Ends a typing session with a stop.
    func sendStop() {
        send(#"{"type":"activity","conversation":"\#(socket.conversationID)","activity":"none"}"#)
    }

    /// Ends a typing session with a message (the server clears the typing).
    func sendMessage() {
        messagesSent += 1
        send(
            #"{"type":"send","conversation":"\#(socket.conversationID)","clientMessageId":"b\#(socket.index)-\#(messagesSent)","text":"bench message \#(messagesSent)"}"#
        )
    }

    /// Closes the socket with 1000; closing is not an error.
    func close() {
        guard let context, phase != .closing else { return }
        phase = .closing
        var payload = context.channel.allocator.buffer(capacity: 2)
        payload.write(webSocketErrorCode: .normalClosure)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload)))
            .whenComplete { _ in channel.close(promise: nil) }
    }

    var isReady: Bool { phase == .ready }

    private func send(_ text: String) {
        guard let context else { return }
        let buffer = context.channel.allocator.buffer(string: text)
        write(WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: buffer))
    }

    private func write(_ frame: WebSocketFrame) {
        context?.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    /// Records an error, unless the socket is closing; fails the connect if it is still under way.
    private func fail(_ note: String) {
        switch phase {
        case .closing:
            return
        case .hello, .subscribing:
            phase = .closing
            ready.fail(BenchError(note))
        case .ready:
            phase = .closing
            tally.error(note)
        }
    }
}

extension BenchSocketHandler {
    /// Gives up on a socket that did not get to `subscribed` in time.
    func timeOut(after seconds: Int64) {
        guard !isReady else { return }
        fail("socket \(socket.userID) was not subscribed within \(seconds) s")
        context?.close(promise: nil)
    }
}

extension BenchSocketHandler {
    /// Drops the connection as a lost network would: no close frame, and not counted as an error.
    func drop() {
        phase = .closing
        context?.close(promise: nil)
    }
}
