import Foundation
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

@testable import TypewireClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client against a real server on 127.0.0.1.
@Suite("TypewireClient against a real server", .timeLimit(.minutes(1)))
struct TypewireClientTests: ClientTesting {
    @Test func twoClientsSeeEachOthersTypingAndMessages() async throws {
        // A minute: what clears Alice's typing is her send, not expiry.
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            try await withChats(["alice", "bob"], of: server) { _, chats in
                let (aliceChat, bobChat) = (chats[0], chats[1])
                await aliceChat.setActivity(.typing)
                let seen = try await first(bobChat.typing) { $0.text != nil }
                #expect(seen.text == "Alice is typing…")
                #expect(seen.typers.map(\.userID) == ["alice"])
                let id = try await aliceChat.send("Hi Bob")
                let message = try await first(bobChat.messages) { $0.id == id }
                #expect(message.text == "Hi Bob")
                let cleared = try await first(bobChat.typing) { _ in true }
                #expect(cleared == .idle, "the send cleared Alice's typing")
            }
        }
    }

    @Test func afterAServerRestartClientsReconnectAndAMessageSentDuringTheOutageArrivesOnce() async throws {
        var chats: [ConversationHandle] = []
        var sending: Task<String, any Error>?
        try await acrossARestart(["alice", "bob"]) { clients in
            for client in clients { chats.append(await client.conversation(Self.direct)) }
            // The server is down: the message waits in the client.
            sending = Task { [chats] in try await chats[0].send("sent during the outage") }
        } afterRestart: { server, clients in
            let (aliceChat, bobChat) = (chats[0], chats[1])
            for client in clients { try await waitUntilSubscribed(client, to: Self.direct) }
            let id = try await sending!.value
            let delivered = try await first(bobChat.messages) { $0.id == id }
            #expect(delivered.text == "sent during the outage")
            // The state is restored: typing flows again after the reconnect.
            await aliceChat.setActivity(.typing)
            _ = try await first(bobChat.typing) { $0.text == "Alice is typing…" }
            // Stored exactly once: a fresh client's history has it once.
            let texts = try await history(as: "alice", on: server).map(\.text)
            #expect(texts.filter { $0 == "sent during the outage" }.count == 1)
        }
    }

    @Test func typingExpiresOnTimeWhileDisconnected() async throws {
        // A ttl of 2 s: Bob's stream keeps the newest state, and must show Alice typing before it expires.
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(2) }) { server in
            let alice = client("alice", of: server)
            let bob = client("bob", of: server)
            let aliceConnection = Task { try await alice.run() }
            let bobConnection = Task { try await bob.run() }
            defer { aliceConnection.cancel() }
            let aliceChat = try await openChat(alice)
            let bobChat = try await openChat(bob)
            let began = ContinuousClock.now  // before the server can have her typing: its ttl runs from later
            await aliceChat.setActivity(.typing)
            _ = try await first(bobChat.typing) { $0.text != nil }
            // Bob loses his connection: no update can reach him; only his roster's clock can clear Alice.
            bobConnection.cancel()
            _ = try await first(await bob.states()) { $0 == .stopped }
            // Nothing reaches him any more: what clears Alice is his roster's own timer, at the entry's expiry.
            let cleared = try await first(bobChat.typing) { _ in true }
            let after = ContinuousClock.now - began
            #expect(cleared == .idle)
            // At the expiry, 2 s after the server had her typing (however late Bob saw her; 0.3 s for the
            // clocks' reading of it): not at the disconnect, nor long after (a liveness bound for a loaded machine).
            #expect(after >= .milliseconds(1_700) && after <= .seconds(6), "cleared \(after) after she began")
            #expect(await bob.liveCounts.timers == 0, "the timer ended with the entry")
        }
    }

    @Test func openingAndClosingAHundredConversationsLeavesNothingBehind() async throws {
        try await TestServer.run { server in
            try await withClients(["alice"], of: server) { clients in
                let alice = clients[0]
                try await waitUntilConnected(alice)
                for round in 0..<100 {
                    let id = [Self.direct, "group-six", "bot-clawd"][round % 3]
                    let chat = await alice.conversation(id)
                    try await waitUntilSubscribed(alice, to: id)
                    let composer = await chat.composer()
                    composer.textDidChange("typing in round \(round)")
                    if round.isMultiple(of: 10) { _ = try await chat.send("round \(round)") }
                    await chat.close()
                    for await _ in chat.typing {}  // the sequence ends once closed
                }
                // Nothing is left in the client: no conversation, expiry timer, composer or its timer, reply or edit.
                try await waitUntil(alice) { $0.liveCounts == LiveCounts() }
                // The server agrees: no subscription is left (the socket itself stays open).
                try await eventually { try await subscriptionsOnServer(server) == 0 }
            }
            // And closing a conversation ended the typing begun in it.
            try await withChats(["bob"], of: server) { _, chats in
                let state = try await first(chats[0].typing) { _ in true }
                #expect(state == .idle)
            }
        }
    }

    /// The server's `typewire_subscriptions` gauge.
    func subscriptionsOnServer(_ server: TestServer) async throws -> Double? {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(server.port)/metrics")!)
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("typewire_subscriptions ") }
        return line.flatMap { Double($0.split(separator: " ").last!) }
    }

    @Test func aRefusedSendFailsWithTheServersReasonAndARateLimitedOneIsRetried() async throws {
        try await TestServer.run(configure: {
            $0.budgets.messages.burst = 2
            $0.budgets.messages.rate = 2
        }) { server in
            try await withChats(["alice"], of: server) { _, chats in
                let chat = chats[0]
                let tooLong = String(repeating: "x", count: server.configuration.messages.maxLength + 1)
                await #expect(throws: TypewireClientError.self) { try await chat.send(tooLong) }
                // Four sends at once with a burst of two: the refused ones come back later by themselves.
                let ids = try await withThrowingTaskGroup(of: String.self) { group in
                    for index in 0..<4 { group.addTask { try await chat.send("burst \(index)") } }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
                #expect(ids.count == 4)
            }
        }
    }

    @Test func aMessageOverTheServersLimitsFailsWithoutAFrameAndTheSocketStays() async throws {
        try await TestServer.run { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let sendsBefore = try await framesReceived("send", on: server)
                // 30 000 characters (past the length limit and, at 120 000 bytes, past the socket's 64 KiB:
                // sent, it would close the socket and be sent again after every reconnect); and 5 000 emoji,
                // within the length limit but 20 000 bytes.
                for text in [String(repeating: "😀", count: 30_000), String(repeating: "😀", count: 5_000)] {
                    let error = await #expect(throws: TypewireClientError.self) { try await chats[0].send(text) }
                    #expect(error?.code == .tooLarge, "\(String(describing: error))")
                }
                #expect(try await framesReceived("send", on: server) == sendsBefore, "no frame left the client")
                _ = try await chats[0].send("still here")
                let messages = try await history(as: "bob", on: server)
                #expect(messages.map(\.text) == ["still here"])
                try await waitUntil(clients[0]) { $0.pendingSends.isEmpty }
            }
        }
    }

    @Test func backoffGrowsAndIsJittered() {
        let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(1), jitter: 0.5)
        var random = SplitMix64(seed: 7)
        for attempt in 1...8 {
            let ceiling = min(Duration.seconds(1), .milliseconds(100) * (1 << (attempt - 1)))
            // 200 draws of the same attempt: all within [ceiling / 2, ceiling], and spread over that range.
            let delays = (0..<200).map { _ in backoff.delay(attempt: attempt, using: &random) }
            #expect(delays.allSatisfy { $0 <= ceiling && $0 >= ceiling / 2 }, "attempt \(attempt)")
            #expect(delays.max()! - delays.min()! > ceiling / 4, "attempt \(attempt): the delays are jittered")
        }
        let unjittered = Backoff(initial: .milliseconds(100), maximum: .seconds(1), jitter: 0)
        #expect((0..<20).map { _ in unjittered.delay(attempt: 3, using: &random) } == Array(repeating: .milliseconds(400), count: 20))
    }
}
