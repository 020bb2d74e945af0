import Foundation
import Testing
import TypewireClient
import TypewireTesting
import TypewireUI

/// What a conversation's screen says about its connection: nothing while it works or at the first connect,
/// "Connecting…" from a drop until it is back, "No connection" without a network path, "Can't connect" once
/// the client gave up.
@Suite("ConnectionBanner: what the screen says about the connection", .timeLimit(.minutes(1)))
@MainActor
struct ConnectionBannerTests {
    @Test func eachStateShowsItsBannerAndAReconnectsConnectingKeepsConnecting() {
        let states: [ConnectionState] = [
            .connecting, .connected, .waitingToReconnect(retryIn: .seconds(1)), .connecting, .connected, .offline, .connecting,
            .connected, .paused, .connecting, .connected, .failed(.signedOut), .connecting, .connected, .signedOut, .stopped,
        ]
        var banner: ConnectionBanner?
        var shown: [ConnectionBanner?] = []
        for state in states {
            banner = ConnectionBanner.after(state, previous: banner)
            shown.append(banner)
        }
        #expect(
            shown == [
                nil, nil, .reconnecting, .reconnecting, nil, .offline, .reconnecting, nil, nil, nil, nil, .failed, .reconnecting, nil,
                nil, nil,
            ])
        #expect(UIText.reconnecting.localized(in: "de") == "Verbinden…" && ConnectionBanner.failed.word == .cannotConnect)
    }

    @Test func whileTheServerIsDownTheScreenSaysConnectingAndOnceItIsBackNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var port = 0
        var model: ConversationModel?
        var connection: Task<Void, any Error>?
        defer { connection?.cancel() }
        let configuration = TypewireClient.Configuration(backoff: .init(initial: .milliseconds(50), maximum: .milliseconds(200)))
        try await TestServer.runOnRestartablePort(folder: folder) { server in
            port = server.port
            let client = TypewireClient(url: server.socketURL, configuration: configuration) { try await server.token("alice") }
            connection = Task { try await client.run() }
            let screen = ConversationModel(client: client, conversationID: "direct-alice-bob")
            model = screen
            await screen.appear()
            try await eventually { screen.connection == .connected }
            #expect(screen.connectionBanner == nil, "nothing said at the first connect")
        }
        let screen = try #require(model)
        try await eventually { screen.connectionBanner == .reconnecting }
        try await TestServer.run(folder: folder, configure: { $0.http.port = port }) { _ in
            try await eventually { screen.connection == .connected }
            #expect(screen.connectionBanner == nil)
            await screen.disappear()
        }
    }
}
