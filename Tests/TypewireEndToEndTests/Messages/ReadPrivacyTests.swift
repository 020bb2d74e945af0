import Foundation
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

/// Read receipts' privacy against the built server, each mode seen from both sides: `share` (the default),
/// `hide` (others see nothing of mine; I see theirs), `reciprocal` (and I see nothing of theirs), and the
/// server's `--read-receipts` policy, which no user loosens. A fence makes each "nothing" certain: a sharer's
/// read after the hidden ones is the first mark anyone learns.
@Suite("typewire serve: read receipts' privacy", .timeLimit(.minutes(1)))
struct ReadPrivacyTests {
    static let apiKey = String(repeating: "k", count: 32)

    /// Sets a user's read receipts through `PUT /v1/settings`.
    static func set(_ sharing: String, for user: String, on server: TestServer) async throws {
        let answer = try await server.request("PUT", "/v1/settings", as: user, json: #"{"readReceipts":"\#(sharing)"}"#)
        #expect(answer.status == 200 && answer.body.contains(#""readReceipts":"\#(sharing)""#), "\(answer)")
    }

    /// The receipts frames a socket received, as text.
    static func receipts(of socket: TestSocket) async -> [String] {
        await socket.received.filter { $0.contains(#""type":"receipts""#) }
    }

    /// A frame the socket's own request answers after everything the server sent it before (an unknown
    /// message id's refusal): what has not arrived by then was not sent.
    static func fence(_ socket: TestSocket, in conversation: String) async throws {
        socket.send(.read(.init(conversation: conversation, messageId: "999999")))
        _ = try await socket.error()
    }

    @Test func hideAndReciprocalFromBothSides() async throws {
        try await TestServer.run { server in
            let id = try await ReadStateTests.group(on: server, members: ["bob", "carol", "dave"])
            let bob = try await server.subscribedSocket("bob", to: id)
            let message = try await ReadStateTests.send(["hello"], from: bob, in: id)[0]
            try await Self.set("hide", for: "carol", on: server)
            try await Self.set("reciprocal", for: "dave", on: server)
            let (alice, _) = try await ReadStateTests.following("alice", id, on: server)
            let (carol, _) = try await ReadStateTests.following("carol", id, on: server)
            let (dave, davesView) = try await ReadStateTests.following("dave", id, on: server)
            #expect(davesView.reads == [], "reciprocal: he sees no one's, not even bob's")

            carol.send(.read(.init(conversation: id, messageId: message)))
            dave.send(.read(.init(conversation: id, messageId: message)))
            #expect(try await ReadStateTests.unread(of: carol).count == 0, "her own count clears")
            #expect(try await ReadStateTests.unread(of: dave).count == 0)
            alice.send(.read(.init(conversation: id, messageId: message)))
            for socket in [alice, carol] {
                let first = try await ReadStateTests.receipts(of: socket) { _ in true }
                #expect(first.reads.map(\.user) == ["alice"], "the hidden reads reached no one; hide still sees others")
            }
            try await Self.fence(dave, in: id)
            #expect(await Self.receipts(of: dave).isEmpty, "reciprocal sees no one's")
            let (_, bobsView) = try await ReadStateTests.following("bob", id, on: server)
            #expect(bobsView.reads?.map(\.user) == ["alice", "bob"], "carol and dave hide theirs")
            try await Self.set("hide", for: "alice", on: server)
            #expect(
                try await ReadStateTests.following("bob", id, on: server).1.reads?.map(\.user) == ["bob"],
                "hiding hides a mark shown before")

            // Back to sharing: what was read while hiding stays unseen; what is read next is seen, and a
            // viewer who shares again sees others'.
            try await Self.set("share", for: "carol", on: server)
            try await Self.set("share", for: "dave", on: server)
            let next = try await ReadStateTests.send(["again"], from: bob, in: id)[0]
            carol.send(.read(.init(conversation: id, messageId: next)))
            let shared = try await ReadStateTests.receipts(of: dave) { $0.contains { $0.user == "carol" } }
            #expect(shared.reads.first { $0.user == "carol" }?.messageId == next)
        }
    }

    @Test func theServersPolicyOffShowsNoOnesReadingButKeepsUnreadCounts() async throws {
        try await TestServer.run(configure: { $0.messages.readReceipts = .off }) { server in
            let id = try await ReadStateTests.group(on: server, members: ["bob"])
            let bob = try await server.subscribedSocket("bob", to: id)
            let message = try await ReadStateTests.send(["hello"], from: bob, in: id)[0]
            let (alice, subscribed) = try await ReadStateTests.following("alice", id, on: server)
            #expect(subscribed.unread == 1 && subscribed.reads == [], "not even bob's own mark")
            let (bobFollowing, _) = try await ReadStateTests.following("bob", id, on: server)
            alice.send(.read(.init(conversation: id, messageId: message)))
            #expect(try await ReadStateTests.unread(of: alice).count == 0)
            try await Self.fence(bobFollowing, in: id)
            #expect(await Self.receipts(of: bobFollowing).isEmpty)
            #expect(await Self.receipts(of: alice).isEmpty)
        }
    }

    @Test func readsWhileThePolicyIsOffStayUnseenWhenItIsTurnedOn() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var id = ""
        try await TestServer.run(folder: folder, configure: { $0.messages.readReceipts = .off }) { server in
            id = try await ReadStateTests.group(on: server, members: ["bob"])
            let bob = try await server.subscribedSocket("bob", to: id)
            let message = try await ReadStateTests.send(["hello"], from: bob, in: id)[0]
            let (alice, _) = try await ReadStateTests.following("alice", id, on: server)
            alice.send(.read(.init(conversation: id, messageId: message)))
            #expect(try await ReadStateTests.unread(of: alice).count == 0)
        }
        try await TestServer.run(folder: folder) { server in
            let (_, bobsView) = try await ReadStateTests.following("bob", id, on: server)
            #expect(bobsView.reads?.map(\.user) == ["bob"], "alice's read stays hers")
        }
    }

    @Test func theServersPolicyReciprocalMakesAHiderSeeNoOne() async throws {
        try await TestServer.run(configure: { $0.messages.readReceipts = .reciprocal }) { server in
            let id = try await ReadStateTests.group(on: server, members: ["bob", "carol"])
            let bob = try await server.subscribedSocket("bob", to: id)
            let message = try await ReadStateTests.send(["hello"], from: bob, in: id)[0]
            try await Self.set("hide", for: "carol", on: server)
            let (carol, carolsView) = try await ReadStateTests.following("carol", id, on: server)
            #expect(carolsView.reads == [], "under the policy, hide is reciprocal")
            let (bobFollowing, _) = try await ReadStateTests.following("bob", id, on: server)
            let alice = try await server.socket("alice")
            alice.send(.read(.init(conversation: id, messageId: message)))
            _ = try await ReadStateTests.receipts(of: bobFollowing) { $0.map(\.user) == ["alice"] }
            try await Self.fence(carol, in: id)
            #expect(await Self.receipts(of: carol).isEmpty)
        }
    }

    @Test func theServerAPISetsAUsersReadReceipts() async throws {
        try await TestServer.run(configure: { $0.serverAPI.key = Self.apiKey }) { server in
            let answer = try await server.serverRequest("PUT", "/users/carol", key: Self.apiKey, json: #"{"readReceipts":"reciprocal"}"#)
            #expect(answer.status == 200 && answer.body.contains(#""readReceipts":"reciprocal""#), "\(answer.body)")
            let settings = try await server.request("GET", "/v1/settings", as: "carol")
            #expect(settings.body.contains(#""readReceipts":"reciprocal""#))
            let refused = try await server.request("PUT", "/v1/settings", as: "carol", json: #"{"readReceipts":"sometimes"}"#)
            #expect(refused.status == 400, "\(refused)")
        }
    }
}
