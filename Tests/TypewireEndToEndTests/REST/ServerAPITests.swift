import Foundation
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

/// The server API an app's backend calls: its users and conversations mirrored with its own ids, what
/// the sockets see when it changes them, and what it refuses.
@Suite("typewire serve: the server API under /v1/server/", .timeLimit(.minutes(1)))
struct ServerAPITests {
    static let key = "server-api-key-for-tests-0123456789abcdef"

    private static func run(_ body: (TestServer) async throws -> Void) async throws {
        // A ttl of a minute: what clears typing here is the change a test makes, never expiry.
        try await TestServer.run(
            configure: {
                $0.serverAPI.key = key
                $0.typing.activityTTL = .seconds(60)
            }, body)
    }

    @Test func withoutAKeyConfiguredTheRoutesDoNotExist() async throws {
        try await TestServer.run { server in
            let answer = try await server.serverRequest("PUT", "/users/ada", key: Self.key, json: #"{"name":"Ada"}"#)
            #expect(answer.status == 404)
        }
    }

    @Test func aMissingOrWrongKeyIsRefused() async throws {
        try await Self.run { server in
            for key in [nil, "", "wrong", String(Self.key.dropLast()), Self.key + "x", try await server.token("alice")] {
                let answer = try await server.serverRequest("GET", "/users/alice/presence", key: key)
                #expect(answer.status == 401 && answer.body.contains("API key"), "key \(key ?? "none")")
                #expect(answer.headers.contains { ($0.key as? String)?.lowercased() == "www-authenticate" })
            }
            #expect(try await server.serverRequest("GET", "/users/alice/presence", key: Self.key).status == 200)
        }
    }

    @Test func theBackendMirrorsAConversationAndTheSocketsFollow() async throws {
        try await Self.run { server in
            #expect(
                try await server.serverRequest("PUT", "/users/ada", key: Self.key, json: #"{"name":"Ada"}"#).body.contains(#""name":"Ada""#)
            )
            let put = #"{"kind":"group","title":"Team","members":["ada","grace","alice"]}"#
            let created = try await server.serverRequest("PUT", "/conversations/team-1", key: Self.key, json: put)
            #expect(created.status == 201 && created.body.contains(#""joined":["ada","alice","grace"]"#))
            let again = try await server.serverRequest("PUT", "/conversations/team-1", key: Self.key, json: put)
            #expect(again.status == 200 && again.body.contains(#""joined":[]"#) && again.body.contains(#""left":[]"#), "idempotent")

            // Tokens without a name: the name the backend put is the one shown.
            let ada = try await TestSocket.connect(port: server.port, token: try await server.token("ada"))
            let grace = try await TestSocket.connect(port: server.port, token: try await server.token("grace"))
            for socket in [ada, grace] {
                socket.send(.subscribe(.init(conversation: "team-1")))
                try await socket.next { if case .subscribed = $0 { true } else { false } }
            }
            grace.send(.activity(.init(conversation: "team-1", activity: .typing)))
            let seen = try await ada.activity(in: "team-1") { $0.contains { $0.user == "grace" } }
            #expect(seen.entries.count == 1)
            let typing = try await server.serverRequest("GET", "/conversations/team-1/activity", key: Self.key)
            let update = try JSONDecoder().decode(ActivityUpdate.self, from: Data(typing.body.utf8))
            #expect(
                typing.status == 200 && update.conversation == "team-1" && update.entries.map(\.user) == ["grace"]
                    && update.entries.first?.activity == .typing)
            #expect(try await server.serverRequest("GET", "/users/ada/presence", key: Self.key).body.contains(#""online":true"#))
            #expect(try await server.serverRequest("GET", "/users/nobody/presence", key: Self.key).body.contains(#""online":false"#))

            // Grace leaves in the app: her typing is cleared and her subscription ends at once.
            let removed = try await server.serverRequest(
                "PUT", "/conversations/team-1", key: Self.key, json: #"{"kind":"group","title":"Team","members":["ada","alice"]}"#)
            #expect(removed.status == 200 && removed.body.contains(#""left":["grace"]"#))
            let notice = try await grace.error()
            #expect(notice.code == .unknownConversation && notice.ref == "team-1")
            _ = try await ada.activity(in: "team-1") { $0.isEmpty }

            // Participants one by one; a repeat changes nothing.
            #expect(try await server.serverRequest("PUT", "/conversations/team-1/participants/grace", key: Self.key).status == 204)
            #expect(try await server.serverRequest("PUT", "/conversations/team-1/participants/grace", key: Self.key).status == 204)
            grace.send(.subscribe(.init(conversation: "team-1")))
            try await grace.next { if case .subscribed = $0 { true } else { false } }
            #expect(try await server.serverRequest("DELETE", "/conversations/team-1/participants/grace", key: Self.key).status == 204)
            #expect(try await grace.error().code == .unknownConversation)
            #expect(try await server.serverRequest("DELETE", "/conversations/team-1/participants/grace", key: Self.key).status == 204)

            // Deleted: everyone's subscription ends, and the conversation is gone.
            #expect(try await server.serverRequest("DELETE", "/conversations/team-1", key: Self.key).status == 204)
            let gone = try await ada.error()
            #expect(gone.code == .unknownConversation && gone.ref == "team-1")
            #expect(try await server.serverRequest("GET", "/conversations/team-1/activity", key: Self.key).status == 404)
            #expect(try await server.serverRequest("DELETE", "/conversations/team-1", key: Self.key).status == 204, "idempotent")
            let history = try await server.request("GET", "/v1/conversations/team-1/messages", as: "ada")
            #expect(history.status == 404)
        }
    }

    @Test func aUserTheBackendMadeABotStreamsWithAnOrdinaryToken() async throws {
        try await Self.run { server in
            _ = try await server.serverRequest("PUT", "/users/helper", key: Self.key, json: #"{"name":"Helper","bot":true}"#)
            _ = try await server.serverRequest(
                "PUT", "/conversations/help-ada", key: Self.key, json: #"{"kind":"direct","members":["helper","ada"]}"#)
            let ada = try await TestSocket.connect(port: server.port, token: try await server.token("ada"))
            let helper = try await TestSocket.connect(port: server.port, token: try await server.token("helper"))
            ada.send(.subscribe(.init(conversation: "help-ada")))
            try await ada.next { if case .subscribed = $0 { true } else { false } }
            helper.send(.stream(.init(conversation: "help-ada", messageId: "r1", delta: "Hello", isFinal: true)))
            try await ada.next {
                if case .message(let message) = $0 { message.sender == "helper" && message.text == "Hello" } else { false }
            }

            _ = try await server.serverRequest("PUT", "/users/helper", key: Self.key, json: #"{"name":"Helper","bot":false}"#)
            let demoted = try await TestSocket.connect(port: server.port, token: try await server.token("helper"))
            demoted.send(.stream(.init(conversation: "help-ada", messageId: "r2", delta: "Hi", isFinal: true)))
            #expect(try await demoted.error().code == .forbidden)
        }
    }

    @Test func badInputIsRefusedSayingWhichFieldIsWrong() async throws {
        try await Self.run { server in
            let cases: [(path: String, json: String, status: Int, mentions: String)] = [
                ("/conversations/c1", #"{"kind":"triad","members":["a","b"]}"#, 400, "\"kind\""),
                ("/conversations/c1", #"{"kind":"group"}"#, 400, "\"members\""),
                ("/conversations/c1", #"{"kind":"group","members":"ada"}"#, 400, "\"members\" must be a list"),
                ("/conversations/c1", #"{"kind":"group","members":[]}"#, 400, "\"members\""),
                ("/conversations/c1", #"{"kind":"direct","members":["a","b","c"]}"#, 400, "exactly two"),
                ("/conversations/c1", #"{"kind":"group","members":["a",""]}"#, 400, "\"members[1]\""),
                (
                    "/conversations/c1", #"{"kind":"group","title":"\#(String(repeating: "t", count: 201))","members":["a"]}"#, 400,
                    "\"title\""
                ),
                ("/conversations/\(String(repeating: "x", count: 257))", #"{"kind":"group","members":["a"]}"#, 400, "\"id\""),
                ("/users/ada", #"{"name":12}"#, 400, "\"name\""),
                ("/users/ada", #"["ada"]"#, 400, "JSON object"),
            ]
            for item in cases {
                let answer = try await server.serverRequest("PUT", item.path, key: Self.key, json: item.json)
                #expect(
                    answer.status == item.status && Self.message(answer.body).contains(item.mentions),
                    "\(item.json): \(answer.status) \(answer.body)")
            }
            _ = try await server.serverRequest("PUT", "/conversations/c2", key: Self.key, json: #"{"kind":"group","members":["a"]}"#)
            let kind = try await server.serverRequest(
                "PUT", "/conversations/c2", key: Self.key, json: #"{"kind":"direct","members":["a","b"]}"#)
            #expect(kind.status == 409 && kind.body.contains("kind cannot change"))
            #expect(try await server.serverRequest("PUT", "/conversations/none/participants/a", key: Self.key).status == 404)
        }
    }

    /// The message of an error body: `{"error":{"message":…}}`.
    private static func message(_ body: String) -> String {
        struct Failure: Decodable {
            struct Inner: Decodable { var message: String }
            var error: Inner
        }
        return (try? JSONDecoder().decode(Failure.self, from: Data(body.utf8)).error.message) ?? body
    }

    @Test func theServerAPIIsRateLimited() async throws {
        // One request per 100 s after a burst of 5: however slow a loaded machine answers, none refills in the test.
        try await TestServer.run(configure: {
            $0.serverAPI.key = Self.key
            $0.serverAPI.requests.rate = 0.01
            $0.serverAPI.requests.burst = 5
        }) { server in
            var statuses: [Int] = []
            for _ in 0..<8 { statuses.append(try await server.serverRequest("GET", "/users/ada/presence", key: Self.key).status) }
            #expect(statuses.prefix(5).allSatisfy { $0 == 200 } && statuses.suffix(2).allSatisfy { $0 == 429 })
        }
    }

    @Test func aShortKeyStopsTheStart() async throws {
        await #expect(throws: APIKeyError.self) {
            try await TestServer.run(configure: { $0.serverAPI.key = "short" }) { _ in }
        }
    }
}
