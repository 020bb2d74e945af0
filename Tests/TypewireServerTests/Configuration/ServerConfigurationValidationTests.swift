import Foundation
import Testing
import TypewireCore

@testable import TypewireServer

/// A configuration the server cannot run with is refused where it is built, naming the setting: by
/// `ServerConfiguration.validate()`, which `TypewireApplication.make` calls, not only by `typewire serve`.
@Suite("ServerConfiguration.validate: what the server cannot run with")
struct ServerConfigurationValidationTests {
    private static let secret = "a-secret-of-at-least-thirty-two-bytes-0123"

    private static func refusal(_ change: (inout ServerConfiguration) -> Void) -> String? {
        var configuration = ServerConfiguration(jwtSecret: secret)
        change(&configuration)
        do {
            try configuration.validate()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func theDefaultsAreValid() throws {
        try ServerConfiguration(jwtSecret: Self.secret).validate()
    }

    @Test func eachValueOutOfItsBoundsIsNamedByItsFlag() {
        let cases: [(String, (inout ServerConfiguration) -> Void)] = [
            ("--threads", { $0.threads = 0 }),
            ("--activity-ttl", { $0.typing.activityTTL = .zero }),
            ("--idle-timeout", { $0.typing.idleTimeout = .milliseconds(499) }),
            ("--idle-timeout", { $0.typing.idleTimeout = .milliseconds(60_001) }),
            ("--ping-interval", { $0.sockets.pingInterval = .zero }),
            ("--close-timeout", { $0.sockets.closeTimeout = .milliseconds(-1) }),
            ("--header-timeout", { $0.http.headerTimeout = .zero }),
            ("--presence-grace", { $0.sockets.presenceGrace = .milliseconds(-1) }),
            ("--presence-grace", { $0.sockets.presenceGrace = .milliseconds(60_001) }),
            ("--max-queued-bytes", { $0.sockets.maxQueuedBytes = 65_535 }),
            ("--activity-rate", { $0.budgets.activity.rate = 0 }),
            ("--message-rate", { $0.budgets.messages.rate = -1 }),
            ("--handshake-rate", { $0.budgets.handshakes.rate = 0 }),
            ("--handshake-burst", { $0.budgets.handshakes.burst = 0.5 }),
            ("--refusals-per-address", { $0.addresses.refusals = -1 }),
            ("--pending-connections-per-address", { $0.addresses.pendingConnections = -1 }),
            ("--jwt-max-lifetime", { $0.auth.tokenRules.maxLifetime = .milliseconds(999) }),
            ("--cluster-secret", { $0.auth.clusterSecret = "short" }),
            ("webhook endpoint", { $0.webhooks.endpoints = ["ftp://hooks.example"] }),
            (
                "--webhook-unread-after",
                {
                    $0.webhooks.endpoints = ["http://hooks.example/in"]
                    $0.webhooks.secret = Self.secret
                    $0.webhooks.unreadReminderAfter = .milliseconds(999)
                }
            ),
        ]
        for (flag, change) in cases {
            let refusal = Self.refusal(change)
            #expect(refusal?.contains(flag) == true, "\(flag): \(refusal ?? "accepted")")
        }
        // The bounds themselves are values the server runs with.
        #expect(Self.refusal { $0.typing.idleTimeout = .milliseconds(500) } == nil)
        #expect(Self.refusal { $0.sockets.presenceGrace = .zero } == nil)
        #expect(Self.refusal { $0.sockets.maxQueuedBytes = 65_536 } == nil)
        #expect(Self.refusal { $0.addresses.refusals = 0 } == nil)
    }

    @Test func aServerBuiltInCodeIsRefusedAsTypewireServeIs() async throws {
        var configuration = ServerConfiguration(jwtSecret: Self.secret)
        configuration.sockets.pingInterval = .zero  // would ping in a tight loop
        let store = try await SQLiteChatStore.open(path: ":memory:")
        await #expect {
            _ = try await TypewireApplication.make(configuration: configuration, store: store)
        } throws: { error in
            error is ConfigurationError && "\(error)".contains("--ping-interval must be positive")
        }
        try await store.close()
    }
}
