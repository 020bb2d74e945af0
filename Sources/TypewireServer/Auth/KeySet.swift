import Foundation
import JWTKit
import Logging

/// The public keys of an identity provider (a JSON Web Key Set) that RS256 and ES256 tokens are verified
/// with, read at start and read again when a token names a key the set does not have (a provider
/// rotating its keys), and in the background once the set is older than ``maxAge`` (so a key the provider
/// withdrew stops working).
///
/// A read for an unknown key is made only for a token that could be valid (it names a user, the configured
/// issuer, and has not expired), at most once per ``minimumInterval``, and for each key id at most once per
/// ``refreshInterval``: a key looked for and not found is not looked for again within it. So a stream of
/// tokens naming made-up keys costs one read per ``minimumInterval`` at most, and cannot keep a key the
/// provider publishes a second after such a read from being found for longer than that.
///
/// Keys are looked up by the token's `kid` only: a token without one, or naming a key the set does not
/// have after a refresh, is refused (jwt-kit alone would fall back to the set's first key).
public actor KeySet {
    /// Where the set is read from.
    public nonisolated let source: KeySetSource
    /// How long a key id looked for and not found is not looked for again, in milliseconds.
    public nonisolated let refreshInterval: Int64
    /// The shortest time between two reads caused by unknown keys, in milliseconds.
    public nonisolated let minimumInterval: Int64
    /// The age after which the set is read again in the background, in milliseconds.
    public nonisolated let maxAge: Int64

    private let now: @Sendable () -> Int64
    private let logger: Logger
    private var keys = JWTKeyCollection()
    private var keyIDs: Set<String> = []
    private var loadedAt: Int64?
    private var lastAttempt: Int64?
    private var inFlight: Task<Void, Never>?
    /// Key ids looked for and not found, and when (at most ``maxMissedKeys``, the oldest dropped first).
    private var missedKeys: [String: Int64] = [:]
    private static let maxMissedKeys = 256
    /// How many times the set was read (successfully or not): for tests and logs.
    public private(set) var reads = 0

    /// Creates a key set; ``load()`` reads it.
    /// - Parameters:
    ///   - now: The current time in milliseconds (tests move it by hand).
    public init(
        source: KeySetSource, refreshInterval: Int64 = 60_000, minimumInterval: Int64 = 5_000, maxAge: Int64 = 3_600_000,
        logger: Logger = Logger(label: "typewire.jwks"),
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000) }
    ) {
        self.source = source
        self.refreshInterval = refreshInterval
        self.minimumInterval = min(minimumInterval, refreshInterval)
        self.maxAge = maxAge
        self.logger = logger
        self.now = now
    }

    /// The ids of the keys in the set.
    public var identifiers: Set<String> { keyIDs }

    /// Reads the set now.
    /// - Throws: ``TokenAuthorityError`` if it cannot be read or holds no RS256 or ES256 key.
    public func load() async throws(TokenAuthorityError) {
        lastAttempt = now()
        reads += 1
        let data = try await source.read()
        guard let set = try? JSONDecoder().decode(JWKS.self, from: data) else { throw .keySetNotJSON(source.description) }
        let collection = JWTKeyCollection()
        var added: Set<String> = []
        for key in set.keys {
            guard let id = key.keyIdentifier?.string, [.rsa, .ecdsa].contains(key.keyType),
                (try? await collection.add(jwk: key)) != nil
            else { continue }
            added.insert(id)
        }
        guard !added.isEmpty else { throw .keySetWithoutKeys(source.description) }
        keys = collection
        keyIDs = added
        loadedAt = now()
    }

    /// The claims of a token signed by the key `keyID` of this set.
    /// - Parameter mayReadAgain: Whether the token could be valid, so that an unknown key may cause a read.
    /// - Throws: ``TokenRefusal/unknownKey`` if the set does not have the key even after a refresh, or
    ///   jwt-kit's error if the signature or the time claims are wrong.
    func verify(_ token: String, keyID: String, mayReadAgain: Bool = true) async throws -> TokenClaims {
        if !keyIDs.contains(keyID) {
            if mayReadAgain { await refreshIfDue(lookingFor: keyID) }
        } else {
            refreshInBackgroundIfOld()
        }
        guard keyIDs.contains(keyID) else { throw TokenRefusal.unknownKey }
        return try await keys.verify(token, as: TokenClaims.self)
    }

    /// Reads the set again for a key it does not have, unless that key was looked for within
    /// ``refreshInterval`` or a read started within ``minimumInterval``; waits for a read under way.
    private func refreshIfDue(lookingFor keyID: String) async {
        if let inFlight { return await inFlight.value }
        let time = now()
        if let missed = missedKeys[keyID], time - missed < refreshInterval { return }
        if let lastAttempt, time - lastAttempt < minimumInterval { return }
        let task = Task { await self.reload() }
        inFlight = task
        await task.value
        guard !keyIDs.contains(keyID) else { return }
        missedKeys = missedKeys.filter { now() - $0.value < refreshInterval }
        if missedKeys.count >= Self.maxMissedKeys, let oldest = missedKeys.min(by: { $0.value < $1.value })?.key {
            missedKeys[oldest] = nil
        }
        missedKeys[keyID] = now()
    }

    private func refreshInBackgroundIfOld() {
        guard inFlight == nil, let loadedAt, now() - loadedAt >= maxAge,
            lastAttempt.map({ now() - $0 >= refreshInterval }) ?? true
        else { return }
        inFlight = Task { await self.reload() }
    }

    private func reload() async {
        do {
            try await load()
            logger.info("Read the key set \(source): keys \(keyIDs.sorted().joined(separator: ", ")).")
        } catch {
            logger.warning("Could not read the key set again; the keys read before stay in use: \(error)")
        }
        inFlight = nil
    }
}

/// Why a token was refused before its signature was checked.
enum TokenRefusal: Error {
    /// The token names no key, or one the key set does not have.
    case unknownKey
}
