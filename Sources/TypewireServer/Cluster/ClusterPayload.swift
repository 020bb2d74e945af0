import Crypto
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// What one node puts on the cluster bus, sealed, and what it accepts from it: `NODE SEALED`, where
/// `SEALED` is
///
/// ```
/// version (1 byte, 3) · counter (8, big-endian) · time (8, ms since 1970) · ChaCha20-Poly1305 ciphertext · tag (16)
/// ```
///
/// in raw bytes on NATS and in base64 on the NOTIFY channel (a notification is text). The plaintext is a body
/// of ``ClusterBatchCodec`` (one event on NOTIFY, as many as fit on NATS).
///
/// The bus is not a trusted channel (docs/CLUSTER.md, "What the bus is trusted with"): any role that can
/// connect to the database can LISTEN and NOTIFY, and anyone on the NATS network can subscribe and publish.
/// So the text crosses sealed (message text, names and typing are unreadable there), and what a node accepts
/// is authenticated, fresh and new:
///
/// - The key is each sending node's own, derived with HKDF-SHA256 from the cluster secret and the node's id
///   (a random id per process), and the nonce is the node's counter: no nonce is ever used twice with a key.
/// - The authenticated data binds the node, the subject (the NOTIFY channel, or the NATS subject it was
///   published on) and the header: a payload moved to another subject, or with its counter or time changed,
///   does not open.
/// - A receiver accepts each counter once and only within a window of its clock (``ClusterReplayWindow``):
///   a recorded payload replayed later is refused.
struct ClusterPayload: Sendable {
    /// The largest NOTIFY payload sent, in bytes (NOTIFY's limit is 8 000).
    static let limit = 7_900
    /// How far a payload's time may be from the receiver's clock: the nodes' clocks must agree within it.
    static let defaultWindow: Duration = .seconds(30)

    private static let version: UInt8 = 3
    /// Version, counter, time.
    private static let headerSize = 17
    private static let tagSize = 16

    /// This node's id, whose key seals what it sends.
    let node: String
    private let secret: SymmetricKey
    private let ownKey: SymmetricKey
    private let counter = NIOLockedValueBox<UInt64>(0)
    private let replays: NIOLockedValueBox<ClusterReplayWindow>
    /// The keys of the nodes heard from, derived once (only after a payload opened with one).
    private let keys = NIOLockedValueBox<[String: SymmetricKey]>([:])
    private let now: @Sendable () -> Int64
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    /// A codec whose keys derive from the nodes' shared cluster secret.
    /// - Parameters:
    ///   - secret: The cluster's secret (every node's the same).
    ///   - node: This node's id.
    ///   - window: How far from this node's clock a payload's time may be.
    ///   - now: The clock, in milliseconds since 1970.
    init(
        secret: String, node: String, window: Duration = defaultWindow,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000) }
    ) {
        self.secret = SymmetricKey(data: Data(secret.utf8))
        self.node = node
        ownKey = Self.key(of: node, secret: self.secret)
        replays = NIOLockedValueBox(ClusterReplayWindow(window: window.wholeMilliseconds))
        self.now = now
    }

    /// Why an event was not sent.
    enum Refusal: Error {
        /// Over ``ClusterPayload/limit`` bytes even by reference (a part of a streamed reply: the stored
        /// reply carries it).
        case tooLarge(bytes: Int)
    }

    /// What became of a payload heard on the bus.
    enum Opened {
        case accepted(node: String, events: [ClusterEvent])
        /// It did not open under the cluster's key (forged, altered, moved to another subject, another
        /// cluster's), or its body did not read whole.
        case refused
        /// It opened, but is stale or was accepted before.
        case replayed
    }

    // MARK: NOTIFY

    /// The sealed payload of one event for the NOTIFY channel; a message too large for it is sent by reference.
    func encode(_ event: ClusterEvent, subject: String) throws -> String {
        let payload = try notification(of: event, subject: subject)
        guard payload.utf8.count > Self.limit else { return payload }
        guard case .message(let message) = event else { throw Refusal.tooLarge(bytes: payload.utf8.count) }
        let reference = try notification(of: .messageRef(conversation: message.conversation, id: message.id), subject: subject)
        guard reference.utf8.count <= Self.limit else { throw Refusal.tooLarge(bytes: reference.utf8.count) }
        return reference
    }

    /// Opens a notification heard on `subject` (the NOTIFY channel).
    func decode(_ payload: String, subject: String) -> Opened {
        guard let blank = payload.firstIndex(of: " "), let sealed = Data(base64Encoded: String(payload[payload.index(after: blank)...]))
        else { return .refused }
        return open(node: String(payload[..<blank]), sealed: ByteBuffer(bytes: sealed), subject: subject)
    }

    /// The node id the payload claims, read without verifying anything: a node skips its own
    /// notifications before any other work.
    static func node(of payload: String) -> Substring? {
        payload.firstIndex(of: " ").map { payload[..<$0] }
    }

    private func notification(of event: ClusterEvent, subject: String) throws -> String {
        var body = ByteBuffer()
        body.writeInteger(ClusterBatchCodec.format)
        try ClusterBatchCodec.write(event, into: &body, encoder: encoder)
        let sealed = seal(body, subject: subject).readableBytesView.dropFirst(node.utf8.count + 1)  // after `NODE `
        return "\(node) \(Data(sealed).base64EncodedString())"
    }

    // MARK: Batches (the NATS bus)

    /// Several events as sealed payloads of at most `limit` bytes each, in order, as many events in each as
    /// fit, for `subject`.
    /// - Returns: The payloads, and how many events were left out because even alone they pass the limit.
    func encodeBatch(_ events: [ClusterEvent], subject: String, limit: Int) -> (payloads: [ByteBuffer], tooLarge: Int) {
        let overhead = node.utf8.count + 1 + Self.headerSize + Self.tagSize + 1  // the node, its blank, the seal, the format byte
        var payloads: [ByteBuffer] = []
        var tooLarge = 0
        var body = ByteBuffer()
        var event = ByteBuffer()
        func close() {
            payloads.append(seal(body, subject: subject))
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

    /// Opens a NATS message's payload heard on `subject`.
    func decodeBatch(_ payload: ByteBuffer, subject: String) -> Opened {
        let bytes = payload.readableBytesView
        guard let blank = bytes.firstIndex(of: UInt8(ascii: " ")),
            let node = payload.getString(at: payload.readerIndex, length: blank - bytes.startIndex),
            let sealed = payload.getSlice(at: blank + 1, length: bytes.endIndex - blank - 1)
        else { return .refused }
        return open(node: node, sealed: sealed, subject: subject)
    }

    // MARK: Sealing

    /// `NODE SEALED` in bytes: the next counter, this node's time, the body sealed under this node's key.
    private func seal(_ body: ByteBuffer, subject: String) -> ByteBuffer {
        let number = counter.withLockedValue { counter -> UInt64 in
            counter += 1
            return counter
        }
        var header = ByteBuffer()
        header.writeInteger(Self.version)
        header.writeInteger(number)
        header.writeInteger(now())
        let box = try! ChaChaPoly.seal(  // only a key or nonce of the wrong size throws
            Data(body.readableBytesView), using: ownKey, nonce: Self.nonce(number),
            authenticating: Self.authenticated(node: node, subject: subject, header: header))
        var payload = ByteBuffer()
        payload.reserveCapacity(node.utf8.count + 1 + Self.headerSize + box.ciphertext.count + Self.tagSize)
        payload.writeString(node)
        payload.writeString(" ")
        payload.writeImmutableBuffer(header)
        payload.writeBytes(box.ciphertext)
        payload.writeBytes(box.tag)
        return payload
    }

    private func open(node: String, sealed: ByteBuffer, subject: String) -> Opened {
        var sealed = sealed
        guard sealed.readableBytes >= Self.headerSize + Self.tagSize, let header = sealed.readSlice(length: Self.headerSize),
            header.getInteger(at: header.readerIndex, as: UInt8.self) == Self.version,
            let number = header.getInteger(at: header.readerIndex + 1, as: UInt64.self),
            let sentAt = header.getInteger(at: header.readerIndex + 9, as: Int64.self),
            let ciphertext = sealed.readBytes(length: sealed.readableBytes - Self.tagSize),
            let tag = sealed.readBytes(length: Self.tagSize),
            let box = try? ChaChaPoly.SealedBox(nonce: Self.nonce(number), ciphertext: ciphertext, tag: tag)
        else { return .refused }
        let known = keys.withLockedValue { $0[node] }
        let key = known ?? Self.key(of: node, secret: secret)
        guard
            let plain = try? ChaChaPoly.open(
                box, using: key, authenticating: Self.authenticated(node: node, subject: subject, header: header)),
            let events = try? ClusterBatchCodec.read(ByteBuffer(bytes: plain), decoder: decoder)
        else { return .refused }
        if known == nil {
            keys.withLockedValue { keys in
                if keys.count >= 1_024 { keys.removeAll() }  // ids change at every restart; only opened ones get here
                keys[node] = key
            }
        }
        let verdict = replays.withLockedValue { $0.admit(node: node, counter: number, sentAt: sentAt, now: now()) }
        return verdict == .accepted ? .accepted(node: node, events: events) : .replayed
    }

    private static func key(of node: String, secret: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: secret, info: Data("typewire cluster bus v3 node \(node)".utf8), outputByteCount: 32)
    }

    /// Four zero bytes and the counter: unique per key, since each node's key is its own.
    private static func nonce(_ counter: UInt64) -> ChaChaPoly.Nonce {
        var bytes = [UInt8](repeating: 0, count: 12)
        withUnsafeBytes(of: counter.bigEndian) { for (index, byte) in $0.enumerated() { bytes[4 + index] = byte } }
        return try! ChaChaPoly.Nonce(data: bytes)  // twelve bytes is a nonce's size
    }

    /// The node, the subject and the header, each after its length.
    private static func authenticated(node: String, subject: String, header: ByteBuffer) -> Data {
        var data = Data()
        for part in [Data(node.utf8), Data(subject.utf8), Data(header.readableBytesView)] {
            withUnsafeBytes(of: UInt32(part.count).bigEndian) { data.append(contentsOf: $0) }
            data.append(part)
        }
        return data
    }
}
