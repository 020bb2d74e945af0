import Foundation
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

/// Membership, blocking and privacy, changed through REST and enforced on the socket.
@Suite("typewire serve: conversation rules", .timeLimit(.minutes(1)))
struct ConversationRulesTests {
    static let group = "group-six"

    func typing(_ conversation: String = group) -> ClientFrame {
        .activity(.init(conversation: conversation, activity: .typing))
    }

    @Test func removalMidTypingClearsAtOnceAndEndsTheSubscription() async throws {
        // A ttl of a minute: an indicator gone within the wait was cleared by the removal, not by expiry.
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            let bob = try await server.subscribedSocket("bob", to: Self.group)
            let carol = try await server.subscribedSocket("carol", to: Self.group)
            carol.send(typing())
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["carol"] }
            let removal = try await server.request("DELETE", "/v1/conversations/\(Self.group)/participants/carol", as: "alice")
            #expect(removal.status == 204)
            try await bob.activity(in: Self.group) { $0.isEmpty }
            let notice = try await carol.error()
            #expect(notice.code == .unknownConversation && notice.ref == Self.group)
            carol.send(typing())
            #expect(try await carol.error().code == .unknownConversation)
            carol.send(.subscribe(.init(conversation: Self.group)))
            #expect(try await carol.error().code == .unknownConversation)
        }
    }

    @Test func onlyTheCreatorChangesMembership() async throws {
        try await TestServer.run { server in
            let byMember = try await server.request(
                "POST", "/v1/conversations/\(Self.group)/participants", as: "bob", json: #"{"user":"zed"}"#)
            #expect(byMember.status == 403)
            let byStranger = try await server.request(
                "POST", "/v1/conversations/direct-alice-bob/participants", as: "carol", json: #"{"user":"zed"}"#)
            #expect(byStranger.status == 404, "a stranger learns nothing, not even that it exists")
            let missing = try await server.request("GET", "/v1/conversations/nope/participants", as: "carol")
            #expect(missing.status == byStranger.status)
            let byCreator = try await server.request(
                "POST", "/v1/conversations/\(Self.group)/participants", as: "alice", json: #"{"user":"zed"}"#)
            #expect(byCreator.status == 204)
            let zed = try await server.subscribedSocket("zed", to: Self.group)
            zed.send(typing())
            let leave = try await server.request("DELETE", "/v1/conversations/\(Self.group)/participants/bob", as: "bob")
            #expect(leave.status == 204, "anyone may leave")
            let unauthenticated = try await server.request("GET", "/v1/conversations", as: nil)
            #expect(unauthenticated.status == 401)
        }
    }

    /// Bob, who blocked Alice, and Dave, both subscribed to the group; Alice and Carol, only connected.
    func groupWhereBobBlockedAlice(on server: TestServer) async throws -> (TestSocket, TestSocket, TestSocket, TestSocket) {
        #expect(try await server.request("PUT", "/v1/blocks/alice", as: "bob").status == 204)
        let bob = try await server.subscribedSocket("bob", to: Self.group)
        let dave = try await server.subscribedSocket("dave", to: Self.group)
        return (bob, dave, try await server.socket("alice"), try await server.socket("carol"))
    }

    @Test func aBlockerNeverReceivesTheBlockedUsersActivityOrPresence() async throws {
        try await TestServer.run { server in
            let (bob, dave, alice, carol) = try await groupWhereBobBlockedAlice(on: server)
            alice.send(typing())
            try await dave.activity(in: Self.group) { $0.map(\.user) == ["alice"] }
            carol.send(typing())
            try await dave.activity(in: Self.group) { $0.map(\.user) == ["alice", "carol"] }
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["carol"] }
            let seen = await bob.received
            #expect(!seen.contains { $0.contains(#""user":"alice""#) }, "no activity and no presence of Alice reached Bob")
            let frames = seen.filter { $0.contains(#""type":"activity""#) }
            #expect(frames.count == 1, "only Carol's typing: an empty frame when Alice typed would tell Bob she did (\(frames))")
            #expect(try await server.request("DELETE", "/v1/blocks/alice", as: "bob").status == 204)
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["alice", "carol"] }
        }
    }

    @Test func aBlockerWhoTypesIsToldNothingWhenTheBlockedUserTypes() async throws {
        try await TestServer.run { server in
            let (bob, dave, alice, carol) = try await groupWhereBobBlockedAlice(on: server)
            bob.send(typing())  // not sent back to Bob, yet his view with himself in it is what he shows
            try await dave.activity(in: Self.group) { $0.map(\.user) == ["bob"] }
            alice.send(typing())
            try await dave.activity(in: Self.group) { $0.map(\.user) == ["bob", "alice"] }
            carol.send(typing())
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["bob", "carol"] }
            let frames = await bob.received.filter { $0.contains(#""type":"activity""#) }
            #expect(frames.count == 1, "only Carol's typing: a frame when Alice typed would tell Bob she did (\(frames))")
        }
    }

    @Test func sharingOffMeansNothingIsFannedOut() async throws {
        try await TestServer.run { server in
            let settings = try await server.request("PUT", "/v1/settings", as: "alice", json: #"{"shareTyping":false}"#)
            #expect(settings.status == 200)
            #expect(try await server.request("GET", "/v1/settings", as: "alice").body.contains(#""shareTyping":false"#))
            let bob = try await server.subscribedSocket("bob", to: Self.group)
            let alice = try await server.socket("alice")
            let carol = try await server.socket("carol")
            alice.send(typing())
            // Her subscribe is answered after her activity was handled (one socket's frames are handled in
            // order), so a leak of it to Bob would come before Carol's typing, which he waits for.
            alice.send(.subscribe(.init(conversation: Self.group)))
            try await alice.next { if case .subscribed = $0 { true } else { false } }
            carol.send(typing())
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["carol"] }
            #expect(!(await bob.received).contains { $0.contains(#""user":"alice""#) && $0.contains("activity") })
        }
    }

    @Test func turningSharingOffClearsWhatWasShown() async throws {
        // A minute: cleared by the setting, not by expiry.
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            let bob = try await server.subscribedSocket("bob", to: Self.group)
            let alice = try await server.socket("alice")
            alice.send(typing())
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["alice"] }
            _ = try await server.request("PUT", "/v1/settings", as: "alice", json: #"{"shareTyping":false}"#)
            try await bob.activity(in: Self.group) { $0.isEmpty }
        }
    }

    @Test func aUserBlocksAtMostTheLimitAndAnUnblockMakesRoom() async throws {
        try await TestServer.run(configure: { $0.conversations.maxBlocksPerUser = 3 }) { server in
            for user in ["u1", "u2", "u3", "u1"] {
                #expect(try await server.request("PUT", "/v1/blocks/\(user)", as: "mallory").status == 204, "\(user)")
            }
            let refused = try await server.request("PUT", "/v1/blocks/u4", as: "mallory")
            #expect(refused.status == 409)
            #expect(refused.body.contains("You have blocked 3 users"), "\(refused.body)")
            #expect(try await server.request("DELETE", "/v1/blocks/u2", as: "mallory").status == 204)
            #expect(try await server.request("PUT", "/v1/blocks/u4", as: "mallory").status == 204)
            #expect(try await server.request("PUT", "/v1/blocks/u5", as: "bob").status == 204, "the limit is each user's")
        }
    }

    @Test func userIDsInThePathArePercentDecoded() async throws {
        // A Cyrillic "а" in place of the Latin "a": the id must be percent-encoded in a path.
        let lookalike = "\u{430}lice"
        try await TestServer.run { server in
            let created = try await server.request(
                "POST", "/v1/conversations", as: "bob", json: #"{"kind":"group","title":"Quiz","members":["\#(lookalike)","carol"]}"#
            )
            let group = try JSONDecoder().decode(Conversation.self, from: Data(created.body.utf8)).id
            #expect(try await server.request("PUT", "/v1/blocks/%D0%B0lice", as: "bob").status == 204)
            let bob = try await server.subscribedSocket("bob", to: group)
            let carol = try await server.subscribedSocket("carol", to: group)
            let blocked = try await server.subscribedSocket(lookalike, to: group)
            blocked.send(typing(group))
            try await carol.activity(in: group) { $0.map(\.user) == [lookalike] }
            carol.send(typing(group))
            try await bob.activity(in: group) { $0.map(\.user) == ["carol"] }
            let seenByBob = await bob.received.compactMap { try? FrameCodec.decodeServerFrame(Data($0.utf8)) }
            let sawBlocked = seenByBob.contains { frame in
                switch frame {
                case .activity(let update): update.entries.contains { $0.user == lookalike }
                case .presence(let presence): presence.user == lookalike
                default: false
                }
            }
            #expect(!sawBlocked, "the block was stored under the decoded id")
            #expect(try await server.request("DELETE", "/v1/conversations/\(group)/participants/%D0%B0lice", as: "bob").status == 204)
            #expect(try await blocked.error().code == .unknownConversation, "and the removal acted on it")
        }
    }

    @Test func aDirectConversationStaysBetweenTwoAndAGroupKeepsItsAdmin() async throws {
        try await TestServer.run { server in
            let third = try await server.request(
                "POST", "/v1/conversations/direct-alice-bob/participants", as: "alice", json: #"{"user":"carol"}"#)
            #expect(third.status == 400 && third.body.contains("exactly two"), "a third person would read the whole history")
            #expect(try await server.request("DELETE", "/v1/conversations/direct-alice-bob/participants/bob", as: "bob").status == 400)
            let creatorLeaves = try await server.request("DELETE", "/v1/conversations/\(Self.group)/participants/alice", as: "alice")
            #expect(creatorLeaves.status == 409 && creatorLeaves.body.contains("admin"), "the group would have nobody to manage it")
            #expect(try await server.request("DELETE", "/v1/conversations/\(Self.group)/participants/bob", as: "bob").status == 204)
        }
    }

    @Test func creatingAConversationHasLimits() async throws {
        try await TestServer.run(configure: { $0.conversations.maxMembers = 3 }) { server in
            let tooMany = try await server.request(
                "POST", "/v1/conversations", as: "erin", json: #"{"kind":"group","members":["a","b","c"]}"#)
            #expect(tooMany.status == 400 && tooMany.body.contains("at most 3"))
            let longTitle = String(repeating: "t", count: 201)
            let titled = try await server.request(
                "POST", "/v1/conversations", as: "erin", json: #"{"kind":"group","title":"\#(longTitle)","members":["a"]}"#)
            #expect(titled.status == 400 && titled.body.contains("title"))
            #expect(try await server.request("PUT", "/v1/blocks/erin", as: "frank").status == 204)
            let unwanted = try await server.request(
                "POST", "/v1/conversations", as: "erin", json: #"{"kind":"direct","members":["frank"]}"#)
            #expect(unwanted.status == 403, "Frank blocked Erin: she cannot open a direct conversation with him")
            #expect(
                try await server.request("POST", "/v1/conversations", as: "erin", json: #"{"kind":"group","members":["a","b"]}"#).status
                    == 201)
        }
    }

    @Test func participantsSayWhoIsOnline() async throws {
        try await TestServer.run { server in
            let alice = try await server.socket("alice")
            defer { alice.close() }
            let listed = try await server.request("GET", "/v1/conversations/\(Self.group)/participants", as: "bob")
            let participants =
                try JSONDecoder().decode([String: [ConversationMember]].self, from: Data(listed.body.utf8))["participants"] ?? []
            #expect(participants.filter(\.online).map(\.id) == ["alice"])
            #expect(try await server.request("PUT", "/v1/blocks/alice", as: "bob").status == 204)
            let again = try await server.request("GET", "/v1/conversations/\(Self.group)/participants", as: "bob")
            let seenByBlocker =
                try JSONDecoder().decode([String: [ConversationMember]].self, from: Data(again.body.utf8))["participants"] ?? []
            #expect(
                seenByBlocker.count == 6 && seenByBlocker.allSatisfy { !$0.online }, "a blocked user's presence is not shown to the blocker"
            )
        }
    }

    @Test func conversationsAreCreatedListedAndPaged() async throws {
        try await TestServer.run { server in
            let created = try await server.request(
                "POST", "/v1/conversations", as: "erin", json: #"{"kind":"group","title":"Book club","members":["frank","dave"]}"#)
            #expect(created.status == 201)
            let conversation = try JSONDecoder().decode(Conversation.self, from: Data(created.body.utf8))
            #expect(conversation.creator == "erin" && conversation.title == "Book club")
            let list = try await server.request("GET", "/v1/conversations", as: "frank")
            #expect(list.body.contains(conversation.id))
            let badDirect = try await server.request(
                "POST", "/v1/conversations", as: "erin", json: #"{"kind":"direct","members":["a","b"]}"#)
            #expect(badDirect.status == 400)
            let erin = try await server.socket("erin")
            for index in 1...5 {
                erin.send(.send(.init(conversation: conversation.id, clientMessageId: "m\(index)", text: "message \(index)")))
                try await erin.next { if case .ack(let ack) = $0 { ack.clientMessageId == "m\(index)" } else { false } }
            }
            let page = try await server.request("GET", "/v1/conversations/\(conversation.id)/messages?limit=2", as: "dave")
            let latest = try JSONDecoder().decode([String: [ChatMessage]].self, from: Data(page.body.utf8))["messages"] ?? []
            #expect(latest.map(\.text) == ["message 4", "message 5"])
            let older = try await server.request(
                "GET", "/v1/conversations/\(conversation.id)/messages?limit=2&before=\(latest[0].id)", as: "dave")
            let earlier = try JSONDecoder().decode([String: [ChatMessage]].self, from: Data(older.body.utf8))["messages"] ?? []
            #expect(earlier.map(\.text) == ["message 2", "message 3"])
        }
    }

    @Test func aBlockChangeSendsAFrameOnlyWhereTheBlockersViewChanged() async throws {
        // A minute: cleared by the stop, not by expiry.
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            let bob = try await server.subscribedSocket("bob", to: Self.group)
            bob.send(.subscribe(.init(conversation: "direct-alice-bob")))
            try await bob.next { if case .subscribed = $0 { true } else { false } }
            let alice = try await server.socket("alice")
            alice.send(typing())
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["alice"] }
            let before = await bob.received.filter { $0.contains(#""type":"activity""#) }.count
            #expect(try await server.request("PUT", "/v1/blocks/alice", as: "bob").status == 204)
            try await bob.activity(in: Self.group) { $0.isEmpty }
            let carol = try await server.socket("carol")
            carol.send(typing())
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["carol"] }
            let after = await bob.received.filter { $0.contains(#""type":"activity""#) }.count
            #expect(after - before == 2, "the group's view without Alice, then Carol; nothing for the direct chat where Alice does nothing")
        }
    }

    @Test func restRequestsAndNewConversationsAreLimitedPerUser() async throws {
        try await TestServer.run(configure: {
            $0.http.requestsPerUser.burst = 3
            $0.http.requestsPerUser.rate = 0.01
            $0.conversations.createdPerMinute = 1
        }) { server in
            let create = #"{"kind":"group","title":"t","members":["bob"]}"#
            #expect(try await server.request("POST", "/v1/conversations", as: "alice", json: create).status == 201)
            let second = try await server.request("POST", "/v1/conversations", as: "alice", json: create)
            #expect(second.status == 429 && second.body.contains("within a minute"))
            #expect(try await server.request("GET", "/v1/conversations", as: "alice").status == 200)
            let fourth = try await server.request("GET", "/v1/conversations", as: "alice")
            #expect(fourth.status == 429 && fourth.body.contains("requests a second"))
            #expect(try await server.request("GET", "/v1/conversations", as: "bob").status == 200, "Alice's requests cost Bob nothing")
        }
    }
}
