import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import TypewireCore

/// One WebSocket, from `hello` to close.
///
/// The first frame must be a valid `hello` within the configured time, or the socket is closed with
/// the policy-violation code (1008). After that, frames go to the hub; frames that cannot be decoded
/// are answered with an `error` frame and the socket stays usable. The hub's replies and fan-out come
/// through the connection's outbox, which a child task drains into the socket.
struct SocketSession {
    /// The largest frame accepted before a valid `hello` (a hello with a long token fits): a larger one
    /// closes the socket (1009) at once.
    static let helloFrameLimit = 8 * 1_024

    /// Frames that are not a valid `hello` answered before the socket is closed (1008).
    static let framesBeforeHello = 5

    let hub: Hub
    let authority: TokenAuthority
    let configuration: ServerConfiguration
    let logger: Logger

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let helloTimeout = configuration.helloTimeout
        let watchdog = Task {
            try await Task.sleep(for: .milliseconds(helloTimeout))
            try await outbound.close(.policyViolation, reason: "no valid hello within \(helloTimeout) ms")
        }
        defer { watchdog.cancel() }
        // Before hello, almost nothing: an unauthenticated peer may not make the server read large frames.
        var messages = InboundMessages(inbound, outbound: outbound, maxSize: Self.helloFrameLimit)
        guard let (identity, expiresAt) = try await hello(from: &messages, outbound: outbound) else { return }
        watchdog.cancel()
        // After it, frames up to `socketFrameLimit`, so that a frame over the configured limit can be answered
        // with `too_large` and the socket kept, rather than torn down by the WebSocket layer.
        messages.maxSize = configuration.socketFrameLimit

        let (queue, continuation) = AsyncStream.makeStream(of: String.self)
        let outbox = Outbox(frames: continuation, byteLimit: configuration.maxQueuedBytes)
        // Finished when the hub closes the socket for a shutdown: the session then waits for the peer's
        // close frame no longer than the close timeout (a peer that does not read never sends one).
        let (closedByHub, hubClosed) = AsyncStream.makeStream(of: Never.self)
        let id: ConnectionID
        do {
            id = try await hub.connect(identity, outbox: outbox) { reason, stopWaiting in
                try? await outbound.close(.goingAway, reason: reason)
                if stopWaiting { hubClosed.finish() }
            }
        } catch {
            try await outbound.write(.text(Self.failure(error.code, error.message)))
            // 1013 (try again later) for the server's own trouble: the client reconnects with backoff.
            try await outbound.close(error.isTemporary ? .unknown(1013) : .policyViolation, reason: error.message)
            return
        }
        let handoff = InboundMessages.Handoff(reader: messages)
        let closeTimeout = configuration.closeTimeout
        // The socket ends when its reader does (the peer closed, answered a close, or flooded), or a
        // close timeout after the hub closed it for a shutdown. The writer and the token's expiry close
        // the socket and leave the reader to see the peer's answer.
        await withTaskGroup(of: SessionPart.self) { group in
            group.addTask {
                var messages = handoff.reader
                var gate = InboundGate(configuration)
                do {
                    while let message = try await messages.next() {
                        guard let reason = await handle(message, from: id, gate: &gate, outbox: outbox) else { continue }
                        try? await outbound.close(.policyViolation, reason: reason)
                        break
                    }
                } catch {
                    logger.debug("socket ended", metadata: ["error": "\(error)"])
                }
                return .reader
            }
            group.addTask {
                for await text in queue {
                    do { try await outbound.write(.text(text)) } catch { break }  // the socket is gone
                    outbox.written(text)
                }
                // The queue ended: the socket closed, or it read too slowly to follow (`Outbox`).
                try? await outbound.close(.goingAway, reason: "the connection ended or read too slowly; reconnect")
                return .other
            }
            group.addTask {
                for await _ in closedByHub {}
                guard !Task.isCancelled else { return .other }
                try? await Task.sleep(for: .milliseconds(closeTimeout))
                return .shutdownWaitOver
            }
            group.addTask {
                // A socket lives no longer than its token: the client reconnects with a fresh one.
                try? await Task.sleep(for: .seconds(max(0, expiresAt.timeIntervalSinceNow)))
                guard !Task.isCancelled else { return .other }
                try? await outbound.write(.text(Self.failure(.unauthorized, "The token expired; connect again with a new token.")))
                try? await outbound.close(.policyViolation, reason: "token expired")
                return .other
            }
            while let ended = await group.next(), ended == .other {}
            group.cancelAll()
        }
        await hub.disconnect(id)
    }

    /// What ended among a session's concurrent parts.
    private enum SessionPart {
        /// The reader: the socket is done.
        case reader
        /// The wait for the peer's answer after a shutdown close.
        case shutdownWaitOver
        /// The writer, the token's expiry or a cancelled wait: the reader goes on.
        case other
    }

    /// Handles one message of an authenticated socket: frames within their budgets (`InboundGate`) go to
    /// the hub; the rest is dropped here, before the hub.
    /// - Returns: Why to close the socket (it keeps flooding), or nil to read on.
    private func handle(
        _ message: InboundMessages.Message, from id: ConnectionID, gate: inout InboundGate, outbox: Outbox
    ) async -> String? {
        let refusal: Refusal
        switch Self.decode(message, maxFrameSize: configuration.maxFrameSize) {
        case .success(let frame):
            let decision = gate.admit(frame, now: hub.now())
            guard decision != .pass else {
                await hub.handle(frame, from: id)
                return nil
            }
            hub.metrics.received(frame.type)
            hub.metrics.droppedByRateLimit.increment()
            switch decision {
            case .pass: break
            case .refuse(let failure): answer(failure, on: outbox)
            case .drop(let notify): if notify { answer(dropNotice(frame), on: outbox) }
            case .close(let reason): return reason
            }
            return nil
        case .failure(let failure):
            refusal = failure
        }
        hub.metrics.received(refusal.frameType ?? "invalid")
        switch gate.admitBadFrame(now: hub.now()) {
        case .pass: answer(refusal.answer, on: outbox)
        case .drop, .refuse: hub.metrics.droppedByRateLimit.increment()
        case .close(let reason): return reason
        }
        return nil
    }

    /// Reads frames until a valid `hello`; anything else before it is answered with an error, a few times
    /// (``framesBeforeHello``), then the socket is closed.
    private func hello(
        from messages: inout InboundMessages, outbound: WebSocketOutboundWriter
    ) async throws -> (Identity, Date)? {
        var refused = 0
        while let message = try await messages.next() {
            guard case .text(let text) = message, case .hello(let hello)? = try? FrameCodec.decodeClientFrame(Data(text.utf8)) else {
                try await outbound.write(.text(Self.failure(.unauthorized, "Send {\"type\":\"hello\",\"token\":\"…\"} first.")))
                refused += 1
                guard refused < Self.framesBeforeHello else {
                    try await outbound.close(.policyViolation, reason: "no valid hello in \(refused) frames")
                    return nil
                }
                continue
            }
            guard let verified = await authority.verifyWithExpiry(hello.token) else {
                try await outbound.write(.text(Self.failure(.unauthorized, "The token is invalid or expired.")))
                try await outbound.close(.policyViolation, reason: "invalid token")
                return nil
            }
            return verified
        }
        return nil
    }

    /// A frame that cannot be handled, and the error that answers it.
    private struct Refusal: Error {
        var answer: ServerFrame.Failure
        var frameType: String?
    }

    /// Decodes one message; frames over the configured size, binary frames and text that is not UTF-8 are refused.
    private static func decode(_ message: InboundMessages.Message, maxFrameSize: Int) -> Result<ClientFrame, Refusal> {
        guard case .text(let text) = message else {  // binary, or text that is not UTF-8
            let error = FrameDecodingError.notJSON
            return .failure(Refusal(answer: .init(code: error.code, message: error.description), frameType: nil))
        }
        guard text.utf8.count <= maxFrameSize else {
            let message = "The frame has \(text.utf8.count) bytes; the limit is \(maxFrameSize)."
            return .failure(Refusal(answer: .init(code: .tooLarge, message: message), frameType: nil))
        }
        do throws(FrameDecodingError) {
            return .success(try FrameCodec.decodeClientFrame(Data(text.utf8)))
        } catch {
            let ref = error.frameType.map { String($0.prefix(64)) }
            return .failure(Refusal(
                answer: .init(code: error.code, message: error.description, ref: ref, request: ref), frameType: error.frameType
            ))
        }
    }

    /// Queues an error frame on this socket, beside the hub's frames.
    private func answer(_ failure: ServerFrame.Failure, on outbox: Outbox) {
        outbox.enqueue(Hub.encode(.error(failure)))
        hub.metrics.sent("error")
    }

    /// Tells the client that frames are dropped (at most once a second): activity past its own budget, or
    /// any frame past the socket's frame budget.
    private func dropNotice(_ frame: ClientFrame) -> ServerFrame.Failure {
        if case .activity(let request) = frame, request.activity.isActive {
            return .init(
                code: .rateLimited,
                message: "More than \(Int(configuration.activityRate)) activity frames a second, or \(Int(configuration.frameRate)) frames in all: the excess is dropped. A composer needs one every \(configuration.refreshInterval) ms.",
                ref: "activity", request: "activity"
            )
        }
        return .init(
            code: .rateLimited,
            message: "More than \(Int(configuration.frameRate)) frames a second: the excess is dropped, this '\(frame.type)' among them.",
            ref: frame.type, request: frame.type
        )
    }

    private static func failure(_ code: ErrorCode, _ message: String) -> String {
        String(decoding: FrameCodec.encode(ServerFrame.error(.init(code: code, message: message, ref: "hello", request: "hello"))), as: UTF8.self)
    }
}

