import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

@Suite("typewire serve: rate limits", .timeLimit(.minutes(1)))
struct RateLimitTests {
    static let group = "group-six"

    @Test func aFloodIsLimitedAndOthersStillGetTheirUpdates() async throws {
        try await TestServer.run { server in
            let flooder = try await server.socket("alice")
            let carol = try await server.socket("carol")
            let bob = try await server.subscribedSocket("bob", to: Self.group)
            let start = ContinuousClock.now
            for _ in 0..<1_000 { flooder.send(.activity(.init(conversation: Self.group, activity: .typing))) }
            let refusal = try await flooder.error()
            #expect(refusal.code == .rateLimited)
            carol.send(.activity(.init(conversation: Self.group, activity: .typing)))
            try await bob.activity(in: Self.group) { $0.contains { $0.user == "carol" } }
            let fannedOut = await bob.received.filter { $0.contains(#""type":"activity""#) }.count
            // At most the burst plus what the bucket refilled meanwhile (and Carol's own update) got through.
            let elapsed = Double((ContinuousClock.now - start).components.seconds) + 1
            let allowance = Int(server.configuration.budgets.activity.burst + server.configuration.budgets.activity.rate * elapsed) + 2
            #expect(fannedOut <= allowance, "the excess was dropped, not fanned out (\(fannedOut) of 1 000)")
        }
    }

    @Test func messagesOverTheLimitAreRefusedSoTheClientCanRetry() async throws {
        try await TestServer.run(configure: { $0.budgets.messages.burst = 5 }) { server in
            let alice = try await server.socket("alice")
            for index in 0..<10 {
                alice.send(.send(.init(conversation: Self.group, clientMessageId: "m\(index)", text: "hi \(index)")))
            }
            var acked = 0
            var refused: [String] = []
            for _ in 0..<10 {
                let frame = try await alice.next { if case .ack = $0 { true } else if case .error = $0 { true } else { false } }
                if case .ack = frame { acked += 1 }
                if case .error(let failure) = frame, failure.code == .rateLimited { refused.append(failure.ref ?? "") }
            }
            #expect(acked >= 5 && acked < 10)
            #expect(refused.count == 10 - acked)
            #expect(refused.allSatisfy { $0.hasPrefix("m") }, "each refusal names the message to retry")
        }
    }

    @Test func aStopIsNeverDropped() async throws {
        // A ttl of a minute: an indicator gone within the wait was cleared by the stop, not by expiry.
        try await TestServer.run(configure: {
            $0.budgets.activity.burst = 1
            $0.budgets.activity.rate = 0.1
            $0.typing.activityTTL = .seconds(60)
        }) { server in
            let bob = try await server.subscribedSocket("bob", to: Self.group)
            let alice = try await server.socket("alice")
            alice.send(.activity(.init(conversation: Self.group, activity: .typing)))
            try await bob.activity(in: Self.group) { !$0.isEmpty }
            alice.send(.activity(.init(conversation: Self.group, activity: .typing)))  // over the limit: dropped
            alice.send(.activity(.init(conversation: Self.group, activity: .none)))  // still goes through
            try await bob.activity(in: Self.group) { $0.isEmpty }
        }
    }

    @Test func sustainedAbuseClosesTheSocket() async throws {
        try await TestServer.run(configure: { $0.budgets.abuseThreshold = 50 }) { server in
            let flooder = try await server.socket("alice")
            for _ in 0..<2_000 { flooder.send(.activity(.init(conversation: Self.group, activity: .typing))) }
            try await eventually { await flooder.isClosed }
        }
    }

    @Test func badFramesPastTheirBudgetAreDroppedThenTheSocketIsClosed() async throws {
        try await TestServer.run(configure: {
            $0.budgets.badFrames.burst = 20
            $0.budgets.badFrames.rate = 1
            $0.budgets.abuseThreshold = 50
        }) { server in
            let flooder = try await server.socket("carol")
            let bob = try await server.subscribedSocket("bob", to: Self.group)
            for _ in 0..<30 { flooder.sendRaw("not JSON") }
            try await eventually { await flooder.received.count >= 21 }  // welcome and 20 answers
            let answers = await flooder.received.dropFirst().filter { $0.contains("malformed_frame") }.count
            #expect((20...21).contains(answers), "answered within the budget only: \(answers)")
            for _ in 0..<100 { flooder.sendRaw("not JSON") }
            try await eventually { await flooder.isClosed }
            // Others are unaffected.
            let alice = try await server.socket("alice")
            alice.send(.activity(.init(conversation: Self.group, activity: .typing)))
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["alice"] }
        }
    }

    @Test func stopsPastTheFrameBudgetAreDroppedThenTheSocketIsClosed() async throws {
        try await TestServer.run(configure: {
            $0.budgets.frames.burst = 20
            $0.budgets.frames.rate = 1
            $0.budgets.abuseThreshold = 50
        }) { server in
            let flooder = try await server.socket("carol")
            let bob = try await server.subscribedSocket("bob", to: Self.group)
            for index in 0..<25 { flooder.send(.activity(.init(conversation: "random-\(index)", activity: .none))) }
            let notice = try await flooder.error()
            #expect(notice.code == .rateLimited && notice.ref == "activity", "the burst passed, the rest was dropped")
            for index in 0..<200 { flooder.send(.activity(.init(conversation: "random-\(index)", activity: .none))) }
            try await eventually { await flooder.isClosed }
            #expect(await flooder.closeCode == .policyViolation)
            let alice = try await server.socket("alice")
            alice.send(.activity(.init(conversation: Self.group, activity: .typing)))
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["alice"] }
        }
    }

    /// The answers to a flooder's earlier frames go out before the close: its `rate_limited` is not lost when
    /// the abuse threshold is reached while the hub still works on the frames that passed.
    @Test func aFlooderClosedForAbuseGetsTheAnswersToItsEarlierFramesFirst() async throws {
        nonisolated(unsafe) var held: HeldHistoryStore?
        try await TestServer.run(
            configure: { $0.budgets.abuseThreshold = 30 },
            wrapStore: { store in
                held = HeldHistoryStore(store, holdingParticipants: true)
                return held!
            }
        ) { server in
            let flooder = try await server.socket("alice")
            // The first frame waits for the group's participants: the burst behind it waits, the rest is dropped,
            // the first drop is answered behind the burst, and the 30th closes the socket.
            for _ in 0..<200 { flooder.send(.activity(.init(conversation: Self.group, activity: .typing))) }
            await held!.historyRead()
            // The threshold is reached while the first frame still waits.
            try await eventually {
                let metrics = try await server.request("GET", "/metrics", as: nil).body
                let dropped = metrics.split(separator: "\n").first { $0.hasPrefix(#"typewire_frames_dropped_total{reason="rate_limit"} "#) }
                return dropped.flatMap { Double($0.split(separator: " ").last!) } ?? 0 >= 30
            }
            held!.release()
            let refusal = try await flooder.error()
            #expect(refusal.code == .rateLimited)
            try await eventually { await flooder.isClosed }
            #expect(await flooder.closeCode == .policyViolation)
        }
    }

    @Test func lookupsOfConversationsThatDoNotExistAreLimited() async throws {
        try await TestServer.run(configure: {
            $0.budgets.unknownConversations.burst = 3
            $0.budgets.unknownConversations.rate = 0.001
        }) { server in
            let prober = try await server.socket("carol")
            for index in 0..<6 { prober.send(.subscribe(.init(conversation: "nope-\(index)"))) }
            var codes: [ErrorCode] = []
            for _ in 0..<6 { codes.append(try await prober.error().code) }
            #expect(codes == [.unknownConversation, .unknownConversation, .unknownConversation, .rateLimited, .rateLimited, .rateLimited])
            let erin = try await server.socket("erin")
            erin.send(.subscribe(.init(conversation: Self.group)))
            try await erin.next { if case .subscribed = $0 { true } else { false } }
        }
    }

    @Test func aStrangersAnswersAreTheSameWhateverTheServerHasOpen() async throws {
        try await TestServer.run(configure: {
            $0.budgets.unknownConversations.burst = 2
            $0.budgets.unknownConversations.rate = 0.001
        }) { server in
            let alice = try await server.socket("alice")  // the direct chat is open on the server: its members are cached
            alice.send(.subscribe(.init(conversation: "direct-alice-bob")))
            try await alice.next { if case .subscribed = $0 { true } else { false } }
            let prober = try await server.socket("carol")  // not in it
            for conversation in ["direct-alice-bob", "nope-1", "direct-alice-bob", "nope-2"] {
                prober.send(.subscribe(.init(conversation: conversation)))
            }
            prober.send(.activity(.init(conversation: "direct-alice-bob", activity: .typing)))
            var codes: [ErrorCode] = []
            for _ in 0..<5 { codes.append(try await prober.error().code) }
            #expect(
                codes == [.unknownConversation, .unknownConversation, .rateLimited, .rateLimited, .rateLimited],
                "an open conversation costs a stranger a lookup as a missing one does")
        }
    }
}
