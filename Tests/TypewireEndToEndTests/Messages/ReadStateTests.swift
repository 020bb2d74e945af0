import Foundation
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

/// Read state against the built server: a member's `read` moves their watermark forward only, every
/// device of theirs and every member that follows read state learn it in `receipts` (at most one fan-out
/// a second per conversation), `subscribed` carries the unread count, and a block hides a reader.
@Suite("typewire serve: read state, watermarks and receipts", .timeLimit(.minutes(1)))
struct ReadStateTests {
    /// A group made by alice with these members; returns its id.
    static func group(on server: TestServer, members: [String]) async throws -> String {
        let list = members.map { #""\#($0)""# }.joined(separator: ",")
        let created = try await server.request(
            "POST", "/v1/conversations", as: "alice", json: #"{"kind":"group","title":"Reads","members":[\#(list)]}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any])
        return try #require(object["id"] as? String)
    }

    /// A socket of `user` subscribed to the conversation's read state too; returns it and its `subscribed`.
    static func following(_ user: String, _ conversation: String, on server: TestServer) async throws -> (
        TestSocket, ServerFrame.Subscribed
    ) {
        let socket = try await server.socket(user)
        socket.send(.subscribe(.init(conversation: conversation, readState: true)))
        let frame = try await socket.next { if case .subscribed = $0 { true } else { false } }
        guard case .subscribed(let subscribed) = frame else { throw TestSocketError.timedOut }
        return (socket, subscribed)
    }

    /// Sends messages as `sender` and returns their ids, each stored.
    static func send(_ texts: [String], from sender: TestSocket, in conversation: String) async throws -> [String] {
        var ids: [String] = []
        for text in texts {
            sender.send(.send(.init(conversation: conversation, clientMessageId: text, text: text)))
            let ack = try await sender.next { if case .ack(let ack) = $0 { ack.clientMessageId == text } else { false } }
            guard case .ack(let answer) = ack else { throw TestSocketError.timedOut }
            ids.append(answer.messageId)
        }
        return ids
    }

    /// A message stored while a subscription reads the store reaches the socket after `subscribed`: the
    /// snapshot's unread count runs through the newest message it carries, so the message is counted once
    /// (as it arrives), not also in the count.
    @Test func theUnreadCountOfSubscribedRunsThroughItsNewestMessage() async throws {
        var held: HeldHistoryStore!
        try await TestServer.run(wrapStore: { store in
            held = HeldHistoryStore(store)
            return held
        }) { server in
            let alice = try await server.socket("alice")  // sends without following: no history read of hers
            _ = try await Self.send(["Before"], from: alice, in: "direct-alice-bob")
            let bob = try await server.socket("bob")
            bob.send(.subscribe(.init(conversation: "direct-alice-bob", readState: true)))
            await held.historyRead()  // bob's history is read, his count not yet
            let during = try await Self.send(["While you subscribed"], from: alice, in: "direct-alice-bob")[0]
            held.release()
            let frame = try await bob.next { if case .subscribed = $0 { true } else { false } }
            guard case .subscribed(let subscribed) = frame else { return }
            #expect(subscribed.recentMessages.map(\.text) == ["Before"])
            #expect(subscribed.unread == 1, "counted through \"Before\": the next one arrives after, and is counted then")
            _ = try await bob.next { if case .message(let message) = $0 { message.id == during } else { false } }
            alice.close()
            bob.close()
        }
    }

    /// The next `receipts` frame whose marks match.
    static func receipts(of socket: TestSocket, since: Int = 0, where matches: @escaping @Sendable ([ReadMark]) -> Bool) async throws
        -> ServerFrame.Receipts
    {
        let frame = try await socket.next(since: since) { if case .receipts(let receipts) = $0 { matches(receipts.reads) } else { false } }
        guard case .receipts(let receipts) = frame else { throw TestSocketError.timedOut }
        return receipts
    }

    /// The next `unread` frame a socket gets.
    static func unread(of socket: TestSocket) async throws -> ServerFrame.Unread {
        let frame = try await socket.next { if case .unread = $0 { true } else { false } }
        guard case .unread(let unread) = frame else { throw TestSocketError.timedOut }
        return unread
    }

    @Test func aReadMovesTheWatermarkForwardOnlyAndTheReadersDevicesAndTheMembersLearnIt() async throws {
        try await TestServer.run { server in
            let id = try await Self.group(on: server, members: ["bob", "carol"])
            let bob = try await server.subscribedSocket("bob", to: id)
            let ids = try await Self.send(["one", "two", "three"], from: bob, in: id)
            let (alice, subscribed) = try await Self.following("alice", id, on: server)
            #expect(subscribed.unread == 3)
            #expect(subscribed.reads?.map(\.user) == ["bob"] && subscribed.reads?.first?.messageId == ids[2], "bob's sends marked his own")
            let (aliceLaptop, _) = try await Self.following("alice", id, on: server)
            let (bobFollowing, bobsView) = try await Self.following("bob", id, on: server)
            #expect(bobsView.unread == 0, "bob's own messages are not unread to him")
            let carol = try await server.subscribedSocket("carol", to: id)  // does not follow read state

            alice.send(.read(.init(conversation: id, messageId: ids[1])))
            for socket in [bobFollowing, alice, aliceLaptop] {
                let seen = try await Self.receipts(of: socket) { _ in true }
                #expect(seen.conversation == id && seen.thread == nil && seen.reads.map(\.user) == ["alice"])
                #expect(seen.reads.first?.messageId == ids[1])
            }
            for socket in [alice, aliceLaptop] {
                #expect(try await Self.unread(of: socket) == .init(conversation: id, messageId: ids[1], count: 1), "her devices' count")
            }
            alice.send(.read(.init(conversation: id, messageId: ids[0])))  // back: nothing moves
            alice.send(.read(.init(conversation: id, messageId: ids[2])))
            let next = try await Self.receipts(of: bobFollowing) { _ in true }
            #expect(next.reads.map(\.messageId) == [ids[2]], "the next receipt is the forward one")
            #expect(try await Self.unread(of: aliceLaptop) == .init(conversation: id, messageId: ids[2], count: 0))

            let (aliceAgain, again) = try await Self.following("alice", id, on: server)
            #expect(again.unread == 0 && again.reads?.first { $0.user == "alice" }?.messageId == ids[2], "another device: the same")
            let carolsFrames = await carol.received.filter { $0.contains(#""type":"receipts""#) || $0.contains(#""type":"unread""#) }
            #expect(carolsFrames.isEmpty, "a socket that did not ask gets none")

            aliceAgain.send(.read(.init(conversation: id, messageId: "424242")))
            let refusal = try await aliceAgain.error()
            #expect(refusal.code == .invalidField && refusal.ref == "424242" && refusal.request == "read")
        }
    }

    @Test func aPrivateReadClearsTheReadersCountAndTellsNoOneElse() async throws {
        try await TestServer.run { server in
            let id = try await Self.group(on: server, members: ["bob"])
            let bob = try await server.subscribedSocket("bob", to: id)
            let ids = try await Self.send(["one", "two"], from: bob, in: id)
            let (alice, _) = try await Self.following("alice", id, on: server)
            let (aliceLaptop, _) = try await Self.following("alice", id, on: server)
            let (bobFollowing, _) = try await Self.following("bob", id, on: server)

            alice.send(.read(.init(conversation: id, messageId: ids[1], isPrivate: true)))
            #expect(try await Self.unread(of: aliceLaptop) == .init(conversation: id, messageId: ids[1], count: 0))
            #expect(try await Self.following("alice", id, on: server).1.unread == 0, "her count is cleared on every device")
            // A shared read of an earlier message is the first mark bob learns: the private one went to no one.
            alice.send(.read(.init(conversation: id, messageId: ids[0])))
            let seen = try await Self.receipts(of: bobFollowing) { _ in true }
            #expect(seen.reads.map(\.messageId) == [ids[0]])
            #expect(try await Self.following("bob", id, on: server).1.reads?.first { $0.user == "alice" }?.messageId == ids[0])
        }
    }

    @Test func readsWithinASecondReachTheMembersInOneFrame() async throws {
        try await TestServer.run { server in
            let id = try await Self.group(on: server, members: ["bob", "carol", "dave"])
            let alice = try await server.subscribedSocket("alice", to: id)
            let message = try await Self.send(["hello"], from: alice, in: id)[0]
            let (watcher, _) = try await Self.following("alice", id, on: server)
            let (bob, carol, dave) = (
                try await server.socket("bob"), try await server.socket("carol"), try await server.socket("dave")
            )
            bob.send(.read(.init(conversation: id, messageId: message)))
            _ = try await Self.receipts(of: watcher) { $0.map(\.user) == ["bob"] }
            let since = await watcher.received.count
            carol.send(.read(.init(conversation: id, messageId: message)))
            dave.send(.read(.init(conversation: id, messageId: message)))
            let batched = try await Self.receipts(of: watcher, since: since) { _ in true }
            #expect(batched.reads.map(\.user) == ["carol", "dave"], "two readers within the second: one frame")
        }
    }

    @Test func aGroupTooLargeToNameItsReadersCountsThem() async throws {
        try await TestServer.run(configure: { $0.conversations.maxNamedReaders = 3 }) { server in
            let id = try await Self.group(on: server, members: ["bob", "carol", "dave"])
            let alice = try await server.subscribedSocket("alice", to: id)
            let message = try await Self.send(["hello"], from: alice, in: id)[0]
            let (watcher, subscribed) = try await Self.following("alice", id, on: server)
            #expect(subscribed.reads == [] && subscribed.readCounts == [.init(messageId: message, readers: 0)], "four members: counted")
            let (bob, carol, dave) = (
                try await server.socket("bob"), try await server.socket("carol"), try await server.socket("dave")
            )
            bob.send(.read(.init(conversation: id, messageId: message)))
            let first = try await Self.receipts(of: watcher) { _ in true }
            #expect(first.reads == [] && first.readCounts == [.init(messageId: message, readers: 1)])
            carol.send(.read(.init(conversation: id, messageId: message)))
            dave.send(.read(.init(conversation: id, messageId: message)))
            let counted = try await watcher.next {
                if case .receipts(let receipts) = $0 { receipts.readCounts?.first?.readers == 3 } else { false }
            }
            #expect(counted == .receipts(.init(conversation: id, reads: [], readCounts: [.init(messageId: message, readers: 3)])))
            let receipts = await watcher.received.filter { $0.contains(#""type":"receipts""#) }
            #expect(!receipts.isEmpty && receipts.allSatisfy { !$0.contains("carol") }, "no reader named: \(receipts)")
        }
    }

    @Test func aBlockHidesAReaderFromTheBlockerAndTheBlockerFromThem() async throws {
        try await TestServer.run { server in
            let id = try await Self.group(on: server, members: ["bob", "carol"])
            let alice = try await server.subscribedSocket("alice", to: id)
            let message = try await Self.send(["hello"], from: alice, in: id)[0]
            #expect(try await server.request("PUT", "/v1/blocks/carol", as: "bob").status == 204)
            let (bob, _) = try await Self.following("bob", id, on: server)
            let (watcher, _) = try await Self.following("alice", id, on: server)
            let carol = try await server.socket("carol")
            carol.send(.read(.init(conversation: id, messageId: message)))
            _ = try await Self.receipts(of: watcher) { $0.map(\.user) == ["carol"] }
            bob.send(.read(.init(conversation: id, messageId: message)))
            _ = try await Self.receipts(of: watcher) { $0.map(\.user) == ["bob"] }
            #expect(try await Self.following("bob", id, on: server).1.reads?.map(\.user) == ["alice", "bob"], "bob's view has no carol")
            #expect(try await Self.following("carol", id, on: server).1.reads?.map(\.user) == ["alice", "carol"], "carol's has no bob")
            let bobsFrames = await bob.received.filter { $0.contains(#""type":"receipts""#) }
            #expect(bobsFrames.allSatisfy { !$0.contains("carol") }, "\(bobsFrames)")
        }
    }

    @Test func aTypingOnlyServerKeepsReadStateOverTheAppsOwnMessageIDs() async throws {
        try await TestServer.run(configure: { $0.storage.storesMessages = false }) { server in
            let id = try await Self.group(on: server, members: ["bob"])
            let (alice, subscribed) = try await Self.following("alice", id, on: server)
            #expect(subscribed.unread == nil && subscribed.reads == [], "unread counts stay the app's")
            let bob = try await server.socket("bob")
            let sent = Int64(Date().timeIntervalSince1970 * 1000)
            bob.send(.delivered(.init(conversation: id, messageId: "doc-B", sentAt: sent)))
            bob.send(.read(.init(conversation: id, messageId: "doc-A", sentAt: sent - 1000)))
            let read = try await Self.receipts(of: alice) { $0.map(\.messageId) == ["doc-A"] }
            #expect(read.reads.map(\.user) == ["bob"])
            bob.send(.read(.init(conversation: id, messageId: "doc-0", sentAt: sent - 2000)))  // older: never back
            bob.send(.read(.init(conversation: id, messageId: "doc-T", sentAt: sent, thread: "doc-A")))
            let threadRead = try await alice.next { if case .receipts(let receipts) = $0 { receipts.thread == "doc-A" } else { false } }
            guard case .receipts(let inThread) = threadRead else { return }
            #expect(inThread.reads.map(\.messageId) == ["doc-T"], "a thread's own mark")
            let (_, snapshot) = try await Self.following("alice", id, on: server)
            #expect(
                snapshot.reads?.map(\.messageId) == ["doc-A"] && snapshot.delivered?.map(\.messageId) == ["doc-B"],
                "a device that subscribes later")

            bob.send(.read(.init(conversation: id, messageId: "doc-C")))
            let noTime = try await bob.error()
            #expect(noTime.code == .invalidField && noTime.ref == "doc-C" && noTime.message.contains("sentAt"))
            bob.send(.read(.init(conversation: id, messageId: "doc-D", sentAt: sent + 2 * 3_600_000)))
            #expect(try await bob.error().ref == "doc-D", "too far ahead of the server's clock")
            bob.send(.delivered(.init(conversation: id, messageId: String(repeating: "x", count: 129), sentAt: sent)))
            #expect(try await bob.error().code == .invalidField, "an id past 128 bytes")
            alice.send(.markUnread(.init(conversation: id, messageId: "doc-A")))
            let marking = try await alice.error()
            #expect(marking.code == .messagesDisabled && marking.ref == "doc-A" && marking.request == "markUnread")
            #expect(await alice.received.allSatisfy { !$0.contains(#""type":"unread""#) }, "no unread counts")
        }
    }

    @Test func aDeliveredMarkReachesTheMembersInReceiptsAndInTheSnapshot() async throws {
        try await TestServer.run { server in
            let id = try await Self.group(on: server, members: ["bob"])
            let (alice, _) = try await Self.following("alice", id, on: server)
            let ids = try await Self.send(["one", "two"], from: alice, in: id)
            let bob = try await server.socket("bob")
            bob.send(.delivered(.init(conversation: id, messageId: ids[1])))
            let frame = try await alice.next { if case .receipts(let receipts) = $0 { receipts.delivered != nil } else { false } }
            guard case .receipts(let receipts) = frame else { return }
            #expect(receipts.reads.isEmpty && receipts.delivered?.map(\.user) == ["bob"] && receipts.delivered?.first?.messageId == ids[1])
            let (_, snapshot) = try await Self.following("alice", id, on: server)
            #expect(snapshot.delivered?.map(\.messageId) == [ids[1]] && snapshot.unread == 0, "a device that subscribes later")
            #expect(try await Self.following("bob", id, on: server).1.unread == 2, "received is not read")

            bob.send(.delivered(.init(conversation: id, messageId: "424242")))
            let refusal = try await bob.error()
            #expect(refusal.code == .invalidField && refusal.ref == "424242" && refusal.request == "delivered")
        }
    }

    @Test func markUnreadMovesTheReadersOwnMarkBackOnEveryDeviceAndNotTheOneTheOthersSee() async throws {
        try await TestServer.run { server in
            let id = try await Self.group(on: server, members: ["bob"])
            let bob = try await server.subscribedSocket("bob", to: id)
            let ids = try await Self.send(["one", "two", "three"], from: bob, in: id)
            let (alice, _) = try await Self.following("alice", id, on: server)
            let (aliceLaptop, _) = try await Self.following("alice", id, on: server)
            alice.send(.read(.init(conversation: id, messageId: ids[2])))
            #expect(try await Self.unread(of: aliceLaptop) == .init(conversation: id, messageId: ids[2], count: 0))

            alice.send(.markUnread(.init(conversation: id, messageId: ids[1])))
            #expect(
                try await Self.unread(of: aliceLaptop) == .init(conversation: id, messageId: ids[0], count: 2),
                "her laptop: unread from \"two\" on")
            #expect(try await Self.following("alice", id, on: server).1.unread == 2, "a device that subscribes later: the same")
            let bobsView = try await Self.following("bob", id, on: server).1
            #expect(bobsView.reads?.first { $0.user == "alice" }?.messageId == ids[2], "bob still sees her read to the end")

            alice.send(.markUnread(.init(conversation: id, messageId: ids[0])))
            let none = try await Self.unread(of: aliceLaptop)
            #expect(none.messageId == nil && none.count == 3, "from the first message: nothing read")
            alice.send(.read(.init(conversation: id, messageId: ids[1])))
            #expect(try await Self.unread(of: aliceLaptop) == .init(conversation: id, messageId: ids[1], count: 1), "forward again")

            alice.send(.markUnread(.init(conversation: id, messageId: "424242")))
            let refusal = try await alice.error()
            #expect(refusal.code == .invalidField && refusal.ref == "424242" && refusal.request == "markUnread")
        }
    }
}
