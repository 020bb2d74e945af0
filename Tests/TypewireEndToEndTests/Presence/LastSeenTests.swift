import Foundation
import Testing
import TypewireCore
import TypewireTesting

/// Last seen against a running server: an offline member shows when they were last seen, to the minute,
/// in the live `presence` frame, in `subscribed` and in the REST participants; a user who hides their
/// presence is shown in buckets and sees only buckets; a block shows nothing either way.
@Suite("typewire serve: last seen", .timeLimit(.minutes(1)))
struct LastSeenTests {
    static let direct = "direct-alice-bob"

    static var minute: Int64 { LastSeen.floored(Int64(Date().timeIntervalSince1970 * 1_000)) }

    /// Alice as `viewer` sees her in a new socket's `subscribed`.
    static func alice(seenBy viewer: String, on server: TestServer) async throws -> ConversationMember {
        let socket = try await server.socket(viewer)
        defer { socket.close() }
        socket.send(.subscribe(.init(conversation: direct)))
        let frame = try await socket.next { if case .subscribed = $0 { true } else { false } }
        guard case .subscribed(let subscribed) = frame else { throw CancellationError() }
        return try #require(subscribed.participants.first { $0.id == "alice" })
    }

    /// A participant's fields in `GET …/participants` as `viewer` calls it.
    static func listed(_ id: String, seenBy viewer: String, on server: TestServer) async throws -> [String: Any] {
        let body = try await server.request("GET", "/v1/conversations/\(direct)/participants", as: viewer).body
        let list = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        let participants = list?["participants"] as? [[String: Any]] ?? []
        return try #require(participants.first { $0["id"] as? String == id }, "\(body)")
    }

    /// On a server where Bob follows the conversation, Alice connects and closes (the store records her last
    /// seen); `body` gets the `presence` frame Bob got of it.
    static func afterAliceCameAndWent(_ body: (TestServer, TestSocket, ServerFrame.Presence) async throws -> Void) async throws {
        try await TestServer.run { server in
            let bob = try await server.socket("bob")
            bob.send(.subscribe(.init(conversation: direct)))
            _ = try await bob.next { if case .subscribed = $0 { true } else { false } }
            let alice = try await server.socket("alice")
            _ = try await bob.next { if case .presence(let p) = $0 { p.user == "alice" && p.online } else { false } }
            alice.close()
            let frame = try await bob.next { if case .presence(let p) = $0 { p.user == "alice" && !p.online } else { false } }
            guard case .presence(let presence) = frame else { throw CancellationError() }
            try await body(server, bob, presence)
            bob.close()
        }
    }

    @Test func anOfflineMemberShowsWhenLastSeenToTheMinuteLiveInSubscribedAndOverREST() async throws {
        try await Self.afterAliceCameAndWent { server, _, offline in
            let at = try #require(offline.lastSeenAt, "the offline frame says when")
            #expect((Self.minute - 60_000...Self.minute).contains(at) && at % 60_000 == 0 && offline.lastSeen == nil)

            let seen = try await Self.alice(seenBy: "bob", on: server)
            #expect(!seen.online && seen.lastSeenAt == at && seen.lastSeen == nil, "\(seen)")
            let listed = try await Self.listed("alice", seenBy: "bob", on: server)
            #expect(listed["lastSeenAt"] as? Int64 == at && listed["lastSeen"] == nil, "\(listed)")
            let bobListed = try await Self.listed("bob", seenBy: "alice", on: server)
            #expect(bobListed["online"] as? Bool == true && bobListed["lastSeenAt"] == nil, "online: no last seen: \(bobListed)")
        }
    }

    @Test func whoHidesTheirPresenceIsShownInBucketsAndSeesOnlyBuckets() async throws {
        try await Self.afterAliceCameAndWent { server, bob, _ in
            #expect(try await server.request("PUT", "/v1/settings", as: "alice", json: #"{"sharePresence":false}"#).status == 200)
            var seen = try await Self.alice(seenBy: "bob", on: server)
            #expect(seen.lastSeenAt == nil && seen.lastSeen == .recently, "she hides: a bucket: \(seen)")

            #expect(try await server.request("PUT", "/v1/settings", as: "alice", json: #"{"sharePresence":true}"#).status == 200)
            #expect(try await server.request("PUT", "/v1/settings", as: "bob", json: #"{"sharePresence":false}"#).status == 200)
            seen = try await Self.alice(seenBy: "bob", on: server)
            #expect(seen.lastSeenAt == nil && seen.lastSeen == .recently, "he hides: he sees buckets only: \(seen)")
            let listed = try await Self.listed("alice", seenBy: "bob", on: server)
            #expect(listed["lastSeen"] as? String == "recently" && listed["lastSeenAt"] == nil, "\(listed)")

            // Online, and hiding it: offline, seen "recently", and her hiding told live as such.
            #expect(try await server.request("PUT", "/v1/settings", as: "bob", json: #"{"sharePresence":true}"#).status == 200)
            let alice = try await server.socket("alice")
            _ = try await bob.next { if case .presence(let p) = $0 { p.user == "alice" && p.online } else { false } }
            #expect(try await server.request("PUT", "/v1/settings", as: "alice", json: #"{"sharePresence":false}"#).status == 200)
            let hid = try await bob.next { if case .presence(let p) = $0 { p.user == "alice" && !p.online } else { false } }
            guard case .presence(let presence) = hid else { return }
            #expect(presence.lastSeen == .recently && presence.lastSeenAt == nil, "\(presence)")
            seen = try await Self.alice(seenBy: "bob", on: server)
            #expect(!seen.online && seen.lastSeen == .recently && seen.lastSeenAt == nil, "\(seen)")
            alice.close()
        }
    }

    @Test func aBlockShowsNoLastSeenEitherWay() async throws {
        try await Self.afterAliceCameAndWent { server, bob, _ in
            bob.close()
            #expect(try await Self.alice(seenBy: "bob", on: server).lastSeenAt != nil)
            #expect(try await server.request("PUT", "/v1/blocks/alice", as: "bob").status == 204)
            let seen = try await Self.alice(seenBy: "bob", on: server)
            #expect(seen.lastSeenAt == nil && seen.lastSeen == nil, "\(seen)")
            let listed = try await Self.listed("alice", seenBy: "bob", on: server)
            #expect(listed["lastSeenAt"] == nil && listed["lastSeen"] == nil, "\(listed)")
            let blocker = try await Self.listed("bob", seenBy: "alice", on: server)
            #expect(blocker["lastSeenAt"] == nil && blocker["lastSeen"] == nil, "the blocked learns nothing of the blocker: \(blocker)")
        }
    }
}
