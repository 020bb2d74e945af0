import Testing
import TypewireCore

@testable import TypewireClient

/// The client's connection as a value: each phase, then thousands of random event sequences against the
/// machine's promises. No clock, no socket.
@Suite("ClientConnectionStateMachine")
struct ClientConnectionStateMachineTests {
    typealias Machine = ClientConnectionStateMachine
    let start = ContinuousClock.now
    static let refused = TypewireClientError(reason: .server(.unauthorized), message: "The token is not valid.")
    static let providerDown = TypewireClientError(reason: .tokenProvider, message: "The token provider failed: offline")
    static let wifi = NetworkPath(isSatisfied: true, interfaces: ["en0"], gateways: ["192.168.1.1"])

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int64(seconds * 1_000)) }

    /// The id of the token request among `actions`.
    func request(_ actions: [Machine.Action]) -> (id: Int, request: TokenRequest)? {
        for case .requestToken(let id, let request) in actions { return (id, request) }
        return nil
    }

    func opened(_ actions: [Machine.Action]) -> Int? {
        for case .open(let socket, _) in actions { return socket }
        return nil
    }

    /// A machine that is connected: started, given a token, welcomed. Returns its socket.
    func connected(_ machine: inout Machine, at time: Double = 0) throws -> Int {
        let asked = try #require(request(machine.start(now: at(time))))
        let socket = try #require(opened(machine.tokenArrived("t", id: asked.id, now: at(time))))
        #expect(machine.welcomed(socket: socket, now: at(time)).isEmpty)
        #expect(machine.state(now: at(time)) == .connected)
        return socket
    }

    @Test func aRunAsksForATokenDialsWithItAndIsConnectedOnWelcome() throws {
        var machine = Machine(settings: .init(), seed: 1)
        #expect(machine.state(now: at(0)) == .stopped)
        let asked = try #require(request(machine.start(now: at(0))))
        #expect(asked.request.reason == .connect)
        #expect(machine.state(now: at(0)) == .connecting)
        #expect(machine.tokenArrived("t", id: asked.id, now: at(0.1)) == [.open(socket: 1, token: "t")])
        #expect(machine.welcomed(socket: 1, now: at(0.2)).isEmpty)
        #expect(machine.state(now: at(0.2)) == .connected)
        #expect(machine.deadline == nil, "nothing to wake for")
    }

    @Test func aTokenProviderThatKeepsFailingIsAskedAgainAfterTheBackoffForEver() throws {
        var machine = Machine(settings: .init(refusalsBeforeFailing: 3), seed: 2)
        var asked = try #require(request(machine.start(now: at(0))))
        var now = 0.0
        for _ in 0..<20 {
            #expect(machine.tokenFailed(Self.providerDown, id: asked.id, now: at(now)).isEmpty)
            guard case .waitingToReconnect(let wait) = machine.state(now: at(now)) else {
                Issue.record("\(machine.state(now: at(now))) after a provider error: it must wait and ask again")
                return
            }
            #expect(wait <= .seconds(15))
            now += Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18 + 0.01
            asked = try #require(request(machine.timePassed(now: at(now))), "asked again when the backoff is over")
            #expect(asked.request.reason == .connect)
        }
    }

    @Test func aProviderThatNeverAnswersIsGivenUpAfterItsTimeoutAndItsLateTokenIgnored() throws {
        var machine = Machine(settings: .init(tokenTimeout: .seconds(30)), seed: 3)
        let first = try #require(request(machine.start(now: at(0))))
        #expect(machine.deadline == at(30))
        #expect(machine.timePassed(now: at(29)).isEmpty)
        _ = machine.timePassed(now: at(30))
        guard case .waitingToReconnect = machine.state(now: at(30)) else {
            Issue.record("\(machine.state(now: at(30)))")
            return
        }
        #expect(machine.tokenArrived("late", id: first.id, now: at(31)).isEmpty, "a late answer opens nothing")
        let again = try #require(request(machine.timePassed(now: at(46))))
        #expect(again.id != first.id)
    }

    @Test func onlyTheServersRefusalsCountAndTheNextRequestSaysSo() throws {
        var machine = Machine(settings: .init(refusalsBeforeFailing: 3), seed: 4)
        var asked = try #require(request(machine.start(now: at(0))))
        var now = 0.0
        for refusal in 1...3 {
            let socket = try #require(opened(machine.tokenArrived("stale", id: asked.id, now: at(now))))
            machine.refused(socket: socket, Self.refused)
            _ = machine.socketClosed(socket: socket, now: at(now))
            if refusal == 3 { break }
            now += 20
            asked = try #require(request(machine.timePassed(now: at(now))))
            #expect(asked.request.reason == .refused, "after a refusal the provider is told to skip its cache")
        }
        #expect(machine.state(now: at(now)) == .failed(Self.refused))
        #expect(machine.deadline == nil, "failed: nothing more is tried")
        let back = try #require(request(machine.reconnectNow(now: at(now + 1))))
        #expect(back.request.reason == .refused)
        let socket = try #require(opened(machine.tokenArrived("fresh", id: back.id, now: at(now + 1))))
        _ = machine.welcomed(socket: socket, now: at(now + 1))
        _ = machine.socketClosed(socket: socket, now: at(now + 2))
        let after = try #require(request(machine.timePassed(now: at(now + 30))))
        #expect(after.request.reason == .connect, "a welcome forgets the refusals")
    }

    @Test func offlineNothingIsAskedOrDialledAndThePathsReturnConnectsAtOnce() throws {
        var machine = Machine(settings: .init(), seed: 5)
        let socket = try connected(&machine)
        _ = machine.pathUpdated(Self.wifi, now: at(0))
        _ = machine.socketClosed(socket: socket, now: at(1))
        #expect(machine.pathUpdated(NetworkPath(isSatisfied: false, interfaces: []), now: at(1.1)).isEmpty)
        #expect(machine.state(now: at(1.1)) == .offline)
        #expect(machine.deadline == nil, "no backoff runs while offline")
        #expect(machine.timePassed(now: at(600)).isEmpty)
        let asked = try #require(request(machine.pathUpdated(Self.wifi, now: at(600))), "back: connects at once")
        #expect(asked.request.reason == .connect)
    }

    @Test func aChangeOfNetworkDropsTheSocketOnceThePathHasSettled() throws {
        var machine = Machine(settings: .init(pathSettle: .seconds(1)), seed: 6)
        let socket = try connected(&machine)
        #expect(machine.pathUpdated(Self.wifi, now: at(0)).isEmpty, "the first path only says where things stand")
        let cafe = NetworkPath(isSatisfied: true, interfaces: ["en0"], gateways: ["10.0.0.1"])
        let cellular = NetworkPath(isSatisfied: true, interfaces: ["pdp_ip0"], gateways: ["100.64.0.1"])
        // Another Wi-Fi (same interface, another gateway), then cellular, then the Wi-Fi again: one drop.
        #expect(machine.pathUpdated(cafe, now: at(1)).isEmpty)
        #expect(machine.pathUpdated(cellular, now: at(1.4)).isEmpty)
        #expect(machine.pathUpdated(cafe, now: at(1.8)).isEmpty)
        #expect(machine.deadline == at(2.8))
        #expect(machine.timePassed(now: at(2.5)).isEmpty)
        #expect(machine.timePassed(now: at(2.8)) == [.close(socket: socket, reason: .networkChanged)])
        #expect(request(machine.pathUpdated(cafe, now: at(2.9))) == nil, "the same path: nothing")
        let asked = try #require(request(machine.socketClosed(socket: socket, now: at(3))), "dialled at once, no backoff")
        #expect(asked.request.reason == .connect)
        #expect(machine.pathUpdated(cafe, now: at(4)).isEmpty)
        #expect(machine.deadline == at(33), "only the token's timeout")
    }

    @Test func theBackgroundsGraceIsHeldUnderBackgroundTimeAndClosesTheSocketWhenItEnds() throws {
        var machine = Machine(settings: .init(backgroundGrace: .seconds(10)), seed: 7)
        let socket = try connected(&machine)
        #expect(machine.enterBackground(now: at(1)) == [.stopTyping, .beginBackgroundTime])
        #expect(machine.state(now: at(1)) == .connected, "within the grace the socket stays")
        #expect(machine.deadline == at(11))
        #expect(machine.timePassed(now: at(10)).isEmpty)
        #expect(machine.timePassed(now: at(11)) == [.close(socket: socket, reason: .background), .endBackgroundTime])
        #expect(machine.socketClosed(socket: socket, now: at(11.1)).isEmpty, "no reconnect in the background")
        #expect(machine.state(now: at(12)) == .paused)
        #expect(request(machine.enterForeground(now: at(300))) != nil, "the foreground connects at once")
    }

    @Test func theForegroundWithinTheGraceKeepsTheSocketAndTheSystemCanTakeTheTimeBack() throws {
        var machine = Machine(settings: .init(backgroundGrace: .seconds(10)), seed: 8)
        let socket = try connected(&machine)
        _ = machine.enterBackground(now: at(1))
        #expect(machine.enterForeground(now: at(3)) == [.endBackgroundTime], "nothing closed, nothing dialled")
        #expect(machine.state(now: at(3)) == .connected)
        #expect(machine.deadline == nil)
        _ = machine.enterBackground(now: at(4))
        #expect(machine.backgroundTimeExpiring(now: at(6)) == [.close(socket: socket, reason: .background), .endBackgroundTime])
    }

    @Test func aDropInTheBackgroundIsNotRedialledAndItsTimeIsGivenBack() throws {
        var machine = Machine(settings: .init(backgroundGrace: .seconds(10)), seed: 9)
        let socket = try connected(&machine)
        _ = machine.enterBackground(now: at(1))
        #expect(machine.socketClosed(socket: socket, now: at(2)) == [.endBackgroundTime])
        #expect(machine.timePassed(now: at(11)).isEmpty)
        #expect(machine.state(now: at(11)) == .paused)
    }

    @Test func signingOutClosesEndsTheSessionAndNothingOpensUntilReconnectNow() throws {
        var machine = Machine(settings: .init(), seed: 10)
        let socket = try connected(&machine)
        _ = machine.socketClosed(socket: socket, now: at(1))
        let pending = try #require(request(machine.timePassed(now: at(20))))
        #expect(machine.signOut(now: at(20.1)) == [.endSession])
        #expect(machine.state(now: at(20.1)) == .signedOut)
        #expect(machine.tokenArrived("alice's", id: pending.id, now: at(20.2)).isEmpty, "the old user's token opens nothing")
        #expect(machine.enterForeground(now: at(21)).contains(where: { if case .requestToken = $0 { true } else { false } }))
    }

    @Test func aProviderThatSaysSignedOutSignsOut() throws {
        var machine = Machine(settings: .init(), seed: 11)
        let asked = try #require(request(machine.start(now: at(0))))
        #expect(machine.tokenFailed(.signedOut, id: asked.id, now: at(0)) == [.endSession])
        #expect(machine.state(now: at(0)) == .signedOut)
        #expect(machine.deadline == nil)
    }

    @Test func aSocketIsDialledOnlyOnceTheLastOnesCloseIsSeen() throws {
        var machine = Machine(settings: .init(), seed: 12)
        let socket = try connected(&machine)
        #expect(machine.disconnect(now: at(1)) == [.close(socket: socket, reason: .app)])
        #expect(machine.reconnectNow(now: at(1.1)).isEmpty, "the old socket has not closed yet")
        let asked = try #require(request(machine.socketClosed(socket: socket, now: at(1.2))))
        #expect(opened(machine.tokenArrived("t", id: asked.id, now: at(1.3))) == socket + 1)
    }

    // MARK: Random sequences

    /// What a random walk may do next.
    enum Step: CaseIterable {
        case token, tokenFails, staleToken, welcome, refuse, drop, staleDrop, time, pathLost, pathBack, pathChange
        case background, foreground, backgroundExpiring, disconnect, reconnect, signOut, providerSignsOut
    }

    /// Thousands of random sequences: at most one socket, never stuck while everything works, nothing
    /// opened between a sign-out and the next reconnect, no deadline already passed after time passes.
    @Test func randomSequencesKeepTheMachinesPromises() throws {
        for seed in 0..<2_000 {
            var random = SplitMix64(seed: UInt64(seed))
            var machine = Machine(settings: .init(backgroundGrace: .seconds(10)), seed: UInt64(seed))
            var now = 0.0
            var openSockets: Set<Int> = []
            var lastRequest: Int?
            var signedOut = false
            var trace: [String] = []
            func run(_ actions: [Machine.Action]) {
                for action in actions {
                    switch action {
                    case .requestToken(let id, _): lastRequest = id
                    case .open(let socket, _):
                        openSockets.insert(socket)
                        #expect(openSockets.count == 1, "two sockets at once (seed \(seed)): \(trace)")
                        #expect(!signedOut, "a socket opened after a sign-out (seed \(seed)): \(trace)")
                    case .endSession: signedOut = true
                    default: break
                    }
                }
            }
            run(machine.start(now: at(now)))
            for _ in 0..<150 {
                let step = Step.allCases.randomElement(using: &random)!
                trace.append("\(step)")
                switch step {
                case .token: if let id = lastRequest { run(machine.tokenArrived("t", id: id, now: at(now))) }
                case .tokenFails: if let id = lastRequest { run(machine.tokenFailed(Self.providerDown, id: id, now: at(now))) }
                case .staleToken: run(machine.tokenArrived("old", id: -1, now: at(now)))
                case .welcome: if let socket = machine.currentSocket { run(machine.welcomed(socket: socket, now: at(now))) }
                case .refuse: if let socket = machine.currentSocket { machine.refused(socket: socket, Self.refused) }
                case .drop:
                    if let socket = openSockets.first {
                        openSockets.remove(socket)
                        run(machine.socketClosed(socket: socket, now: at(now)))
                    }
                case .staleDrop: run(machine.socketClosed(socket: -1, now: at(now)))
                case .time:
                    now += Double(Int.random(in: 0...20_000, using: &random)) / 1_000
                    run(machine.timePassed(now: at(now)))
                    if let deadline = machine.deadline { #expect(deadline > at(now), "a deadline already passed (seed \(seed))") }
                case .pathLost: run(machine.pathUpdated(NetworkPath(isSatisfied: false, interfaces: []), now: at(now)))
                case .pathBack: run(machine.pathUpdated(Self.wifi, now: at(now)))
                case .pathChange:
                    let gateway = "10.0.0.\(Int.random(in: 1...3, using: &random))"
                    run(machine.pathUpdated(NetworkPath(isSatisfied: true, interfaces: ["en0"], gateways: [gateway]), now: at(now)))
                case .background: run(machine.enterBackground(now: at(now)))
                case .foreground:
                    signedOut = false
                    run(machine.enterForeground(now: at(now)))
                case .backgroundExpiring: run(machine.backgroundTimeExpiring(now: at(now)))
                case .disconnect: run(machine.disconnect(now: at(now)))
                case .reconnect:
                    signedOut = false
                    run(machine.reconnectNow(now: at(now)))
                case .signOut: run(machine.signOut(now: at(now)))
                case .providerSignsOut: if let id = lastRequest { run(machine.tokenFailed(.signedOut, id: id, now: at(now))) }
                }
                // A foreground app on a path, not refused too often, is connected or on its way.
                if machine.wish == .connected, machine.pathSatisfied, machine.failure == nil {
                    #expect(machine.link != .idle, "stuck with nothing under way (seed \(seed)): \(trace)")
                    if case .waiting(let until) = machine.link {
                        #expect(until <= at(now) + .seconds(15), "a wait past the backoff's longest (seed \(seed))")
                    }
                    let state = machine.state(now: at(now))
                    #expect(state != .paused && state != .offline && state != .signedOut, "\(state) (seed \(seed)): \(trace)")
                }
                if !machine.holdsBackgroundTime, case .background = machine.wish, machine.currentSocket != nil,
                    machine.link != .closing(socket: machine.currentSocket!)
                {
                    Issue.record("a socket open in the background without background time (seed \(seed)): \(trace)")
                }
            }
        }
    }
}
