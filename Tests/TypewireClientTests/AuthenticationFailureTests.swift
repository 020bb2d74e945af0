import Foundation
import NIOConcurrencyHelpers
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireClient

/// A token the server keeps refusing, or a token provider that keeps failing, reaches the app as
/// `ConnectionState.failed` after a few attempts, instead of being retried for ever unseen.
@Suite("Authentication failures", .timeLimit(.minutes(1)))
struct AuthenticationFailureTests: ClientTesting {
    struct ProviderDown: Error, CustomStringConvertible {
        var description: String { "the session expired" }
    }

    @Test func aTokenTheServerKeepsRefusingStopsTheClientUntilReconnectNow() async throws {
        try await TestServer.run { server in
            let valid = NIOLockedValueBox(false)
            let client = TypewireClient(url: server.socketURL, configuration: Self.quickBackoff) {
                valid.withLockedValue { $0 } ? try await server.token("alice") : "not-a-token"
            }
            let connection = Task { try await client.run() }
            defer { connection.cancel() }
            let failed = try await first(await client.states()) { if case .failed = $0 { true } else { false } }
            guard case .failed(let error) = failed else { return }
            #expect(error.code == .unauthorized, "\(error)")
            valid.withLockedValue { $0 = true }  // the app signed the user in again
            await client.reconnectNow()
            try await waitUntilConnected(client)
        }
    }

    /// An app opened offline: `getIDToken()` needs the network and throws. The provider is asked again after
    /// the backoff until it works, and the client connects with no call from the app (before: three
    /// failures stopped it for good).
    @Test func aFailingTokenProviderIsAskedAgainUntilItWorksWithNoCallFromTheApp() async throws {
        try await TestServer.run { server in
            let calls = NIOLockedValueBox(0)
            let client = TypewireClient(url: server.socketURL, configuration: Self.quickBackoff) { () async throws -> String in
                let call = calls.withLockedValue { calls in
                    calls += 1
                    return calls
                }
                guard call > 6 else { throw ProviderDown() }
                return try await server.token("alice")
            }
            let connection = Task { try await client.run() }
            defer { connection.cancel() }
            try await waitUntilConnected(client)
            #expect(calls.withLockedValue { $0 } == 7)
        }
    }

    /// A provider that caches its token hands back the one the server refused unless told: after a
    /// refusal the request says so, and a fresh token connects.
    @Test func afterARefusalTheProviderIsAskedForATokenNotFromItsCache() async throws {
        try await TestServer.run { server in
            let requests = NIOLockedValueBox<[TokenRequest.Reason]>([])
            let client = TypewireClient(url: server.socketURL, configuration: Self.quickBackoff) { request in
                requests.withLockedValue { $0.append(request.reason) }
                return request.isAfterRefusal ? try await server.token("alice") : "a-cached-token-the-server-refuses"
            }
            let connection = Task { try await client.run() }
            defer { connection.cancel() }
            try await waitUntilConnected(client)
            #expect(requests.withLockedValue { $0 } == [.connect, .refused])
        }
    }
}
