import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireClient

/// What an app does to its connection: one run per client, disconnect and reconnect, background and
/// foreground, a network change.
@Suite("Client lifecycle", .timeLimit(.minutes(1)))
struct LifecycleTests: ClientTesting {
    @Test func aSecondRunOfTheSameClientIsRefused() async throws {
        try await TestServer.run { server in
            try await withClients(["alice"], of: server) { clients in
                try await waitUntilConnected(clients[0])
                let error = await #expect(throws: TypewireClientError.self) { try await clients[0].run() }
                #expect(error?.message.contains("running already") == true)
                #expect(await clients[0].check { $0.welcomed }, "the first run goes on")
            }
        }
    }

    @Test func disconnectShowsTheUserOfflineUntilReconnectNow() async throws {
        try await TestServer.run { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let alice = clients[0]
                await alice.disconnect()
                _ = try await first(chats[1].presence) { $0.user == "alice" && !$0.online }
                _ = try await first(await alice.states()) { $0 == .paused }
                await alice.reconnectNow()
                _ = try await first(chats[1].presence) { $0.user == "alice" && $0.online }
                try await waitUntilSubscribed(alice, to: Self.direct)
            }
        }
    }

    /// The server tells a member's offline only to the sockets open then: a client that was away learns it
    /// from the next `subscribed`, as a presence change, with when the member was last seen.
    @Test func aMemberWhoLeftWhileTheClientWasAwayIsOfflineAfterTheReconnect() async throws {
        try await TestServer.run { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let (alice, bob) = (clients[0], clients[1])
                _ = try await first(chats[0].presence) { $0.user == "bob" && $0.online }
                await alice.disconnect()
                _ = try await first(await alice.states()) { $0 == .paused }
                await bob.disconnect()
                try await eventually { try await connections(on: server) == 0 }  // the server forgot both sockets
                await alice.reconnectNow()
                let offline = try await first(chats[0].presence) { $0.user == "bob" && !$0.online }
                #expect(offline.lastSeenAt != nil, "\(offline)")
            }
        }
    }

    @Test func theBackgroundStopsTypingAtOnceThenClosesAfterTheGraceAndTheForegroundReconnects() async throws {
        var configuration = Self.quickBackoff
        configuration.backgroundGrace = .seconds(5)  // the typing's stop must reach Bob within it, on a loaded machine too
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            let alice = client("alice", of: server, configuration: configuration)
            let connection = Task { try await alice.run() }
            defer { connection.cancel() }
            try await withChats(["bob"], of: server) { _, chats in
                let aliceChat = try await openChat(alice)
                await aliceChat.setActivity(.typing)
                _ = try await first(chats[0].typing) { $0.text != nil }
                let seen = NIOLockedValueBox<[Bool]>([])  // Alice's presence as Bob sees it, in order
                let watching = Task {
                    for await presence in chats[0].presence where presence.user == "alice" {
                        seen.withLockedValue { $0.append(presence.online) }
                    }
                }
                defer { watching.cancel() }
                await alice.enterBackground()
                _ = try await first(chats[0].typing) { $0.text == nil }
                #expect(!seen.withLockedValue { $0.contains(false) }, "typing stops before the socket closes")
                _ = try await first(await alice.states()) { $0 == .paused }
                try await eventually { seen.withLockedValue { $0.last == false } }
                await alice.enterForeground()
                try await eventually { seen.withLockedValue { $0.last == true } }
            }
        }
    }

    /// The client closes for the background with 1001 (going away): the server holds the user's presence
    /// for its grace, so a quick switch to another app and back shows others nothing, and a disconnect
    /// (1000) shows them offline at once (with 1000 for the background too, Bob saw Alice go and come back).
    @Test func aQuickSwitchToAnotherAppAndBackShowsOthersNothing() async throws {
        var configuration = Self.quickBackoff
        configuration.backgroundGrace = .zero  // the socket closes as the app leaves the foreground
        try await TestServer.run(configure: { $0.sockets.presenceGrace = .seconds(60) }) { server in
            let alice = client("alice", of: server, configuration: configuration)
            let connection = Task { try await alice.run() }
            defer { connection.cancel() }
            try await withChats(["bob"], of: server) { _, chats in
                try await waitUntilConnected(alice)
                let seen = NIOLockedValueBox<[Bool]>([])  // Alice's presence as Bob sees it, in order
                let watching = Task {
                    for await presence in chats[0].presence where presence.user == "alice" {
                        seen.withLockedValue { $0.append(presence.online) }
                    }
                }
                defer { watching.cancel() }
                try await eventually { seen.withLockedValue { $0 == [true] } }
                await alice.enterBackground()
                _ = try await first(await alice.states()) { $0 == .paused }
                await alice.enterForeground()
                try await waitUntilConnected(alice)
                await alice.disconnect()
                try await eventually { seen.withLockedValue { $0.last == false } }
                #expect(seen.withLockedValue { $0 } == [true, false], "only the disconnect showed her offline")
            }
        }
    }

    /// A send waiting for its `ack` when `run()` ends fails instead of waiting for ever (before: the test
    /// timed out), and the message goes out when the client runs again.
    @Test func aSendWaitingWhenRunEndsFailsAndGoesOutOnTheNextRun() async throws {
        try await TestServer.run { server in
            var configuration = Self.quickBackoff
            configuration.outbox = nil
            let alice = client("alice", of: server, configuration: configuration)
            let connection = Task { try await alice.run() }
            let chat = try await openChat(alice)
            await alice.disconnect()
            let send = Task { try await chat.send("before the stop") }
            while await alice.pendingSends.isEmpty { await Task.yield() }
            connection.cancel()
            await #expect(throws: TypewireClientError.self) { try await send.value }
            let again = Task { try await alice.run() }
            defer { again.cancel() }
            await alice.reconnectNow()  // it was disconnected
            try await withChats(["bob"], of: server) { _, chats in
                _ = try await first(chats[0].messages) { $0.text == "before the stop" }
            }
        }
    }

    @Test func aNetworkChangeConnectsAtOnceInsteadOfWaitingOutTheBackoff() async throws {
        var configuration = Self.quickBackoff
        configuration.backoff = Backoff(initial: .seconds(60), maximum: .seconds(60), jitter: 0)
        try await acrossARestart(
            ["alice"], configuration: configuration,
            duringOutage: { clients in
                _ = try await first(await clients[0].states()) { if case .waitingToReconnect = $0 { true } else { false } }
            },
            afterRestart: { _, clients in
                await clients[0].networkChanged()
                try await waitUntilConnected(clients[0])  // within 10 s, a sixth of the backoff
            }
        )
    }

    /// A wait is told once: an event that leaves the wait under way does not publish it again with less
    /// time left (before, each one did).
    @Test func aWaitIsToldOnceNotAgainAtEveryEventDuringIt() async throws {
        var configuration = Self.quickBackoff
        configuration.backoff = Backoff(initial: .seconds(60), maximum: .seconds(60), jitter: 0)
        configuration.followsNetworkPath = false  // the test is the path monitor
        let path = NetworkPath(isSatisfied: true, interfaces: ["en0"])
        try await acrossARestart(
            ["alice"], configuration: configuration,
            whileUp: { clients in await clients[0].networkPathUpdated(path) },
            duringOutage: { clients in
                let seen = NIOLockedValueBox<[ConnectionState]>([])
                let states = await clients[0].states()
                let recording = Task { for await state in states { seen.withLockedValue { $0.append(state) } } }
                defer { recording.cancel() }
                func waits() -> Int {
                    seen.withLockedValue { $0.filter { if case .waitingToReconnect = $0 { true } else { false } }.count }
                }
                try await eventually { waits() == 1 }
                for _ in 0..<3 {
                    try await Task.sleep(for: .milliseconds(20))
                    await clients[0].networkPathUpdated(path)  // the same path: the wait goes on
                }
                await clients[0].disconnect()
                try await eventually { seen.withLockedValue { $0.last == .paused } }
                #expect(waits() == 1, "\(seen.withLockedValue { $0 })")
            },
            afterRestart: { _, _ in }
        )
    }

    @Test func theNetworkPathComingBackConnectsAtOnce() async throws {
        var configuration = Self.quickBackoff
        configuration.backoff = Backoff(initial: .seconds(60), maximum: .seconds(60), jitter: 0)
        configuration.followsNetworkPath = false  // the test is the path monitor
        try await acrossARestart(
            ["alice"], configuration: configuration,
            whileUp: { clients in
                await clients[0].networkPathUpdated(NetworkPath(isSatisfied: true, interfaces: ["en0"]))
            },
            duringOutage: { clients in
                await clients[0].networkPathUpdated(NetworkPath(isSatisfied: false, interfaces: []))
                _ = try await first(await clients[0].states()) { $0 == .offline }  // no backoff runs: nothing to dial over
            },
            afterRestart: { _, clients in
                await clients[0].networkPathUpdated(NetworkPath(isSatisfied: true, interfaces: ["pdp_ip0"]))
                try await waitUntilConnected(clients[0])  // within 10 s, a sixth of the backoff
            }
        )
    }

    @Test func theClientTakesTheServersPingIntervalFromItsWelcome() async throws {
        try await TestServer.run(configure: { $0.sockets.pingInterval = .milliseconds(1_500) }) { server in
            try await withClients(["alice"], of: server) { clients in
                try await waitUntilConnected(clients[0])
                #expect(await clients[0].serverConfiguration?.pingInterval == 1_500)
            }
        }
    }

    @Test func intervalsAServerGivesOutsideHalfASecondToAMinuteAreClamped() async throws {
        // A welcome whose 0.1 s refresh would send ten frames a second: the client takes 500 ms. (The ping's
        // clamp is `ClientConfigurationTests`': a server pinging every 100 ms cuts off a client on a loaded
        // machine before the test can look.)
        try await TestServer.run(configure: { $0.typing.refreshInterval = .milliseconds(100) }) { server in
            try await withClients(["alice"], of: server) { clients in
                try await waitUntilConnected(clients[0])
                #expect(await clients[0].serverConfiguration?.refreshInterval == 500)
            }
        }
    }
}

/// The transport seam (``SocketTransport``): whatever carries the socket, the client above it connects
/// through refused connects, and a socket that dies before its `ack` is read loses and doubles nothing.
@Suite("Client over a faulty transport", .timeLimit(.minutes(1)))
struct FaultyTransportTests: ClientTesting {
    @Test func refusedConnectsAndASocketThatDiesBeforeItsAckLoseAndDoubleNothing() async throws {
        try await TestServer.run { server in
            let transport = FaultyTransport(refusals: 3, drops: 1) { $0.contains(#""type":"ack""#) }
            let alice = TypewireClient(
                url: server.socketURL, configuration: Self.quickBackoff, logger: Logger(label: "typewire.test"), transport: transport
            ) { _ in try await server.token("alice") }
            let connection = Task { try await alice.run() }
            defer { connection.cancel() }
            let chat = try await openChat(alice)
            #expect(transport.connects == 4, "three refused, then one")
            _ = try await chat.send("through the faults")  // its first ack died with the socket
            #expect(transport.dropped == 1 && transport.connects == 5)
            let stored = try await history(as: "bob", on: server).filter { $0.text == "through the faults" }
            #expect(stored.count == 1, "sent again on the next socket, stored once")
        }
    }
}
