import Crypto
import Foundation
import NIOCore

/// The text of one cluster event on the NOTIFY channel, signed: `NODE SIGNATURE JSON`.
///
/// Anyone who can connect to the database can `NOTIFY` on the channel; a node applies only events
/// signed with the cluster's key (HMAC-SHA256 over `NODE JSON`, keyed by a key derived from the JWT
/// secret that every node of a cluster shares, so no other setting is needed). Unsigned, forged or
/// malformed payloads are dropped.
///
/// NOTIFY refuses payloads of 8 000 bytes or more, and an event's size is known only once encoded (a
/// message of quotes, newlines or non-ASCII text grows when escaped): a message whose payload is over
/// ``limit`` goes by reference (``ClusterEvent/messageRef(conversation:id:)``), read from the shared
/// store by the other nodes.
struct ClusterPayload: Sendable {
    /// The largest payload sent, in bytes (NOTIFY's limit is 8 000).
    static let limit = 7_900

    private let key: ClusterKey
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    /// A codec whose key derives from the nodes' shared JWT secret.
    init(secret: String) {
        key = ClusterKey(
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: Data(secret.utf8)), info: Data("typewire cluster bus v1".utf8), outputByteCount: 32
            ))
    }

    /// Why an event was not sent.
    enum Refusal: Error {
        /// Over ``ClusterPayload/limit`` bytes even by reference (a part of a streamed reply: the stored
        /// reply carries it).
        case tooLarge(bytes: Int)
    }

    /// The signed payload of an envelope; a message too large for the bus is sent by reference.
    func encode(_ envelope: ClusterEnvelope) throws -> String {
        let payload = try sign(envelope)
        guard payload.utf8.count > Self.limit else { return payload }
        guard case .message(let message) = envelope.event else { throw Refusal.tooLarge(bytes: payload.utf8.count) }
        let reference = try sign(
            ClusterEnvelope(node: envelope.node, event: .messageRef(conversation: message.conversation, id: message.id)))
        guard reference.utf8.count <= Self.limit else { throw Refusal.tooLarge(bytes: reference.utf8.count) }
        return reference
    }

    /// The envelope of a payload, if it is well formed and signed with the cluster's key.
    func decode(_ payload: String) -> ClusterEnvelope? {
        let parts = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Data(base64Encoded: String(parts[1])) else { return nil }
        var signed = "\(parts[0]) \(parts[2])"
        guard key.isValid(signature, for: { hash in signed.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) } }),
            let event = try? decoder.decode(ClusterEvent.self, from: Data(parts[2].utf8))
        else { return nil }
        return ClusterEnvelope(node: String(parts[0]), event: event)
    }

    /// The node id the payload claims, read without verifying anything: a node skips its own
    /// notifications before any other work.
    static func node(of payload: String) -> Substring? {
        payload.firstIndex(of: " ").map { payload[..<$0] }
    }

    // MARK: Batches (the NATS bus)

    /// Several events of one node as signed payloads of at most `limit` bytes each, in order, as many events
    /// in each as fit: `NODE SIGNATURE BODY`, the body binary (``ClusterBatchCodec``) and the signature
    /// HMAC-SHA256 over `NODE BODY`, in base64.
    /// - Returns: The payloads, and how many events were left out because even alone they pass the limit.
    func encodeBatch(_ events: [ClusterEvent], from node: String, limit: Int) -> (payloads: [ByteBuffer], tooLarge: Int) {
        let overhead = node.utf8.count + 1 + 44 + 1 + 1  // the node, its blank, the signature, its blank, the format byte
        var payloads: [ByteBuffer] = []
        var tooLarge = 0
        var body = ByteBuffer()
        var event = ByteBuffer()
        func close() {
            payloads.append(signed(body, by: node))
            body.clear()
        }
        for next in events {
            event.clear()
            guard (try? ClusterBatchCodec.write(next, into: &event, encoder: encoder)) != nil, event.readableBytes + overhead <= limit
            else {
                tooLarge += 1
                continue
            }
            if body.readableBytes > 0, body.readableBytes + event.readableBytes + overhead > limit { close() }
            if body.readableBytes == 0 { body.writeInteger(ClusterBatchCodec.format) }
            body.writeImmutableBuffer(event)
        }
        if body.readableBytes > 0 { close() }
        return (payloads, tooLarge)
    }

    /// The node and events of a batch's payload, if it is well formed and signed with the cluster's key.
    func decodeBatch(_ payload: ByteBuffer) -> (node: String, events: [ClusterEvent])? {
        let bytes = payload.readableBytesView
        guard let first = bytes.firstIndex(of: UInt8(ascii: " ")),
            let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: " ")),
            let signature = Data(base64Encoded: Data(bytes[(first + 1)..<second])),
            let node = payload.getString(at: payload.readerIndex, length: first - bytes.startIndex),
            let body = payload.getSlice(at: second + 1, length: bytes.endIndex - second - 1)
        else { return nil }
        guard key.isValid(signature, for: { Self.write(body, by: node, into: &$0) }),
            let events = try? ClusterBatchCodec.read(body, decoder: decoder)
        else { return nil }
        return (node, events)
    }

    /// What a batch's signature covers, `NODE BODY`, hashed without copying the body.
    private static func write(_ body: ByteBuffer, by node: String, into hash: inout SHA256) {
        var node = node
        node.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        withUnsafeBytes(of: UInt8(ascii: " ")) { hash.update(bufferPointer: $0) }
        body.withUnsafeReadableBytes { hash.update(bufferPointer: $0) }
    }

    private func signed(_ body: ByteBuffer, by node: String) -> ByteBuffer {
        let signature = Data(key.authenticationCode { Self.write(body, by: node, into: &$0) }).base64EncodedString()
        var buffer = ByteBuffer()
        buffer.reserveCapacity(node.utf8.count + 46 + body.readableBytes)
        buffer.writeString(node)
        buffer.writeString(" ")
        buffer.writeString(signature)
        buffer.writeString(" ")
        buffer.writeImmutableBuffer(body)
        return buffer
    }

    private func sign(_ envelope: ClusterEnvelope) throws -> String {
        let json = String(decoding: try encoder.encode(envelope.event), as: UTF8.self)
        var signed = "\(envelope.node) \(json)"
        let signature = key.authenticationCode { hash in signed.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) } }
        return "\(envelope.node) \(Data(signature).base64EncodedString()) \(json)"
    }
}
