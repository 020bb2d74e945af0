import Foundation
import NIOCore
import NIOWebSocket
import Testing
import TypewireCore

@testable import TypewireServer

/// The socket's decisions as values, phase by phase (the handler that runs them: `SocketHandlerTests`).
@Suite("SocketStateMachine: one socket's decisions, events in and actions out")
struct SocketStateMachineTests {
    typealias Action = SocketStateMachine.Action

    static let hello = #"{"type":"hello","token":"t"}"#
    static let subscribe = #"{"type":"subscribe","conversation":"c"}"#

    static func machine(_ change: (inout ServerConfiguration) -> Void = { _ in }) -> SocketStateMachine {
        var configuration = ServerConfiguration(jwtSecret: nil)
        change(&configuration)
        return SocketStateMachine(rules: SocketRules(configuration))
    }

    /// A machine whose hello went through and whose socket the hub took.
    static func openMachine(_ change: (inout ServerConfiguration) -> Void = { _ in }) -> SocketStateMachine {
        var machine = machine(change)
        _ = machine.text(hello)
        _ = machine.opened(tokenExpiresAt: .distantFuture, now: 0)
        return machine
    }

    // MARK: Awaiting hello

    @Test func aHelloStopsReadingAndGoesToTheHub() {
        var machine = Self.machine()
        #expect(machine.text(Self.hello) == [.setReading(false), .submit(.hello(token: "t", unchecked: nil))])
        #expect(machine.phase == .authenticating(held: []))
        #expect(machine.reading == false)
    }

    @Test func framesThatAreNotAHelloAreAnsweredThenTheFifthCloses() {
        var machine = Self.machine()
        let failure = Action.sendHelloFailure(.unauthorized, "Send {\"type\":\"hello\",\"token\":\"…\"} first.")
        for refused in 1...4 {
            #expect(machine.text(Self.subscribe) == [failure])
            #expect(machine.phase == .awaitingHello(refused: refused))
        }
        #expect(machine.text("not json") == [failure, .close(.policyViolation, "no valid hello in 5 frames", then: .waitForPeer)])
        #expect(machine.phase == .closing)
        #expect(machine.text(Self.hello) == [], "a closing socket's frames are dropped")
    }

    @Test func aUserPastTheHandshakeBudgetIsRefusedBeforeTheHub() {
        var machine = Self.machine()
        let refusal = ConnectRefusal.tooManyHandshakes(rate: 5)
        let asked = machine.dataReceived(.text, fin: true, data: ByteBuffer(string: Self.hello), now: 0)
        #expect(asked == [.setReading(false), .checkHandshakeBudget(token: "t", unchecked: nil)], "the handler asks the budget")
        let actions = machine.handshakeBudgetChecked(refusal, token: "t", unchecked: nil)
        #expect(
            actions == [
                .sendHelloFailure(.rateLimited, refusal.message), .close(.unknown(1013), refusal.message, then: .waitForPeer),
                .setReading(true),
            ], "refused before the hub; read again for the peer's close")
        #expect(machine.countsAsRefused)
        #expect(machine.handshakeBudgetChecked(nil, token: "t", unchecked: nil) == [], "an answer after the close does nothing")
    }

    @Test func theHelloTimeoutClosesBeforeTheSocketIsOpenOnly() {
        var waiting = Self.machine { $0.sockets.helloTimeout = .seconds(2) }
        #expect(waiting.helloTimedOut() == [.close(.policyViolation, "no valid hello within 2000 ms", then: .waitForPeer)])
        var checking = Self.machine()
        _ = checking.text(Self.hello)
        #expect(checking.helloTimedOut() == [.close(.policyViolation, "no valid hello within 5000 ms", then: .waitForPeer)])
        var open = Self.openMachine()
        #expect(open.helloTimedOut() == [])
    }

    @Test func aFrameOverTheHelloLimitClosesWith1009() {
        var machine = Self.machine()
        let actions = machine.text(String(repeating: "x", count: SocketRules.helloFrameLimit + 1))
        #expect(actions == [.close(.messageTooLarge, "a message is over \(SocketRules.helloFrameLimit) bytes", then: .closeNow)])
    }

    // MARK: Authenticating

    @Test func framesBehindTheHelloWaitThenGoToTheHubInOrderOnceOpened() throws {
        var machine = Self.machine()
        _ = machine.text(Self.hello)
        #expect(machine.text(Self.subscribe) == [])
        #expect(machine.text(#"{"type":"unsubscribe","conversation":"c"}"#) == [])
        let expiry = Date(timeIntervalSince1970: 2_000_000_000)
        let actions = machine.opened(tokenExpiresAt: expiry, now: 0)
        let subscribe = try FrameCodec.decodeClientFrame(Data(Self.subscribe.utf8))
        let unsubscribe = ClientFrame.unsubscribe(.init(conversation: "c"))
        #expect(
            actions == [
                .cancelHelloDeadline, .setReading(true), .submit(.frame(subscribe)), .submit(.frame(unsubscribe)),
                .scheduleTokenExpiry(expiry),
            ])
        #expect(machine.phase == .open)
        #expect(!machine.countsAsRefused, "a welcomed socket is no refusal")
    }

    @Test func moreThan256FramesBehindTheHelloClose() {
        var machine = Self.machine()
        _ = machine.text(Self.hello)
        for _ in 0..<SocketRules.framesBehindHello { #expect(machine.text(Self.subscribe) == []) }
        #expect(machine.text(Self.subscribe) == [.close(.policyViolation, "more than 256 frames before welcome", then: .closeNow)])
    }

    @Test func aRefusedHelloClosesAndCountsAgainstTheAddressUnlessTheServerWasAtFault() {
        var client = Self.machine()
        _ = client.text(Self.hello)
        #expect(
            client.refused(.policyViolation, "invalid token", blame: .client) == [
                .close(.policyViolation, "invalid token", then: .waitForPeer)
            ])
        #expect(client.countsAsRefused)
        #expect(client.closed() == [.cancelTimers, .submit(.disconnect(wentAway: false)), .releaseLane, .countRefusal])
        var server = Self.machine()
        _ = server.text(Self.hello)
        _ = server.refused(.unknown(1013), "storage", blame: .server)
        #expect(!server.countsAsRefused)
        #expect(server.closed() == [.cancelTimers, .submit(.disconnect(wentAway: false)), .releaseLane])
    }

    @Test func anOpenedAnswerAfterTheSocketClosedOnlyEndsTheHelloDeadline() {
        var machine = Self.machine()
        _ = machine.text(Self.hello)
        _ = machine.quiesced()
        #expect(machine.opened(tokenExpiresAt: .distantFuture, now: 0) == [.cancelHelloDeadline])
        #expect(machine.phase == .closing)
    }

    // MARK: Open

    @Test func anOpenSocketsFramesGoToTheHubAndBadOnesAreAnswered() throws {
        var machine = Self.openMachine()
        let subscribe = try FrameCodec.decodeClientFrame(Data(Self.subscribe.utf8))
        #expect(machine.text(Self.subscribe) == [.submit(.frame(subscribe))])
        let actions = machine.text("not json")
        #expect(actions.first == .countReceived("invalid"))
        guard case .submit(.answer(let failure)) = actions.last else {
            Issue.record("no answer: \(actions)")
            return
        }
        #expect(failure.code == .malformedFrame)
        #expect(machine.dataReceived(.binary, fin: true, data: ByteBuffer(bytes: [1]), now: 0).count == 2)
    }

    @Test func aFloodIsReadNoMoreAndClosedAfterTheAnswersBeforeIt() {
        var machine = Self.openMachine {
            $0.budgets.frames = RateBudget(rate: 0.001, burst: 1)
            $0.budgets.abuseThreshold = 3
        }
        let stop = #"{"type":"activity","conversation":"c","activity":"none"}"#
        #expect(machine.text(stop).count == 1, "within the budget")
        #expect(machine.text(stop).contains(.countDropped(received: "activity")), "dropped and told")
        _ = machine.text(stop)
        let actions = machine.text(stop)
        #expect(
            actions == [.countDropped(received: "activity"), .setReading(false), .submit(.closeForFlooding(reason: "too many frames"))])
        #expect(machine.phase == .closing && machine.countsAsRefused)
        #expect(machine.laneCaughtUp() == [], "a flooder is not read again")
        #expect(machine.floodClosing("too many frames") == [.close(.policyViolation, "too many frames", then: .closeNow)])
    }

    @Test func readingStopsWhileTheLaneIsFullOrThePeerDoesNotReadAndResumesWhenBothClear() {
        var machine = Self.openMachine()
        #expect(machine.laneFilled() == [.setReading(false)])
        #expect(machine.writabilityChanged(isWritable: false) == [])
        #expect(machine.laneCaughtUp() == [], "still blocked by the output")
        #expect(machine.writabilityChanged(isWritable: true) == [.setReading(true)])
        var closing = Self.openMachine()
        _ = closing.laneFilled()
        _ = closing.tokenExpired()
        #expect(closing.laneCaughtUp() == [.setReading(true)], "a closing socket is read for the peer's close frame")
    }

    @Test func theTokensExpiryIsToldThenCloses() {
        var machine = Self.openMachine()
        #expect(
            machine.tokenExpired() == [
                .sendHelloFailure(.unauthorized, "The token expired; connect again with a new token."),
                .close(.policyViolation, "token expired", then: .waitForPeer),
            ])
    }

    @Test func aRefreshGoesToTheServicesAndItsAnswerMovesTheExpiry() {
        var machine = Self.openMachine()
        #expect(machine.text(#"{"type":"refresh","token":"t2"}"#) == [.submit(.refresh(token: "t2"))])
        let later = Date(timeIntervalSince1970: 2_000_000_000)
        #expect(machine.refreshed(tokenExpiresAt: later) == [.scheduleTokenExpiry(later), .sendRefreshed(later)])
        var closing = Self.openMachine()
        _ = closing.quiesced()
        #expect(closing.refreshed(tokenExpiresAt: later) == [], "a closing socket's expiry no longer matters")
    }

    @Test func aRefreshBeforeWelcomeIsNoHello() {
        var machine = Self.machine()
        #expect(
            machine.text(#"{"type":"refresh","token":"t"}"#) == [
                .sendHelloFailure(.unauthorized, "Send {\"type\":\"hello\",\"token\":\"…\"} first.")
            ])
    }

    // MARK: Control frames

    @Test func aPeerThatMissesAPingIsDroppedAndOneThatAnswersIsPingedAgain() {
        var machine = Self.openMachine()
        #expect(machine.pingDue() == [.sendPing])
        #expect(machine.pongReceived(now: 0) == [])
        #expect(machine.pingDue() == [.sendPing])
        #expect(machine.pingDue() == [.close(.goingAway, "no answer to a ping", then: .closeNow)])
    }

    @Test func pingsAreAnsweredWithinTheFrameBudgetThenAFloodOfThemCloses() {
        var machine = Self.machine {
            $0.budgets.frames = RateBudget(rate: 0.001, burst: 2)
            $0.budgets.abuseThreshold = 2
        }
        let payload = ByteBuffer(string: "p")
        #expect(machine.pingReceived(payload, now: 0) == [.answerPing(payload)])
        #expect(machine.pingReceived(payload, now: 0) == [.answerPing(payload)])
        #expect(machine.pingReceived(payload, now: 0) == [.countDropped(received: nil)])
        #expect(
            machine.pingReceived(payload, now: 0) == [
                .countDropped(received: nil), .setReading(false), .submit(.closeForFlooding(reason: "too many frames")),
            ])
        #expect(machine.pingReceived(payload, now: 0) == [])
    }

    @Test func emptyFragmentsSpendTheFrameBudget() {
        var machine = Self.openMachine {
            $0.budgets.frames = RateBudget(rate: 0.001, burst: 1)
            $0.budgets.abuseThreshold = 2
        }
        #expect(machine.dataReceived(.text, fin: false, data: ByteBuffer(), now: 0) == [])
        #expect(machine.dataReceived(.continuation, fin: false, data: ByteBuffer(), now: 0) == [.countDropped(received: nil)])
        let closing = machine.dataReceived(.continuation, fin: false, data: ByteBuffer(), now: 0)
        #expect(closing.last == .submit(.closeForFlooding(reason: "too many frames")))
    }

    // MARK: Closing

    @Test func aPeersCloseIsAnsweredUnlessOursWentFirst() {
        var machine = Self.openMachine()
        var payload = ByteBuffer()
        payload.write(webSocketErrorCode: .normalClosure)
        #expect(machine.peerClosed(payload, closeSent: false) == [.close(.normalClosure, "", then: .closeNow)])
        var answered = Self.openMachine()
        #expect(answered.peerClosed(payload, closeSent: true) == [.closeConnection])
        #expect(answered.pingReceived(payload, now: 0) == [])
    }

    /// Only the peer's own 1001 says it goes away (its user's presence is held for the grace); a 1001
    /// answering the server's close, or any other code, does not.
    @Test func aPeerThatGoesAwaySaysSoWhenTheSocketCloses() {
        var goingAway = ByteBuffer()
        goingAway.write(webSocketErrorCode: .goingAway)
        var normal = ByteBuffer()
        normal.write(webSocketErrorCode: .normalClosure)
        var away = Self.openMachine()
        #expect(away.peerClosed(goingAway, closeSent: false) == [.close(.goingAway, "", then: .closeNow)])
        #expect(away.closed().contains(.submit(.disconnect(wentAway: true))))
        var closed = Self.openMachine()
        _ = closed.peerClosed(normal, closeSent: false)
        #expect(closed.closed().contains(.submit(.disconnect(wentAway: false))))
        var answering = Self.openMachine()
        _ = answering.peerClosed(goingAway, closeSent: true)
        #expect(answering.closed().contains(.submit(.disconnect(wentAway: false))))
    }

    @Test func protocolViolationsCloseAtOnceOutsideTheClosingPhase() {
        var machine = Self.machine()
        #expect(machine.violated("an unmasked frame") == [.close(.protocolError, "an unmasked frame", then: .closeNow)])
        #expect(machine.violated("an unmasked frame") == [])
        #expect(machine.unreadable(.protocolError, "unknown opcode") == [.close(.protocolError, "unknown opcode", then: .closeNow)])
    }

    @Test func theServersShutdownClosesWithGoingAwayAndBlamesNoOneBeforeWelcome() {
        var machine = Self.machine()
        #expect(machine.quiesced() == [.close(.goingAway, "server shutting down", then: .waitForPeer)])
        #expect(machine.closed() == [.cancelTimers, .submit(.disconnect(wentAway: false)), .releaseLane])
        var half = Self.openMachine()
        #expect(half.inputClosed() == [.closeChannel])
    }
}

extension SocketStateMachine {
    /// A whole text frame, from a user with handshakes to spare: the budget's answer fed back as the handler does.
    fileprivate mutating func text(_ text: String) -> [Action] {
        dataReceived(.text, fin: true, data: ByteBuffer(string: text), now: 0).flatMap { action -> [Action] in
            guard case .checkHandshakeBudget(let token, let unchecked) = action else { return [action] }
            return handshakeBudgetChecked(nil, token: token, unchecked: unchecked)
        }
    }
}
