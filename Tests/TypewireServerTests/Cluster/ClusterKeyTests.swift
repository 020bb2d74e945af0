import Crypto
import Foundation
import Testing

@testable import TypewireServer

/// The cluster's keyed hash makes swift-crypto's HMAC-SHA256 codes, so nodes of builds before it and after
/// it verify each other's messages.
@Suite("Cluster key: HMAC-SHA256 with its pads hashed once")
struct ClusterKeyTests {
    /// Bytes that differ from one index to the next.
    func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    @Test(arguments: [0, 1, 31, 32, 33, 63, 64])
    func itsCodesAreHMACSHA256s(keyLength: Int) {
        let key = SymmetricKey(data: bytes(keyLength, seed: 7))
        let clusterKey = ClusterKey(key)
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 200, 1_000] {
            let message = bytes(length, seed: UInt8(truncatingIfNeeded: length))
            let split = length / 3
            let code = clusterKey.authenticationCode { hash in
                message[..<split].withUnsafeBytes { hash.update(bufferPointer: $0) }
                message[split...].withUnsafeBytes { hash.update(bufferPointer: $0) }
            }
            let expected = HMAC<SHA256>.authenticationCode(for: message, using: key)
            #expect(Array(code) == Array(expected), "key of \(keyLength) bytes, message of \(length)")
        }
    }

    @Test func aCodeIsValidOnlyWhole() {
        let key = ClusterKey(SymmetricKey(data: bytes(32, seed: 1)))
        let message = bytes(100, seed: 2)
        let write: (inout SHA256) -> Void = { hash in message.withUnsafeBytes { hash.update(bufferPointer: $0) } }
        let code = Array(key.authenticationCode(write))
        #expect(key.isValid(code, for: write))
        for index in [0, 17, 31] {
            var altered = code
            altered[index] ^= 0x01
            #expect(!key.isValid(altered, for: write), "byte \(index) altered")
        }
        #expect(!key.isValid(code.dropLast(), for: write), "a code one byte short")
        #expect(!key.isValid(code + [0], for: write), "a code one byte long")
        #expect(!key.isValid([UInt8](), for: write))
        let otherKey = ClusterKey(SymmetricKey(data: bytes(32, seed: 3)))
        #expect(!otherKey.isValid(code, for: write), "another key")
    }
}
