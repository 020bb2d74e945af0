import Testing
import TypewireCore
import TypewireTesting

extension ClusterTests {
    /// Clawd streams on one node; Alice joins on another mid-reply, gets the text so far, and stops it: the
    /// stop crosses to the bot's node and the bot's end crosses back.
    @Test(arguments: Bus.available)
    func aSocketJoiningMidReplyOnAnotherNodeGetsTheTextSoFarAndItsStopReachesTheBot(bus: Bus) async throws {
        try await withCluster(nodes: 2, on: bus) { nodes, _ in
            let clawd = try await nodes[0].subscribedSocket("clawd", to: "bot-clawd")
            clawd.send(.stream(.init(conversation: "bot-clawd", messageId: "x1", delta: "One ", asker: "alice")))
            clawd.send(.stream(.init(conversation: "bot-clawd", messageId: "x1", delta: "two ")))
            try await clawd.next { if case .stream(let part) = $0 { part.seq == 2 } else { false } }
            // Nobody on the second node followed the conversation while those parts went by.
            let alice = try await nodes[1].subscribedSocket("alice", to: "bot-clawd")
            let catchUp = try await alice.next { if case .stream(let part) = $0 { part.text != nil } else { false } }
            guard case .stream(let whole) = catchUp else { return }
            #expect(whole.text == "One two " && whole.seq == 2 && whole.asker == "alice")
            alice.send(.cancel(.init(conversation: "bot-clawd", messageId: "x1")))
            let asked = try await clawd.next { if case .cancel = $0 { true } else { false } }
            #expect(asked == .cancel(.init(conversation: "bot-clawd", messageId: "x1", by: "alice")))
            clawd.send(.stream(.init(conversation: "bot-clawd", messageId: "x1", delta: "three", isFinal: true, end: .cancelled)))
            let end = try await alice.next { if case .stream(let part) = $0 { part.final } else { false } }
            guard case .stream(let ended) = end else { return }
            #expect(ended.end == .cancelled && ended.by == "alice" && ended.seq == 3 && ended.delta == "three")
        }
    }
}
