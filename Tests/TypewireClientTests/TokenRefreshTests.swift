import Foundation
import NIOConcurrencyHelpers
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireClient

/// The client hands its live socket a fresh token ahead of the old one's expiry: no reconnect, and nobody
/// sees the user go offline.
@Suite("Token refresh", .timeLimit(.minutes(1)))
struct TokenRefreshTests: ClientTesting {
    @Test func theExpiryIsReadFromTheTokenWithoutItsSignature() async throws {
        try await TestServer.run { server in
            let token = try await server.token("alice", lifetime: .seconds(3_600))
            let expiry = try #require(TokenRefresh.expiry(of: token))
            #expect(abs(expiry.timeIntervalSinceNow - 3_600) < 5)
        }
        #expect(TokenRefresh.expiry(of: "not-a-token") == nil)
        #expect(TokenRefresh.expiry(of: "a.e30.b") == nil, "a JWT without exp")
    }

    @Test func aTokenIsRefreshedAQuarterOfItsLifeAheadAtMostFiveMinutesLessJitter() {
        var random = SplitMix64(seed: 7)
        let now = Date(timeIntervalSince1970: 1_000_000)
        for _ in 0..<100 {
            let hour = TokenRefresh.time(expiry: now + 3_600, now: now, using: &random)!.timeIntervalSince(now)
            #expect((3_270...3_300).contains(hour), "\(hour)")
            let short = TokenRefresh.time(expiry: now + 4, now: now, using: &random)!.timeIntervalSince(now)
            #expect((2.6...3).contains(short), "\(short)")
        }
        #expect(TokenRefresh.time(expiry: now + 2, now: now, using: &random) == nil, "too late: reconnect instead")
    }

    /// The wait runs on the server's clock: a device 10 minutes slow or fast still refreshes ahead of the
    /// expiry the server will hold it to (before: the device's clock, so a slow device refreshed after it).
    @Test func aTokenThatClaimsToLiveForAgesIsRefreshedWithinAYearWithoutTrapping() throws {
        var random = SplitMix64(seed: 3)
        let serverNow = Date(timeIntervalSince1970: 2_000_000)
        for ahead in [1e16, 1e300] {
            // Before the clamp, the wait's `Int64(_:)` trapped past 2^63 milliseconds.
            let wait = try #require(TokenRefresh.wait(expiry: serverNow + ahead, serverNow: serverNow, retry: false, using: &random))
            #expect(wait == .seconds(365 * 86_400), "\(ahead) s ahead")
        }
    }

    @Test func theRefreshIsTimedOnTheServersClockWhateverTheDevicesSays() throws {
        var random = SplitMix64(seed: 9)
        let serverNow = Date(timeIntervalSince1970: 2_000_000)
        let expiry = serverNow + 3_600
        for skew in [-600.0, 0, 600] {
            let deviceNow = serverNow + skew
            let wait = try #require(TokenRefresh.wait(expiry: expiry, serverNow: deviceNow - skew, retry: false, using: &random))
            let refreshAt = serverNow + Double(wait.components.seconds)
            #expect(refreshAt < expiry - 200 && refreshAt > expiry - 400, "device \(skew) s off: refreshed at \(refreshAt)")
        }
        // Timed on a device 10 minutes slow without the correction, the refresh would come after the expiry.
        let uncorrected = try #require(TokenRefresh.wait(expiry: expiry, serverNow: serverNow - 600, retry: false, using: &random))
        #expect(serverNow + Double(uncorrected.components.seconds) > expiry)
        let again = try #require(TokenRefresh.wait(expiry: expiry, serverNow: serverNow, retry: true, using: &random))
        #expect(again == .seconds(900), "a quarter of what is left")
    }

    @Test func shortLivedTokensAreRefreshedOnTheLiveSocketAndNobodySeesTheUserGoOffline() async throws {
        try await TestServer.run { server in
            let tokens = NIOLockedValueBox(0)
            let alice = TypewireClient(url: server.socketURL, configuration: Self.quickBackoff) {
                tokens.withLockedValue { $0 += 1 }
                // 12 s: a refresh goes out 3 s (a quarter of the life) ahead of the expiry, a liveness bound
                // for the refresh's round trip on a loaded machine (with 8 s tokens, 2 s fell short once).
                return try await server.token("alice", lifetime: .seconds(12))
            }
            let states = NIOLockedValueBox<[ConnectionState]>([])
            let observing = Task { for await state in await alice.states() { states.withLockedValue { $0.append(state) } } }
            defer { observing.cancel() }
            try await withClients(["bob"], of: server) { clients in
                let bobChat = try await openChat(clients[0])
                let offline = NIOLockedValueBox(0)
                let watching = Task {
                    for await presence in bobChat.presence where presence.user == "alice" && !presence.online {
                        offline.withLockedValue { $0 += 1 }
                    }
                }
                defer { watching.cancel() }
                let connection = Task { try await alice.run() }
                defer { connection.cancel() }
                _ = try await openChat(alice)
                // The hello's token and two refreshes: about 18 s of 12 s tokens.
                try await waitUntil(tokens, reaches: 3)
                try await waitUntil(alice) { $0.socketTokenIsAccepted }
                let seen = states.withLockedValue { $0 }
                let sinceConnected = seen.drop { $0 != .connected }
                #expect(Array(sinceConnected) == [.connected], "connected once, never dropped: \(seen)")
                #expect(offline.withLockedValue { $0 } == 0, "Bob never saw Alice go offline")
            }
        }
    }

    @Test func aProviderThatGivesTheSameTokenAgainIsAskedLaterAndNothingIsSentForIt() async throws {
        try await TestServer.run { server in
            // Like Firebase's getIDToken(): the cached token until it is close to its expiry.
            let cached = try await server.token("alice", lifetime: .seconds(12))
            let asked = NIOLockedValueBox(0)
            let alice = TypewireClient(url: server.socketURL, configuration: Self.quickBackoff) {
                let ask = asked.withLockedValue {
                    $0 += 1
                    return $0
                }
                return ask <= 2 ? cached : try await server.token("alice", lifetime: .seconds(3_600))
            }
            let connection = Task { try await alice.run() }
            defer { connection.cancel() }
            _ = try await openChat(alice)
            try await waitUntil(asked, reaches: 3)
            try await waitUntil(alice) { $0.socketTokenIsAccepted && $0.refreshesOffered == 1 }
            #expect(asked.withLockedValue { $0 } == 3, "the hello, the cached token again, then a fresh one")
            #expect(await alice.refreshesOffered == 1, "no refresh for the token the socket already has")
        }
    }

    /// Waits (polling, for up to 30 s) until a count of the token provider's answers reaches `count`.
    private func waitUntil(_ counter: NIOLockedValueBox<Int>, reaches count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while counter.withLockedValue({ $0 }) < count {
            guard ContinuousClock.now < deadline else { throw ClientTestError.timedOut }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
