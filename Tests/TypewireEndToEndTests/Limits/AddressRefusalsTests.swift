import Foundation
import NIOCore
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("AddressRefusals: a client whose sockets keep being refused is closed at accept", .timeLimit(.minutes(1)))
struct AddressRefusalsTests {
    private static let attacker = try! SocketAddress(ipAddress: "203.0.113.7", port: 40_000)
    private static let neighbour = try! SocketAddress(ipAddress: "203.0.113.8", port: 40_000)
    private static let proxy = try! SocketAddress(ipAddress: "10.0.0.2", port: 40_000)

    private func refusals(burst: Double, countsLocal: Bool = false, clock: ManualClock, metrics: HubMetrics = HubMetrics())
        -> AddressRefusals
    {
        AddressRefusals(burst: burst, countsLocalAddresses: countsLocal, now: { clock.now }, metrics: metrics)
    }

    @Test func pastItsBurstAClientIsClosedAtAcceptUntilItRegainsARefusal() {
        let clock = ManualClock()
        let metrics = HubMetrics()
        let refusals = refusals(burst: 3, clock: clock, metrics: metrics)
        var admitted: [Bool] = []
        for _ in 0..<4 {
            admitted.append(refusals.accepts(Self.attacker))
            refusals.refused(Self.attacker)
        }
        #expect(admitted == [true, true, true, false], "three refusals, then closed at accept")
        #expect(refusals.accepts(Self.neighbour), "another address is its own client")
        clock.advance(by: 999)
        #expect(!refusals.accepts(Self.attacker))
        clock.advance(by: 1)
        #expect(refusals.accepts(Self.attacker), "one refusal regained a second")
        refusals.refused(Self.attacker)
        #expect(!refusals.accepts(Self.attacker), "and spent on the next refused socket")
        #expect(metrics.registry.emitToString().contains("typewire_connections_closed_at_accept_total 3"))
    }

    @Test func localAddressesAreNotCountedUnlessAsked() {
        let clock = ManualClock()
        let behindAProxy = refusals(burst: 1, clock: clock)
        for _ in 0..<5 { behindAProxy.refused(Self.proxy) }
        #expect(behindAProxy.accepts(Self.proxy), "a proxy's address stands for all its clients")
        let counted = refusals(burst: 1, countsLocal: true, clock: clock)
        counted.refused(Self.proxy)
        #expect(!counted.accepts(Self.proxy))
    }

    @Test func aBurstOfZeroCountsNothing() {
        let refusals = refusals(burst: 0, clock: ManualClock())
        for _ in 0..<5 { refusals.refused(Self.attacker) }
        #expect(refusals.accepts(Self.attacker))
    }

    /// Whether `GET /healthz` is answered on a new connection (not one a session keeps alive).
    private static func healthzOnANewConnection(port: Int) async -> Bool {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/healthz")!)
        request.setValue("close", forHTTPHeaderField: "Connection")
        return (try? await session.data(for: request)) != nil
    }

    /// Over real sockets: three refused hellos from loopback (counted for the test), and the next connection is
    /// closed before its upgrade; the sockets already open, and welcomed ones that closed, are untouched.
    @Test func aClientRefusedThreeTimesIsClosedAtAcceptAndItsOpenSocketsStay() async throws {
        try await TestServer.run(configure: {
            $0.addresses.refusals = 3
            $0.addresses.countsLocalAddresses = true
        }) { server in
            for _ in 0..<5 { (try await server.socket("bob")).close() }  // welcomed sockets count nothing
            let alice = try await server.socket("alice")
            for _ in 0..<3 {
                let refused = try await TestSocket.connect(port: server.port, token: nil)
                refused.send(.hello(.init(token: "not-a-token")))
                #expect(try await refused.error().code == .unauthorized)
                try await eventually { await refused.isClosed }
            }
            // The server counts a refusal once the socket closed on its side, a little after the client saw it: a
            // connection may still be let in, and refused at its hello (counted too), before one is closed at accept.
            var upgraded = 0
            while true {
                let late = try await TestSocket.connect(port: server.port, token: nil)
                late.send(.hello(.init(token: "not-a-token")))
                try await eventually { await late.isClosed }
                if await late.closeCode == nil { break }  // no close frame: closed before the upgrade
                upgraded += 1
                #expect(upgraded < 5, "still upgraded after \(upgraded + 3) refused sockets")
                if upgraded >= 5 { return }
            }
            // The address's HTTP requests are closed at accept too. The address regains a refusal a second, so
            // the budget may have refilled since the socket above was closed: one more refused hello spends it.
            // Each request goes on a connection of its own (a kept-alive one was accepted before the gate shut).
            var answered = 0
            while await Self.healthzOnANewConnection(port: server.port) {
                answered += 1
                #expect(answered < 5, "an HTTP request still answered after \(answered) more refused sockets")
                if answered >= 5 { return }
                let refused = try await TestSocket.connect(port: server.port, token: nil)
                refused.send(.hello(.init(token: "not-a-token")))
                try await eventually { await refused.isClosed }
            }
            alice.send(.subscribe(.init(conversation: "group-six")))
            try await alice.next { if case .subscribed = $0 { true } else { false } }
            // A second later the address has a refusal again, and `/metrics` answers (trying costs no refusal).
            var metrics = ""
            try await eventually {
                metrics = (try? await server.request("GET", "/metrics", as: nil).body) ?? ""
                return !metrics.isEmpty
            }
            let line = metrics.split(separator: "\n").first { $0.hasPrefix("typewire_connections_closed_at_accept_total ") }
            #expect(try #require(line.flatMap { Double($0.split(separator: " ")[1]) }) >= 2, "the socket and the request")
        }
    }
}
