import Crypto
import Foundation

/// The key the app's backend calls the server API with, compared in constant time: both sides are
/// hashed with SHA-256 and the digests compared with swift-crypto's constant-time equality, so neither
/// the key's length nor its first differing byte shows in the time an answer takes.
struct APIKey: Sendable {
    private let digest: SHA256.Digest

    /// The shortest key accepted, in bytes.
    static let minimumLength = 32

    /// - Parameter name: What the key is called in an error (`--api-key`, `--metrics-key`).
    /// - Throws: ``APIKeyError`` if the key is shorter than ``minimumLength`` bytes.
    init(_ key: String, name: String = "--api-key") throws(APIKeyError) {
        guard key.utf8.count >= Self.minimumLength else { throw APIKeyError(name: name, length: key.utf8.count) }
        digest = SHA256.hash(data: Data(key.utf8))
    }

    /// Whether an `Authorization` header carries this key as a bearer token.
    func authorizes(_ header: String?) -> Bool {
        guard let header, header.hasPrefix("Bearer ") else { return false }
        return SHA256.hash(data: Data(header.utf8.dropFirst("Bearer ".utf8.count))) == digest
    }
}

/// Why an API key was refused.
public struct APIKeyError: Error, CustomStringConvertible {
    let name: String
    let length: Int
    public var description: String {
        "The key of \(name) has \(length) bytes; it needs at least \(APIKey.minimumLength). Use a long random key, e.g. `openssl rand -hex 32`."
    }
}
