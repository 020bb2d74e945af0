import Foundation
import JWTKit
import Logging

/// The public keys of an identity provider (a JSON Web Key Set) that RS256 and ES256 tokens are verified
/// with, read at start and read again when a token names a key the set does not have (a provider
/// rotating its keys), at most once per ``refreshInterval``, and in the background once the set is older
/// than ``maxAge`` (so a key the provider withdrew stops working).
///
/// Keys are looked up by the token's `kid` only: a token without one, or naming a key the set does not
/// have after a refresh, is refused (jwt-kit alone would fall back to the set's first key).
public actor KeySet {
    /// Where the set is read from.
    public nonisolated let source: KeySetSource
    /// The shortest time between two reads caused by unknown keys, in milliseconds.
    public nonisolated let refreshInterval: Int64
    /// The age after which the set is read again in the background, in milliseconds.
    public nonisolated let maxAge: Int64

    private let now: @Sendable () -> Int64
    private let logger: Logger
    private var keys = JWTKeyCollection()
    private var keyIDs: Set<String> = []
    private var loadedAt: Int64?
    private var lastAttempt: Int64?
    private var inFlight: Task<Void, Never>?
    /// How many times the set was read (successfully or not): for tests and logs.
    public private(set) var reads = 0

    /// Creates a key set; ``load()`` reads it.
    /// - Parameters:
    ///   - now: The current time in milliseconds (tests move it by hand).
    public init(
        source: KeySetSource, refreshInterval: Int64 = 60_000, maxAge: Int64 = 3_600_000,
        logger: Logger = Logger(label: "typewire.jwks"),
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000) }
    ) {
        self.source = source
        self.refreshInterval = refreshInterval
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
                  (try? await collection.add(jwk: key)) != nil else { continue }
            added.insert(id)
        }
        guard !added.isEmpty else { throw .keySetWithoutKeys(source.description) }
        keys = collection
        keyIDs = added
        loadedAt = now()
    }

    /// The claims of a token signed by the key `keyID` of this set.
    /// - Throws: ``TokenRefusal/unknownKey`` if the set does not have the key even after a refresh, or
    ///   jwt-kit's error if the signature or the time claims are wrong.
    func verify(_ token: String, keyID: String) async throws -> TokenClaims {
        if !keyIDs.contains(keyID) { await refreshIfDue() } else { refreshInBackgroundIfOld() }
        guard keyIDs.contains(keyID) else { throw TokenRefusal.unknownKey }
        return try await keys.verify(token, as: TokenClaims.self)
    }

    /// Reads the set again unless a read started within ``refreshInterval``; waits for a read under way.
    private func refreshIfDue() async {
        if let inFlight { return await inFlight.value }
        if let lastAttempt, now() - lastAttempt < refreshInterval { return }
        let task = Task { await self.reload() }
        inFlight = task
        await task.value
    }

    private func refreshInBackgroundIfOld() {
        guard inFlight == nil, let loadedAt, now() - loadedAt >= maxAge,
              lastAttempt.map({ now() - $0 >= refreshInterval }) ?? true else { return }
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
