import Foundation
import NIOConcurrencyHelpers
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

@Suite("typewire serve: webhooks to the app's backend", .timeLimit(.minutes(1)))
struct WebhookDeliveryTests {
    static let direct = "direct-alice-bob"
    static let bot = "bot-clawd"
    static let secret = "webhook-test-secret-0123456789abcdef"

    /// A server whose webhooks go to the receiver, retried after 20-100 ms.
    private func run(
        with receiver: WebhookReceiver, concurrency: Int = 32, giveUpAfter: Duration = .seconds(3_600),
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping (TestServer) async throws -> Void
    ) async throws {
        try await receiver.serve { url in
            try await TestServer.run(configure: {
                configure(&$0)
                $0.webhooks.concurrency = concurrency
                $0.serverAPI.key = Self.apiKey
                $0.webhooks.endpoints = [url]
                $0.webhooks.secret = Self.secret
                $0.webhooks.retry = WebhookRetryPolicy(
                    firstDelay: .milliseconds(40), maxDelay: .milliseconds(100), giveUpAfter: giveUpAfter)
                $0.webhooks.pollInterval = .milliseconds(200)
            }) { server in try await body(server) }
        }
    }

    @Test func aMessageReachesTheBackendSignedAndNamesWhoWasOffline() async throws {
        let receiver = WebhookReceiver()
        try await run(with: receiver) { server in
            let alice = try await server.socket("alice")
            _ = try await receiver.event("presence.changed") { $0.data["user"] as? String == "alice" && $0.data["online"] as? Bool == true }
            alice.send(.send(.init(conversation: Self.direct, clientMessageId: "m1", text: "Are you there?")))
            let created = try await receiver.event("message.created")
            #expect(created.data["offline"] as? [String] == ["bob"], "bob had no socket open")
            #expect((created.data["message"] as? [String: Any])?["text"] as? String == "Are you there?")
            #expect(created.headers["typewire-event-id"] == created.id)
            #expect(created.headers["typewire-event-type"] == "message.created")
            #expect(created.headers["content-type"] == "application/json")
            let signature = try #require(created.headers["typewire-signature"])
            let now = Int64(Date().timeIntervalSince1970)
            #expect(WebhookSignature.isValid(headerValue: signature, body: Array(created.body.utf8), secret: Self.secret, now: now))
            #expect(!WebhookSignature.isValid(headerValue: signature, body: Array(created.body.utf8), secret: Self.secret + "!", now: now))

            let bob = try await server.socket("bob")
            _ = try await receiver.event("presence.changed") { $0.data["user"] as? String == "bob" }
            alice.send(.send(.init(conversation: Self.direct, clientMessageId: "m2", text: "Hi!")))
            let second = try await receiver.event("message.created") { ($0.data["message"] as? [String: Any])?["text"] as? String == "Hi!" }
            #expect(second.data["offline"] as? [String] == [], "bob is online now")
            bob.close()
            _ = try await receiver.event("presence.changed") { $0.data["user"] as? String == "bob" && $0.data["online"] as? Bool == false }
            #expect(Set(receiver.takenEvents.compactMap(\.id)).count == receiver.takenEvents.count, "every event id is unique")
        }
    }

    @Test func aReceiverThatFailsGetsTheSameEventAgainUntilItTakesIt() async throws {
        let receiver = WebhookReceiver()
        receiver.answer { $0 < 3 ? 503 : 200 }
        try await run(with: receiver) { server in
            let alice = try await server.socket("alice")
            let created = try await receiver.event("presence.changed")
            let attempts = receiver.deliveries.filter { $0.id == created.id }
            #expect(attempts.map(\.status) == [503, 503, 503, 200], "one event, tried until taken")
            #expect(attempts.map { $0.headers["typewire-delivery-attempt"] } == ["1", "2", "3", "4"])
            #expect(Set(attempts.map(\.body)).count == 1, "the same document each time")
            alice.send(.send(.init(conversation: Self.direct, clientMessageId: "m1", text: "hi")))
            _ = try await receiver.event("message.created")
            // The node counts a delivery once the receiver's answer is back, a moment after the receiver has it.
            var metrics = ""
            try await eventually {
                metrics = try await server.request("GET", "/metrics", as: nil).body
                return metrics.contains("typewire_webhook_delivered_total 2")
            }
            #expect(
                metrics.contains("typewire_webhook_retried_total 3"), "\(metrics.split(separator: "\n").filter { $0.contains("webhook") })")
        }
    }

    /// A delivery the receiver never takes is given up once it is older than the retry policy allows (24 h
    /// by default, 1 s here), counted, and never sent again, also once the receiver takes deliveries.
    @Test func aDeliveryNeverTakenIsGivenUpAfterItsTimeAndNoLongerWaits() async throws {
        let receiver = WebhookReceiver()
        let refusing = NIOLockedValueBox(true)
        // The first message is refused for good: an attempt of it already on its way when it is given up may
        // land at any time, and must not be taken. Everything else is refused until the backend is "back".
        receiver.answerByContent { delivery in
            let text = (delivery.data["message"] as? [String: Any])?["text"] as? String
            return text == "never taken" || refusing.withLockedValue({ $0 }) ? 503 : 200
        }
        try await run(with: receiver, giveUpAfter: .seconds(1)) { server in
            let alice = try await server.socket("alice")
            alice.send(.send(.init(conversation: Self.direct, clientMessageId: "m1", text: "never taken")))
            _ = try await alice.next { if case .ack = $0 { true } else { false } }
            // Her presence's event and the message's, each given up after its second: by its last attempt
            // (failed), or unsent by the outbox's trim (discarded) once the endpoint's circuit opened after 5
            // failures in a row and only one of them is probed.
            try await eventually {
                try await server.metric("typewire_webhook_failed_total") + server.metric("typewire_webhook_discarded_total") >= 2
            }
            refusing.withLockedValue { $0 = false }
            alice.send(.send(.init(conversation: Self.direct, clientMessageId: "m2", text: "taken")))
            _ = try await receiver.event("message.created") { ($0.data["message"] as? [String: Any])?["text"] as? String == "taken" }
            // Given up means gone from the outbox: were it kept, it would be tried (and refused) for ever.
            try await eventually { try await server.metric("typewire_webhook_pending") == 0 }
            #expect(receiver.deliveries.contains { $0.status == 503 }, "it was tried before it was given up")
        }
    }

    @Test func aBotsStreamedReplyStartsAndFinishes() async throws {
        let receiver = WebhookReceiver()
        try await run(with: receiver) { server in
            let clawd = try await server.socket("clawd")
            for (index, word) in ["Hello ", "there"].enumerated() {
                clawd.send(.stream(.init(conversation: Self.bot, messageId: "r1", delta: word, isFinal: index == 1)))
            }
            let started = try await receiver.event("reply.started")
            #expect(started.data as NSDictionary == ["conversation": Self.bot, "replyId": "r1", "bot": "clawd"] as NSDictionary)
            let finished = try await receiver.event("reply.finished")
            #expect(finished.data["replyId"] as? String == "r1")
            let created = try await receiver.event("message.created")
            #expect((created.data["message"] as? [String: Any])?["text"] as? String == "Hello there")
            #expect(receiver.takenEvents.filter { $0.type == "reply.started" }.count == 1, "one start per reply")
        }
    }

    @Test func aReplyThatDidNotFinishTellsTheBackendHowItEnded() async throws {
        let receiver = WebhookReceiver()
        // Long enough that the cancelled reply (a round trip to Alice and back to the bot) is not timed out first
        // on a loaded machine; the third reply waits it out once.
        try await run(with: receiver, configure: { $0.messages.replyTimeout = .seconds(3) }) { server in
            let alice = try await server.subscribedSocket("alice", to: Self.bot)
            let clawd = try await server.socket("clawd")
            func finished(_ reply: String) async throws -> [String: Any] {
                try await receiver.event("reply.finished") { $0.data["replyId"] as? String == reply }.data
            }
            clawd.send(.stream(.init(conversation: Self.bot, messageId: "r2", delta: "Half")))
            clawd.send(
                .stream(.init(conversation: Self.bot, messageId: "r2", delta: "", isFinal: true, end: .failed, reason: "Model down.")))
            let failed = try await finished("r2")
            #expect(failed["end"] as? String == "failed" && failed["reason"] as? String == "Model down." && failed["by"] == nil)

            clawd.send(.stream(.init(conversation: Self.bot, messageId: "r3", delta: "Once", asker: "alice")))
            try await alice.next { if case .stream(let part) = $0 { part.messageId == "r3" } else { false } }
            alice.send(.cancel(.init(conversation: Self.bot, messageId: "r3")))
            try await clawd.next { if case .cancel = $0 { true } else { false } }
            clawd.send(.stream(.init(conversation: Self.bot, messageId: "r3", delta: "", isFinal: true, end: .cancelled)))
            let cancelled = try await finished("r3")
            #expect(cancelled["end"] as? String == "cancelled" && cancelled["by"] as? String == "alice")

            clawd.send(.stream(.init(conversation: Self.bot, messageId: "r4", delta: "Silence follows")))
            let timedOut = try await finished("r4")
            #expect(timedOut["end"] as? String == "timed_out" && timedOut["bot"] as? String == "clawd")
        }
    }

    @Test func membersJoiningAndLeavingAreOneEventPerChange() async throws {
        let receiver = WebhookReceiver()
        try await run(with: receiver, concurrency: 1) { server in
            let created = try await server.request(
                "POST", "/v1/conversations", as: "alice", json: #"{"kind":"group","title":"Plans","members":["bob","carol"]}"#)
            #expect(created.status == 201)
            let made = try await receiver.event("conversation.members_changed")
            #expect(made.data["added"] as? [String] == ["alice", "bob", "carol"])
            let id = try #require(made.data["conversation"] as? String)
            #expect(created.body.contains(id))
            #expect(try await server.request("DELETE", "/v1/conversations/\(id)/participants/carol", as: "alice").status == 204)
            let left = try await receiver.event("conversation.members_changed") { $0.data["removed"] as? [String] == ["carol"] }
            #expect(left.data["added"] as? [String] == [])
            #expect(left.data["deleted"] as? Bool == false)
            // A third change, as a marker: delivered one at a time in order, so once it is taken every event
            // before it is, and there is one per change.
            let added = try await server.request("POST", "/v1/conversations/\(id)/participants", as: "alice", json: #"{"user":"dave"}"#)
            #expect(added.status == 204)
            _ = try await receiver.event("conversation.members_changed") { $0.data["added"] as? [String] == ["dave"] }
            let changes = receiver.takenEvents.filter { $0.type == "conversation.members_changed" }
            #expect(changes.count == 3, "one event per change: \(changes.map(\.body))")
        }
    }

    static let apiKey = "webhook-tests-server-api-key-0123456789abcdef"

    @Test func anEditIsOneMessageEditedEventWithTheNewText() async throws {
        let receiver = WebhookReceiver()
        try await run(with: receiver) { server in
            let alice = try await server.subscribedSocket("alice", to: Self.direct)
            alice.send(.send(.init(conversation: Self.direct, clientMessageId: "m1", text: "See you at 7")))
            let ack = try await alice.next { if case .ack(let ack) = $0 { ack.clientMessageId == "m1" } else { false } }
            guard case .ack(let stored) = ack else { return }
            alice.send(.edit(.init(conversation: Self.direct, messageId: stored.messageId, text: "See you at 8")))
            let edited = try await receiver.event("message.edited")
            let message = try #require(edited.data["message"] as? [String: Any])
            #expect(message["id"] as? String == stored.messageId && message["text"] as? String == "See you at 8")
            #expect(message["editedAt"] is NSNumber, "the edit's time, to order it by")
            #expect(edited.headers["typewire-event-type"] == "message.edited")
        }
    }

    @Test func aDeletedConversationIsOneMembersChangedEventMarkedDeleted() async throws {
        let receiver = WebhookReceiver()
        try await run(with: receiver, concurrency: 1) { server in
            let created = try await server.request(
                "POST", "/v1/conversations", as: "alice", json: #"{"kind":"group","title":"Gone soon","members":["bob"]}"#)
            #expect(created.status == 201)
            let made = try await receiver.event("conversation.members_changed")
            let id = try #require(made.data["conversation"] as? String)
            #expect(try await server.serverRequest("DELETE", "/conversations/\(id)", key: Self.apiKey).status == 204)
            let deleted = try await receiver.event("conversation.members_changed") { $0.data["deleted"] as? Bool == true }
            #expect(deleted.data["conversation"] as? String == id)
            #expect(Set(deleted.data["removed"] as? [String] ?? []) == ["alice", "bob"], "everyone left with it")
            #expect(deleted.data["added"] as? [String] == [])
        }
    }

    @Test func aRedirectIsAFailedAttemptAndNotFollowed() async throws {
        let elsewhere = WebhookReceiver()
        try await elsewhere.serve { otherURL in
            let receiver = WebhookReceiver()
            try await run(with: receiver) { server in
                receiver.redirect(to: otherURL)
                let alice = try await server.socket("alice")
                alice.send(.send(.init(conversation: Self.direct, clientMessageId: "m1", text: "signed for one place")))
                // A second attempt: the first's outcome was a failure, and a followed redirect would have
                // reached the other receiver before it.
                try await eventually { receiver.deliveries.filter { $0.type == "message.created" }.count >= 2 }
                #expect(elsewhere.deliveries.isEmpty, "a signed event goes only where it was configured to")
            }
        }
    }

    /// `message.read` when asked for: one event per read, and while the backend is down a member's later
    /// read of a timeline replaces the one waiting.
    @Test func aReadIsOneEventAndReadsWhileTheBackendIsDownAreItsNewest() async throws {
        let receiver = WebhookReceiver()
        try await run(with: receiver, configure: { $0.webhooks.events = [.messageRead, .messageCreated] }) { server in
            let alice = try await server.subscribedSocket("alice", to: Self.direct)
            let bob = try await server.socket("bob")  // follows read state: its `unread` says a read was stored
            bob.send(.subscribe(.init(conversation: Self.direct, readState: true)))
            _ = try await bob.next { if case .subscribed = $0 { true } else { false } }
            var sent: [String] = []
            for text in ["one", "two", "three"] {
                alice.send(.send(.init(conversation: Self.direct, clientMessageId: text, text: text)))
                let ack = try await alice.next { if case .ack(let ack) = $0 { ack.clientMessageId == text } else { false } }
                guard case .ack(let stored) = ack else { return }
                sent.append(stored.messageId)
            }
            let ids = sent
            bob.send(.read(.init(conversation: Self.direct, messageId: ids[0])))
            let first = try await receiver.event("message.read")
            #expect(first.data["user"] as? String == "bob" && first.data["messageId"] as? String == ids[0])
            #expect(first.data["private"] as? Bool == false && first.data["at"] is NSNumber)

            receiver.answer { _ in 503 }  // the backend is down: the next reads wait in the outbox
            bob.send(.read(.init(conversation: Self.direct, messageId: ids[1])))
            bob.send(.read(.init(conversation: Self.direct, messageId: ids[2], isPrivate: true)))
            // The newest read reached the outbox (it was tried, and refused) in place of the one before it: one
            // delivery waits, not two. (Whether the older one is ever taken is not asked: an attempt of it may
            // be on its way when it is replaced, and land after the backend is back.)
            try await eventually {
                receiver.deliveries.contains { $0.type == "message.read" && $0.data["messageId"] as? String == ids[2] }
            }
            try await eventually { try await server.metric("typewire_webhook_pending") == 1 }
            receiver.answer { _ in 200 }
            let newest = try await receiver.event("message.read") { $0.data["messageId"] as? String == ids[2] }
            #expect(newest.data["private"] as? Bool == true, "only bob's own count moved")
            alice.close()
            bob.close()
        }
    }

    /// `unread.reminder` when asked for: a message still unread its delay after it was sent names who has
    /// not read it; one that everyone read is not reminded.
    @Test func aMessageStillUnreadAfterItsDelayIsRemindedAndAReadOneIsNot() async throws {
        let receiver = WebhookReceiver()
        try await run(
            with: receiver, concurrency: 1,  // in the order they were made: the read message's reminder would come first
            configure: {
                $0.webhooks.events = [.unreadReminder]
                $0.webhooks.unreadReminderAfter = .seconds(1)
            }
        ) { server in
            let alice = try await server.subscribedSocket("alice", to: Self.direct)
            let bob = try await server.socket("bob")
            bob.send(.subscribe(.init(conversation: Self.direct, readState: true)))
            _ = try await bob.next { if case .subscribed = $0 { true } else { false } }
            func send(_ text: String) async throws -> String {
                alice.send(.send(.init(conversation: Self.direct, clientMessageId: text, text: text)))
                let ack = try await alice.next { if case .ack(let ack) = $0 { ack.clientMessageId == text } else { false } }
                guard case .ack(let stored) = ack else {
                    Issue.record("no ack for \(text)")
                    return ""
                }
                return stored.messageId
            }
            let read = try await send("Lunch?")
            bob.send(.read(.init(conversation: Self.direct, messageId: read)))
            _ = try await bob.next { if case .unread(let unread) = $0 { unread.messageId == read } else { false } }  // stored
            let unread = try await send("Still on for lunch?")
            let reminder = try await receiver.event("unread.reminder")
            #expect(reminder.data["messageId"] as? String == unread, "the read message is not reminded")
            #expect(reminder.data["users"] as? [String] == ["bob"])
            #expect(reminder.data["sender"] as? String == "alice" && reminder.data["conversation"] as? String == Self.direct)
            alice.close()
            bob.close()
        }
    }

    @Test func typingIsNotSentUnlessAskedFor() async throws {
        let receiver = WebhookReceiver()
        // One delivery at a time, in the order the events were made: once Alice's offline event (written after
        // her typing's change, by the same writer) is taken, an activity.changed event would have been too.
        try await run(with: receiver, concurrency: 1) { server in
            let alice = try await server.socket("alice")
            alice.send(.activity(.init(conversation: Self.direct, activity: .typing)))
            alice.send(.send(.init(conversation: Self.direct, clientMessageId: "m1", text: "hi")))
            _ = try await receiver.event("message.created")
            alice.close()
            _ = try await receiver.event("presence.changed") {
                $0.document["data"].flatMap { ($0 as? [String: Any])?["online"] as? Bool } == false
            }
            #expect(!receiver.deliveries.contains { $0.type == "activity.changed" })
        }
    }
}

@Suite("typewire serve: activity webhooks, when asked for", .timeLimit(.minutes(1)))
struct ActivityWebhookTests {
    @Test func changesAreSentWithinTheConversationsBudgetAndRefreshesAreNot() async throws {
        let receiver = WebhookReceiver()
        try await receiver.serve { url in
            try await TestServer.run(configure: {
                $0.webhooks.endpoints = [url]
                $0.webhooks.secret = WebhookDeliveryTests.secret
                $0.webhooks.events = [.activityChanged, .presenceChanged]
                $0.webhooks.activityEvents = RateBudget(rate: 0.001, burst: 2)
                $0.webhooks.concurrency = 1  // one at a time, in the order they were made
            }) { server in
                let alice = try await server.socket("alice")
                alice.send(.activity(.init(conversation: WebhookDeliveryTests.direct, activity: .typing)))
                alice.send(.activity(.init(conversation: WebhookDeliveryTests.direct, activity: .typing)))  // a refresh
                alice.send(.activity(.init(conversation: WebhookDeliveryTests.direct, activity: .none)))
                alice.send(.activity(.init(conversation: WebhookDeliveryTests.direct, activity: .typing)))  // past the budget
                alice.close()  // its presence event comes after everything before it
                _ = try await receiver.event("presence.changed") { $0.data["online"] as? Bool == false }
                let types = receiver.takenEvents.map { "\($0.type ?? "") \($0.data["activity"] as? String ?? "")" }
                #expect(types == ["presence.changed ", "activity.changed typing", "activity.changed none", "presence.changed "])
            }
        }
    }
}
