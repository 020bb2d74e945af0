import Logging
import NIOCore
import Testing
import TypewireNATS
import TypewireTesting

/// The client against Debian's `nats-server` on loopback: messages, subscriptions made again after a
/// restart or on another server of the cluster, the bound on what waits, and credentials.
@Suite(
    "NATS client against nats-server", .enabled(if: NATSTestServer.isEnabled, Comment(rawValue: NATSTestServer.skipReason)),
    .timeLimit(.minutes(2)))
struct NATSClientTests {
    static let logger = Logger(label: "typewire.nats-test")

    static func client(_ urls: String, maxPendingBytes: Int = 8 * 1024 * 1024, trusting roots: String? = nil) throws -> NATSClient {
        try NATSClient(
            configuration: .init(
                servers: try NATSServerAddress.list(urls), reconnectWait: .milliseconds(20), maxPendingBytes: maxPendingBytes,
                tlsTrustRoots: roots),
            logger: logger)
    }

    /// Runs clients for the body's length.
    static func running(_ clients: [NATSClient], _ body: () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.run() } }
            defer { group.cancelAll() }
            try await body()
        }
    }

    /// Publishes a probe until the subscriber has it (then its subscription is in effect on the server), and
    /// empties the inbox.
    static func waitUntilSubscribed(_ inbox: Inbox, publisher: NATSClient, subject: String) async throws {
        // This wait's own probes: one still on its way from an earlier wait proves nothing about now.
        let probe = "probe-\(UInt64.random(in: 0...UInt64.max))"
        do {
            try await eventually(within: .seconds(10)) {
                publisher.publish(ByteBuffer(string: probe), to: subject)
                try await Task.sleep(for: .milliseconds(40))
                return await inbox.contains { String(buffer: $0.payload) == probe }
            }
        } catch {
            let received = await inbox.messages.count
            Issue.record(
                """
                no probe arrived on \(subject): the inbox holds \(received) messages; the publisher connected: \(publisher.isConnected), \
                \(publisher.statistics), servers \(publisher.knownServers)
                """)
            throw error
        }
        await inbox.clear()
    }

    @Test func aTLSServerIsReachedOverTLSWithItsCertificateCheckedAndNeverInPlainText() async throws {
        let certificates = try TestCertificates.make()
        let server = try await NATSTestServer.start(user: ("typewire", "s3cret"), tls: certificates)
        let subscriber = try Self.client("tls://typewire:s3cret@localhost:\(server.port)", trusting: certificates.authority)
        let publisher = try Self.client("nats://typewire:s3cret@localhost:\(server.port)", trusting: certificates.authority)
        let untrusting = try Self.client("tls://typewire:s3cret@localhost:\(server.port)")  // the system's roots
        var refusals = untrusting.connectionEvents.makeAsyncIterator()
        let inbox = Inbox.collecting(subscriber)
        try await Self.running([subscriber, publisher, untrusting]) {
            _ = try #require(subscriber.subscribe(to: "typewire.c.tls"))
            // The server requires TLS: the nats:// publisher upgrades too, after INFO, before its credentials.
            try await Self.waitUntilSubscribed(inbox, publisher: publisher, subject: "typewire.c.tls")
            #expect(publisher.publish(ByteBuffer(string: "sealed twice"), to: "typewire.c.tls") == .queued)
            try await eventually { await inbox.contains { String(buffer: $0.payload) == "sealed twice" } }
            guard case .connectFailed(_, let reason) = await refusals.next() else {
                Issue.record("a certificate the client does not trust is refused")
                return
            }
            #expect(reason.contains("TLS with the NATS server failed"), "\(reason)")
            #expect(!untrusting.isConnected)
        }
        let plain = try await NATSTestServer.start()
        let asking = try Self.client("tls://127.0.0.1:\(plain.port)", trusting: certificates.authority)
        var events = asking.connectionEvents.makeAsyncIterator()
        try await Self.running([asking]) {
            guard case .connectFailed(_, let reason) = await events.next() else {
                Issue.record("a tls:// URL is never served in plain text")
                return
            }
            #expect(reason.contains("does not offer TLS"), "\(reason)")
        }
    }

    @Test func aMessageWithCRLFInItsPayloadArrivesWhole() async throws {
        let server = try await NATSTestServer.start()
        let subscriber = try Self.client(server.url)
        let publisher = try Self.client(server.url)
        let inbox = Inbox.collecting(subscriber)
        try await Self.running([subscriber, publisher]) {
            _ = try #require(subscriber.subscribe(to: "typewire.c.one"))
            try await Self.waitUntilSubscribed(inbox, publisher: publisher, subject: "typewire.c.one")
            let payload = "line one\r\nline two\r\n\r\nMSG x 1 2\r\n"
            #expect(publisher.publish(ByteBuffer(string: payload), to: "typewire.c.one") == .queued)
            try await eventually { await inbox.contains { String(buffer: $0.payload) == payload && $0.subject == "typewire.c.one" } }
        }
    }

    @Test func subscriptionsAreMadeAgainWhenTheServerComesBack() async throws {
        var server = try await NATSTestServer.start()
        let port = server.port
        let subscriber = try Self.client(server.url)
        var events = subscriber.connectionEvents.makeAsyncIterator()
        let inbox = Inbox.collecting(subscriber)
        try await Self.running([subscriber]) {
            _ = try #require(subscriber.subscribe(to: "typewire.c.two"))
            #expect(await events.next() == .connected(try NATSServerAddress(url: server.url), reconnected: false))
            await server.kill()
            server = try await NATSTestServer.start(port: port)
            while let event = await events.next() {
                if case .connected(_, reconnected: true) = event { break }
            }
            let publisher = try Self.client(server.url)
            try await Self.running([publisher]) {
                try await Self.waitUntilSubscribed(inbox, publisher: publisher, subject: "typewire.c.two")
            }
            #expect(subscriber.statistics.reconnects == 1)
        }
    }

    @Test func aServerOfTheClusterLearntFromInfoTakesOverWhenTheFirstDies() async throws {
        let first = try await NATSTestServer.start()
        let second = try await NATSTestServer.start(routes: [first.clusterPort])
        let subscriber = try Self.client(first.url)
        let publisher = try Self.client(second.url)
        let inbox = Inbox.collecting(subscriber)
        try await Self.running([subscriber, publisher]) {
            _ = try #require(subscriber.subscribe(to: "typewire.c.three"))
            try await Self.waitUntilSubscribed(inbox, publisher: publisher, subject: "typewire.c.three")
            try await eventually(within: .seconds(10)) { subscriber.knownServers.contains { $0.port == second.port } }
            let killed = ContinuousClock.now
            await first.kill()
            try await Self.waitUntilSubscribed(inbox, publisher: publisher, subject: "typewire.c.three")
            // Liveness only: the figure is in docs/RELIABILITY.md.
            #expect(ContinuousClock.now - killed < .seconds(10))
        }
    }

    @Test func publicationsWaitWhileNoServerIsUpUpToTheBoundThenAreDroppedAndCounted() async throws {
        let port = NATSTestServer.reservePort()
        let publisher = try Self.client("nats://127.0.0.1:\(port)", maxPendingBytes: 1_000)
        let payload = ByteBuffer(string: String(repeating: "x", count: 100))
        let outcomes = (0..<20).map { _ in publisher.publish(payload, to: "typewire.c.four") }
        let queued = outcomes.filter { $0 == .queued }.count
        #expect(queued == 1_000 / (100 + 26 + "typewire.c.four".utf8.count))
        #expect(publisher.statistics.publicationsDropped == 20 - queued)
        #expect(publisher.statistics.pendingBytes <= 1_000)
        #expect(publisher.publish(payload, to: "a b") == .invalid)
        #expect(publisher.publish(payload, to: "typewire.*") == .invalid)

        let server = try await NATSTestServer.start(port: port)
        let subscriber = try Self.client(server.url)
        let prober = try Self.client(server.url)
        let inbox = Inbox.collecting(subscriber)
        try await Self.running([subscriber, prober]) {
            _ = try #require(subscriber.subscribe(to: "typewire.c.four"))
            try await Self.waitUntilSubscribed(inbox, publisher: prober, subject: "typewire.c.four")
            try await Self.running([publisher]) {
                // Probes still on their way when the first one arrived may come too: only the payloads count.
                func received() async -> [ByteBuffer] { await inbox.messages.map(\.payload).filter { $0 == payload } }
                try await eventually { await received().count >= queued }
                try await Task.sleep(for: .milliseconds(200))  // nothing more than what waited
                #expect(await received().count == queued)
                #expect(await inbox.messages.allSatisfy { $0.payload == payload || String(buffer: $0.payload).hasPrefix("probe-") })
            }
        }
    }

    @Test func credentialsAreSentAndARefusalIsReported() async throws {
        let server = try await NATSTestServer.start(user: (name: "typewire", password: "s3cret"))
        let wrong = try Self.client("nats://typewire:wrong@127.0.0.1:\(server.port)")
        let right = try Self.client("nats://typewire:s3cret@127.0.0.1:\(server.port)")
        var wrongEvents = wrong.connectionEvents.makeAsyncIterator()
        var rightEvents = right.connectionEvents.makeAsyncIterator()
        try await Self.running([wrong, right]) {
            guard case .connectFailed(_, let reason) = await wrongEvents.next() else {
                Issue.record("a wrong password must fail the handshake")
                return
            }
            #expect(reason.contains("refused the credentials"))
            guard case .connected = await rightEvents.next() else {
                Issue.record("the right password connects")
                return
            }
        }
    }
}

/// What a client received, collected as it arrives.
actor Inbox {
    private(set) var messages: [NATSMessage] = []

    /// An inbox that collects a client's messages until its stream ends.
    static func collecting(_ client: NATSClient) -> Inbox {
        let inbox = Inbox()
        Task {
            for await message in client.messages { await inbox.add(message) }
        }
        return inbox
    }

    func add(_ message: NATSMessage) {
        messages.append(message)
    }

    func contains(where predicate: (NATSMessage) -> Bool) -> Bool {
        messages.contains(where: predicate)
    }

    func clear() {
        messages.removeAll()
    }
}
