import Foundation
import Testing
import TypewireCore
import TypewireTesting

/// A bot is told apart by a flag among the participants, not by its id: in `subscribed`, in the REST list and
/// in the bot's own `welcome`.
@Suite("typewire serve: bots flagged among the participants", .timeLimit(.minutes(1)))
struct BotMemberTests {
    @Test func aBotIsFlaggedAndAPersonIsNot() async throws {
        try await TestServer.run { server in
            let clawd = try await server.socket("clawd")  // the demo's bot: its token says so
            let welcome = await clawd.received.first { $0.contains(#""type":"welcome""#) } ?? ""
            #expect(welcome.contains(#""id":"clawd","name":"Clawd","online":true,"bot":true"#), "the bot's own welcome: \(welcome)")
            let alice = try await server.socket("alice")
            alice.send(.subscribe(.init(conversation: "bot-clawd")))
            let frame = try await alice.next { if case .subscribed = $0 { true } else { false } }
            guard case .subscribed(let subscribed) = frame else { return }
            #expect(subscribed.participants.map(\.id) == ["alice", "clawd"])
            #expect(subscribed.participants.map(\.bot) == [nil, true], "absent for a person")
            let listed = try await server.request("GET", "/v1/conversations/bot-clawd/participants", as: "alice")
            let members = try JSONDecoder().decode([String: [ConversationMember]].self, from: Data(listed.body.utf8))["participants"] ?? []
            #expect(members.map(\.isBot) == [false, true] && !listed.body.contains(#""bot":false"#))
        }
    }
}
