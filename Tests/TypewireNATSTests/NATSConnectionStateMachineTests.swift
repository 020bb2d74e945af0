import NIOCore
import Testing
import TypewireNATS

/// The connection's decisions, phase by phase, as values.
@Suite("NATS connection state machine")
struct NATSConnectionStateMachineTests {
    static let info = NATSServerInfo(serverID: "N1")

    /// A machine past its handshake.
    static func ready() -> NATSConnectionStateMachine {
        var machine = NATSConnectionStateMachine()
        _ = machine.received(.info(info))
        _ = machine.received(.pong)
        return machine
    }

    @Test func theHandshakeIsInfoThenConnectThenThePongThatSaysItWasTaken() {
        var machine = NATSConnectionStateMachine()
        #expect(machine.received(.ping) == .sendPong, "a server's ping is answered in any phase")
        #expect(machine.received(.info(Self.info)) == .sendConnect)
        #expect(!machine.isReady)
        #expect(machine.received(.ok) == .none)
        #expect(machine.received(.pong) == .ready(Self.info))
        #expect(machine.isReady)
    }

    @Test func refusedCredentialsAndTLSCloseBeforeReady() {
        var refused = NATSConnectionStateMachine()
        _ = refused.received(.info(Self.info))
        #expect(refused.received(.error("Authorization Violation")) == .close(.authorizationFailed("Authorization Violation")))
        #expect(refused.received(.pong) == .none, "nothing after the close")
    }

    @Test func tlsComesAfterInfoWhenEitherSideRequiresItAndBeforeTheCredentials() {
        var required = NATSConnectionStateMachine()
        #expect(required.received(.info(NATSServerInfo(tlsRequired: true))) == .startTLS, "the server requires it")
        #expect(required.received(.pong) == .close(.malformed("pong before the handshake was done")))
        var asked = NATSConnectionStateMachine(requiresTLS: true)
        #expect(asked.received(.info(NATSServerInfo(tlsAvailable: true))) == .startTLS, "a tls:// URL asks for it")
        var upgraded = NATSConnectionStateMachine(requiresTLS: true)
        _ = upgraded.received(.info(NATSServerInfo(tlsRequired: true)))
        #expect(upgraded.tlsEstablished() == .sendConnect, "CONNECT, with the credentials, only once TLS is up")
        #expect(upgraded.received(.pong) == .ready(NATSServerInfo(tlsRequired: true)))
        var refused = NATSConnectionStateMachine(requiresTLS: true)
        #expect(refused.received(.info(NATSServerInfo())) == .close(.tlsUnavailable), "a tls:// URL never falls back to plain text")
        var failed = NATSConnectionStateMachine()
        _ = failed.received(.info(NATSServerInfo(tlsRequired: true)))
        #expect(failed.tlsFailed("certificate verify failed") == .close(.tls("certificate verify failed")))
        #expect(failed.tlsEstablished() == .none)
    }

    @Test func aMessageBeforeTheHandshakeIsAProtocolError() {
        var machine = NATSConnectionStateMachine()
        let message = NATSMessage(subject: "s", subscription: 1, payload: ByteBuffer())
        guard case .close(.malformed) = machine.received(.message(message)) else {
            Issue.record("a message before INFO must close")
            return
        }
    }

    @Test func whenReadyMessagesAreDeliveredAndANewInfoUpdatesTheServers() {
        var machine = Self.ready()
        let message = NATSMessage(subject: "s", subscription: 1, payload: ByteBuffer(string: "x"))
        #expect(machine.received(.message(message)) == .deliver(message))
        let update = NATSServerInfo(serverID: "N1", connectURLs: ["127.0.0.1:4223"])
        #expect(machine.received(.info(update)) == .updateInfo(update))
    }

    @Test func refusedSubjectsAreReportedAndOtherErrorsClose() {
        var machine = Self.ready()
        #expect(machine.received(.error("Permissions Violation for Publish to x")) == .report("Permissions Violation for Publish to x"))
        #expect(machine.received(.error("Invalid Subject")) == .report("Invalid Subject"))
        #expect(machine.received(.error("Maximum Payload Violation")) == .close(.server("Maximum Payload Violation")))
        #expect(!machine.isReady)
    }

    @Test func pingsWithoutAnswerCloseTheConnection() {
        var machine = Self.ready()
        #expect(machine.pingTimerFired() == .sendPing)
        #expect(machine.received(.pong) == .none)
        #expect(machine.pingTimerFired() == .sendPing)
        #expect(machine.pingTimerFired() == .sendPing)
        #expect(machine.pingTimerFired() == .close(.staleConnection), "two pings unanswered")
    }

    @Test func theHandshakeTimerClosesOnlyAnUnfinishedHandshake() {
        var waiting = NATSConnectionStateMachine()
        _ = waiting.received(.info(Self.info))
        #expect(waiting.handshakeTimerFired() == .close(.handshakeTimedOut))
        var ready = Self.ready()
        #expect(ready.handshakeTimerFired() == .none)
        var fresh = NATSConnectionStateMachine()
        #expect(fresh.pingTimerFired() == .none, "no pings before the handshake")
    }

    @Test func aDecodingErrorClosesOnce() {
        var machine = Self.ready()
        #expect(machine.decodingFailed(.controlLineTooLong(limit: 1)) == .close(.controlLineTooLong(limit: 1)))
        #expect(machine.decodingFailed(.controlLineTooLong(limit: 1)) == .none)
    }
}
