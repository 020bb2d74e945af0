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

    @Test func aFailingTokenProviderIsReportedWithItsError() async throws {
        try await TestServer.run { server in
            let calls = NIOLockedValueBox(0)
            let client = TypewireClient(url: server.socketURL, configuration: Self.quickBackoff) { () async throws -> String in
                calls.withLockedValue { $0 += 1 }
                throw ProviderDown()
            }
            let connection = Task { try await client.run() }
            defer { connection.cancel() }
            let failed = try await first(await client.states()) { if case .failed = $0 { true } else { false } }
            guard case .failed(let error) = failed else { return }
            #expect(error.reason == .tokenProvider && error.message.contains("the session expired"), "\(error)")
            #expect(calls.withLockedValue { $0 } == 3, "asked as often as configured, then no more")
        }
    }
}
