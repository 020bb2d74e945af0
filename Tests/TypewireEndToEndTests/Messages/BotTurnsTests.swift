import Foundation
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

/// A bot's reply as a turn: a member's stop reaches the bot, and every end (the bot's, a stop the bot does
/// not honour, a silence) reaches every member as one final `stream` frame. Each test sets the other
/// deadline to a minute, so that only the end it claims can end the reply within the liveness bound.
@Suite("typewire serve: bot turns, their stop and their ends", .timeLimit(.minutes(1)))
struct BotTurnsTests {
    static let bot = "bot-clawd"

    /// A group of Alice, Bob and Clawd, with each subscribed.
    static func group(
        on server: TestServer, _ body: (_ id: String, _ alice: TestSocket, _ bob: TestSocket, _ clawd: TestSocket) async throws -> Void
    ) async throws {
        let created = try await server.request(
            "POST", "/v1/conversations", as: "alice", json: #"{"kind":"group","title":"Ask Clawd","members":["bob","clawd"]}"#)
        #expect(created.status == 201)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any])
        let id = try #require(object["id"] as? String)
        let (alice, bob, clawd) = (
            try await server.subscribedSocket("alice", to: id), try await server.subscribedSocket("bob", to: id),
            try await server.subscribedSocket("clawd", to: id)
        )
        try await body(id, alice, bob, clawd)
    }

    /// Nothing was stored: a marker message sent now is the first message the member gets.
    static func expectNothingStored(
        in conversation: String, from sender: TestSocket, seenBy member: TestSocket, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        sender.send(.send(.init(conversation: conversation, clientMessageId: "marker", text: "marker")))
        let first = try await member.next { if case .message = $0 { true } else { false } }
        guard case .message(let message) = first else { return }
        #expect(message.text == "marker", "a message was stored before the marker", sourceLocation: sourceLocation)
    }

    static func end(of socket: TestSocket, reply: String, since: Int = 0) async throws -> ServerFrame.StreamDelta {
        let frame = try await socket.next(since: since) {
            if case .stream(let part) = $0 { part.messageId == reply && part.final } else { false }
        }
        guard case .stream(let part) = frame else { throw TestSocketError.timedOut }
        return part
    }

    @Test func aStopReachesTheBotAndTheBotsCancelledEndReachesEveryMemberWithTheTextSoFarStored() async throws {
        try await TestServer.run(configure: { $0.messages.stopGrace = .seconds(60) }) { server in
            try await Self.group(on: server) { id, alice, bob, clawd in
                clawd.send(.stream(.init(conversation: id, messageId: "r1", delta: "Once upon ", asker: "alice")))
                try await bob.next {
                    if case .stream(let part) = $0 { part.seq == 1 && part.delta == "Once upon " && part.asker == "alice" } else { false }
                }
                // The reply answers Alice: Bob may not stop it.
                bob.send(.cancel(.init(conversation: id, messageId: "r1")))
                let refusal = try await bob.error()
                #expect(refusal.code == .forbidden && refusal.ref == "r1" && refusal.request == "cancel")
                alice.send(.cancel(.init(conversation: id, messageId: "r1")))
                let asked = try await clawd.next { if case .cancel = $0 { true } else { false } }
                #expect(asked == .cancel(.init(conversation: id, messageId: "r1", by: "alice")))
                clawd.send(.stream(.init(conversation: id, messageId: "r1", delta: "a", isFinal: true, end: .cancelled)))
                for member in [alice, bob] {
                    let end = try await Self.end(of: member, reply: "r1")
                    #expect(end.end == .cancelled && end.by == "alice" && end.seq == 2 && end.delta == "a")
                    try await member.next { if case .message(let message) = $0 { message.text == "Once upon a" } else { false } }
                }
                // Ended: a late part, or another stop, is refused.
                clawd.send(.stream(.init(conversation: id, messageId: "r1", delta: " time")))
                #expect(try await clawd.error().code == .turnEnded)
                let since = await alice.received.count
                alice.send(.cancel(.init(conversation: id, messageId: "r1")))
                #expect(try await alice.error(since: since).code == .turnEnded)
            }
        }
    }

    @Test func theServerAPIsStopRuleLetsAnyMemberStopAReplyInAConversation() async throws {
        let key = "server-api-key-for-tests-0123456789abcdef"
        try await TestServer.run(configure: {
            $0.serverAPI.key = key
            $0.messages.stopGrace = .seconds(60)
        }) { server in
            func put(_ rule: String?) async throws -> (status: Int, body: String) {
                let field = rule.map { #","stopRule":"\#($0)""# } ?? ""
                let answer = try await server.serverRequest(
                    "PUT", "/conversations/team", key: key, json: #"{"kind":"group","members":["alice","bob","clawd"]\#(field)}"#)
                return (answer.status, answer.body)
            }
            let made = try await put("members")
            #expect(made.status == 201 && made.body.contains(#""stopRule":"members""#))
            let wrong = try await put("everyone")
            #expect(wrong.status == 400 && wrong.body.contains(#"it must be \"asker\" or \"members\""#), "\(wrong.body)")
            let (bob, clawd) = (
                try await server.subscribedSocket("bob", to: "team"), try await server.subscribedSocket("clawd", to: "team")
            )
            // Any member stops any reply: the relayed parts answer nobody in particular, so every app shows Stop.
            clawd.send(.stream(.init(conversation: "team", messageId: "r1", delta: "Once", asker: "alice")))
            try await bob.next { if case .stream(let part) = $0 { part.messageId == "r1" && part.asker == nil } else { false } }
            bob.send(.cancel(.init(conversation: "team", messageId: "r1")))
            let asked = try await clawd.next { if case .cancel = $0 { true } else { false } }
            #expect(asked == .cancel(.init(conversation: "team", messageId: "r1", by: "bob")))

            // Put without a rule: the default again, for the replies that begin from then on.
            #expect(try await put(nil).body.contains(#""stopRule":"asker""#))
            clawd.send(.stream(.init(conversation: "team", messageId: "r2", delta: "Once", asker: "alice")))
            try await bob.next { if case .stream(let part) = $0 { part.messageId == "r2" && part.asker == "alice" } else { false } }
            bob.send(.cancel(.init(conversation: "team", messageId: "r2")))
            #expect(try await bob.error().code == .forbidden)
        }
    }

    @Test func aBotThatIgnoresAStopIsEndedForEveryoneAfterTheGraceAndItsLaterPartsRefused() async throws {
        try await TestServer.run(configure: {
            $0.messages.stopGrace = .milliseconds(300)
            $0.messages.replyTimeout = .seconds(60)
            $0.typing.activityTTL = .seconds(60)
        }) { server in
            try await Self.group(on: server) { id, alice, bob, clawd in
                clawd.send(.activity(.init(conversation: id, activity: .typing)))
                clawd.send(.stream(.init(conversation: id, messageId: "r2", delta: "Let me explain ")))
                try await bob.activity(in: id) { $0.map(\.user) == ["clawd"] }
                // The reply is under way once its first part reached Bob (a stop before it names no reply).
                try await bob.next { if case .stream(let part) = $0 { part.messageId == "r2" } else { false } }
                bob.send(.cancel(.init(conversation: id, messageId: "r2")))  // no asker named: any member may
                try await clawd.next { if case .cancel = $0 { true } else { false } }
                let ends = [try await Self.end(of: alice, reply: "r2"), try await Self.end(of: bob, reply: "r2")]
                #expect(ends[0] == ends[1], "one end, the same for every member")
                #expect(ends[0].end == .cancelled && ends[0].by == "bob" && ends[0].seq == 2 && ends[0].delta.isEmpty)
                try await alice.activity(in: id) { $0.isEmpty }  // the bot's activity went with the end (the ttl is a minute)
                clawd.send(.stream(.init(conversation: id, messageId: "r2", delta: "at length.", isFinal: true)))
                #expect(try await clawd.error().code == .turnEnded)
                try await Self.expectNothingStored(in: id, from: bob, seenBy: alice)
            }
        }
    }

    @Test func aSilentReplyEndsAsTimedOutForEveryMemberWithTheSameFrame() async throws {
        try await TestServer.run(configure: {
            $0.messages.replyTimeout = .milliseconds(500)
            $0.typing.activityTTL = .seconds(60)
        }) { server in
            try await Self.group(on: server) { id, alice, bob, clawd in
                clawd.send(.activity(.init(conversation: id, activity: .typing)))
                clawd.send(.stream(.init(conversation: id, messageId: "r3", delta: "Thinking out loud")))
                let ends = [try await Self.end(of: alice, reply: "r3"), try await Self.end(of: bob, reply: "r3")]
                #expect(ends[0] == ends[1])
                #expect(ends[0].end == .timedOut && ends[0].by == nil && ends[0].seq == 2)
                try await alice.activity(in: id) { $0.isEmpty }
                clawd.send(.stream(.init(conversation: id, messageId: "r3", delta: " again")))
                let refusal = try await clawd.error()
                #expect(refusal.code == .turnEnded && refusal.message.contains("timed_out"))
            }
        }
    }

    @Test func aFailedEndCarriesTheBotsReasonAndStoresNothing() async throws {
        try await TestServer.run(configure: { $0.messages.replyTimeout = .seconds(60) }) { server in
            try await Self.group(on: server) { id, alice, bob, clawd in
                clawd.send(.stream(.init(conversation: id, messageId: "r4", delta: "Half a")))
                clawd.send(
                    .stream(.init(conversation: id, messageId: "r4", delta: "", isFinal: true, end: .failed, reason: "The model is down.")))
                let end = try await Self.end(of: alice, reply: "r4")
                #expect(end.end == .failed && end.reason == "The model is down.")
                try await Self.expectNothingStored(in: id, from: bob, seenBy: alice)
                // A bot may not claim the server's end, nor end a part that is not final.
                clawd.send(.stream(.init(conversation: id, messageId: "r5", delta: "", isFinal: true, end: .timedOut)))
                #expect(try await clawd.error().code == .invalidField)
            }
        }
    }

    @Test(arguments: [true, false])
    func aSocketThatSubscribesMidReplyGetsTheTextSoFarThenTheLiveParts(storesMessages: Bool) async throws {
        try await TestServer.run(configure: {
            $0.storage.storesMessages = storesMessages
            $0.messages.replyTimeout = .seconds(60)
        }) { server in
            try await Self.group(on: server) { id, alice, _, clawd in
                clawd.send(.stream(.init(conversation: id, messageId: "r6", delta: "One ", asker: "alice")))
                clawd.send(.stream(.init(conversation: id, messageId: "r6", delta: "two ")))
                try await alice.next { if case .stream(let part) = $0 { part.seq == 2 } else { false } }
                // Bob's phone comes back (a new socket) in the middle of the reply.
                let phone = try await server.subscribedSocket("bob", to: id)
                let catchUp = try await phone.next { if case .stream = $0 { true } else { false } }
                #expect(
                    catchUp
                        == .stream(
                            .init(
                                conversation: id, messageId: "r6", user: "clawd", delta: "", final: false, seq: 2, asker: "alice",
                                text: "One two ")))
                clawd.send(.stream(.init(conversation: id, messageId: "r6", delta: "three", isFinal: true)))
                let end = try await Self.end(of: phone, reply: "r6")
                #expect(end.delta == "three" && end.seq == 3 && end.end == .finished)
                let frames = await phone.received
                let subscribedAt = try #require(frames.firstIndex { $0.contains(#""type":"subscribed""#) })
                let catchUpAt = try #require(frames.firstIndex { $0.contains(#""text":"One two ""#) })
                #expect(subscribedAt < catchUpAt, "the catch-up follows subscribed")
            }
        }
    }

    @Test func aBotWhoseSocketDropsMidReplyGoesOnFromANewSocketWithTheNextPart() async throws {
        try await TestServer.run(configure: { $0.messages.replyTimeout = .seconds(60) }) { server in
            try await Self.group(on: server) { id, alice, _, clawd in
                clawd.send(.stream(.init(conversation: id, messageId: "r7", delta: "Before the tunnel, ")))
                try await alice.next { if case .stream(let part) = $0 { part.messageId == "r7" && part.seq == 1 } else { false } }
                clawd.kill()
                // Its only socket is gone; the reply is held for the timeout, and a new socket goes on with it.
                let back = try await server.subscribedSocket("clawd", to: id)
                back.send(.stream(.init(conversation: id, messageId: "r7", delta: "after it.", isFinal: true)))
                let end = try await Self.end(of: alice, reply: "r7")
                #expect(end.seq == 2 && end.end == .finished && end.delta == "after it.")
                try await alice.next {
                    if case .message(let message) = $0 { message.text == "Before the tunnel, after it." } else { false }
                }
            }
        }
    }

    @Test func aBotWhoseSocketDropsMidReplyAndDoesNotComeBackIsTimedOutForEveryMember() async throws {
        try await TestServer.run(configure: {
            $0.messages.replyTimeout = .milliseconds(500)
            $0.typing.activityTTL = .seconds(60)
        }) { server in
            try await Self.group(on: server) { id, alice, bob, clawd in
                clawd.send(.stream(.init(conversation: id, messageId: "r8", delta: "Into the tunnel")))
                try await bob.next { if case .stream(let part) = $0 { part.messageId == "r8" } else { false } }
                clawd.kill()
                let ends = [try await Self.end(of: alice, reply: "r8"), try await Self.end(of: bob, reply: "r8")]
                #expect(ends[0] == ends[1], "one end, the same for every member")
                #expect(ends[0].end == .timedOut && ends[0].seq == 2)
                try await Self.expectNothingStored(in: id, from: bob, seenBy: alice)
            }
        }
    }
}
