import Crypto

/// HMAC-SHA256 (RFC 2104) with one key, its two padded blocks hashed once: each code then costs the
/// message's blocks and two more, and no more setup.
///
/// swift-crypto's `HMAC<SHA256>(key:)` pads and hashes the key for every code, through its generic
/// `HashFunction` code; a node signs or checks one code per cluster message (a batch of one conversation),
/// and at 14 000 messages a second that setup cost more than a tenth of the receiving node's CPU. The codes
/// are the same bytes `HMAC<SHA256>` makes with the key (a test holds them to it), so nodes of either build
/// understand each other. No package here offers a keyed hash whose pads are kept, so it is written here.
struct ClusterKey: Sendable {
    /// SHA-256 after the key's inner block (`key ⊕ 0x36`, padded to 64 bytes).
    private let inner: SHA256
    /// SHA-256 after the key's outer block (`key ⊕ 0x5c`).
    private let outer: SHA256

    /// A key of at most 64 bytes (SHA-256's block), as the cluster's derived key of 32 is.
    init(_ key: SymmetricKey) {
        precondition(key.bitCount <= SHA256.blockByteCount * 8, "a cluster key is at most one SHA-256 block")
        var block = [UInt8](repeating: 0, count: SHA256.blockByteCount)
        key.withUnsafeBytes { bytes in
            for index in bytes.indices { block[index] = bytes[index] }
        }
        var inner = SHA256()
        var outer = SHA256()
        block.withUnsafeBytes { padded in
            var pad = [UInt8](padded)
            for index in pad.indices { pad[index] ^= 0x36 }
            pad.withUnsafeBytes { inner.update(bufferPointer: $0) }
            for index in pad.indices { pad[index] ^= 0x36 ^ 0x5c }
            pad.withUnsafeBytes { outer.update(bufferPointer: $0) }
        }
        self.inner = inner
        self.outer = outer
    }

    /// The code over the concatenation of `parts`, in order, each given as its bytes.
    func authenticationCode(_ parts: (inout SHA256) -> Void) -> SHA256Digest {
        var message = inner
        parts(&message)
        let innerDigest = message.finalize()
        var code = outer
        innerDigest.withUnsafeBytes { code.update(bufferPointer: $0) }
        return code.finalize()
    }

    /// Whether `code` is the code of the message `parts` write, compared in time that does not depend on
    /// where they differ.
    func isValid(_ code: some Collection<UInt8>, for parts: (inout SHA256) -> Void) -> Bool {
        let expected = authenticationCode(parts)
        guard code.count == SHA256.byteCount else { return false }
        var difference: UInt8 = 0
        expected.withUnsafeBytes { bytes in
            for (byte, other) in zip(bytes, code) { difference |= byte ^ other }
        }
        return difference == 0
    }
}
