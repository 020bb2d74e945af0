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
    /// The largest frame the WebSocket layer accepts; past it the socket is closed (1009).
    static let hardFrameLimit = 1 << 20

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
        // The socket accepts frames up to `hardFrameLimit`, so that a frame over the configured limit can be
        // answered with `too_large` and the socket kept, rather than torn down by the WebSocket layer.
        var messages = InboundMessages(inbound, outbound: outbound, maxSize: Self.hardFrameLimit)
        guard let (identity, expiresAt) = try await hello(from: &messages, outbound: outbound) else { return }
        watchdog.cancel()

        let (outbox, continuation) = AsyncStream.makeStream(
            of: String.self, bufferingPolicy: .bufferingOldest(configuration.maxQueuedFrames)
        )
        guard let id = await hub.connect(identity, outbox: continuation, close: { reason in
            try? await outbound.close(.goingAway, reason: reason)
        }) else {
            let limit = configuration.maxSocketsPerUser
            try await outbound.write(.text(Self.failure(.forbidden, "This user already has \(limit) open sockets; close one first.")))
            try await outbound.close(.policyViolation, reason: "too many sockets for this user")
            return
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in outbox {
                    do { try await outbound.write(.text(text)) } catch { break }  // the socket is gone
                }
                // The hub ended the queue: the socket closed, or it read too slowly to follow (a full queue).
                try? await outbound.close(.goingAway, reason: "the connection ended or read too slowly; reconnect")
            }
            group.addTask {
                // A socket lives no longer than its token: the client reconnects with a fresh one.
                try? await Task.sleep(for: .seconds(max(0, expiresAt.timeIntervalSinceNow)))
                guard !Task.isCancelled else { return }
                try? await outbound.write(.text(Self.failure(.unauthorized, "The token expired; connect again with a new token.")))
                try? await outbound.close(.policyViolation, reason: "token expired")
            }
            do {
                reading: while let message = try await messages.next() {
                    guard case .text(let text) = message else {  // binary, or text that is not UTF-8
                        if case .close(let reason) = await hub.reject(.notJSON, from: id) {
                            try? await outbound.close(.policyViolation, reason: reason)
                            break reading
                        }
                        continue
                    }
                    guard text.utf8.count <= configuration.maxFrameSize else {
                        await hub.refuseOversized(bytes: text.utf8.count, from: id)
                        continue
                    }
                    do throws(FrameDecodingError) {
                        let frame = try FrameCodec.decodeClientFrame(Data(text.utf8))
                        if case .close(let reason) = await hub.handle(frame, from: id) {
                            try? await outbound.close(.policyViolation, reason: reason)
                            break reading
                        }
                    } catch {
                        if case .close(let reason) = await hub.reject(error, from: id) {
                            try? await outbound.close(.policyViolation, reason: reason)
                            break reading
                        }
                    }
                }
            } catch {
                logger.debug("socket ended", metadata: ["error": "\(error)"])
            }
            await hub.disconnect(id)
            group.cancelAll()
        }
    }

    /// Reads frames until a valid `hello`; anything else before it is answered with an error.
    private func hello(
        from messages: inout InboundMessages, outbound: WebSocketOutboundWriter
    ) async throws -> (Identity, Date)? {
        while let message = try await messages.next() {
            guard case .text(let text) = message, case .hello(let hello)? = try? FrameCodec.decodeClientFrame(Data(text.utf8)) else {
                try await outbound.write(.text(Self.failure(.unauthorized, "Send {\"type\":\"hello\",\"token\":\"…\"} first.")))
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

    private static func failure(_ code: ErrorCode, _ message: String) -> String {
        String(decoding: FrameCodec.encode(ServerFrame.error(.init(code: code, message: message, ref: "hello"))), as: UTF8.self)
    }
}
