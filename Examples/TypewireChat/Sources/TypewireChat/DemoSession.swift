import Foundation
import TypewireUI

/// The signed-in user of the sample: a client of `typewire serve --demo` on this machine, whose tokens come
/// from the demo server's `GET /v1/demo/token` (an app asks its own backend, e.g. for a Firebase ID token).
@MainActor
final class DemoSession {
    /// Where `swift run typewire serve --demo` listens.
    nonisolated static let server = URL(string: "http://127.0.0.1:8080")!
    /// The demo's conversations of Alice, with the titles an app would show (its own data).
    static let conversations = [(id: "direct-alice-bob", title: "Bob"), (id: "group-six", title: "The six"), (id: "bot-clawd", title: "Clawd")]

    let userID: String
    let client: TypewireClient

    init(user: String) {
        userID = user
        client = TypewireClient(url: "ws://127.0.0.1:8080/v1/socket") { _ in try await Self.token(for: user) }
    }

    /// Runs the client for as long as the app is signed in.
    func run() async {
        try? await client.run()
    }

    private struct DemoToken: Decodable { let token: String }

    nonisolated private static func token(for user: String) async throws -> String {
        var components = URLComponents(url: server.appending(path: "v1/demo/token"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "user", value: user)]
        let (data, _) = try await URLSession.shared.data(from: components.url!)
        return try JSONDecoder().decode(DemoToken.self, from: data).token
    }
}
