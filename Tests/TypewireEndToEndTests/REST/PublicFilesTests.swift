import Foundation
import Testing
import TypewireServer
import TypewireTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("typewire serve: the web demo's files", .timeLimit(.minutes(1)))
struct PublicFilesTests {
    /// The repository's Public/ folder.
    static let publicFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Public").path

    /// A GET without a token: status, Content-Type and body.
    func get(_ path: String, from server: TestServer) async throws -> (status: Int, type: String?, body: String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(server.port)\(path)")!)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "Content-Type"), String(decoding: data, as: UTF8.self))
    }

    @Test func servesTheChatPageAtTheRoot() async throws {
        try await TestServer.run(configure: {
            $0.demo = true
            $0.http.publicDirectory = Self.publicFolder
        }) { server in
            let page = try await get("/", from: server)
            #expect(page.status == 200)
            #expect(page.type?.hasPrefix("text/html") == true)
            #expect(page.body.contains("<title>Typewire"))
            #expect(page.body.contains(#"data-testid="typing-indicator""#))

            // Browsers run a module script only if it is served as JavaScript.
            let script = try await get("/js/app.js", from: server)
            #expect(script.status == 200)
            #expect(script.type?.hasPrefix("text/javascript") == true)

            // Routes still win over files, and a missing file is still a 404.
            let health = try await get("/healthz", from: server)
            let missing = try await get("/nothing-here.js", from: server)
            #expect(health.body == "ok")
            #expect(missing.status == 404)
        }
    }

    @Test func theDemoRefusesToStartWithoutItsFolder() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-folder-\(UUID())").path
        var configuration = ServerConfiguration(jwtSecret: TestServer.secret)
        configuration.http.publicDirectory = missing
        configuration.demo = true
        let error = #expect(throws: PublicFolderError.self) { try configuration.resolvedPublicDirectory() }
        #expect(error?.description.contains(missing) == true, "the message names the folder")
        configuration.demo = false
        #expect(try configuration.resolvedPublicDirectory() == nil, "without the demo a missing folder is no error")
        configuration.http.publicDirectory = Self.publicFolder
        #expect(try configuration.resolvedPublicDirectory() == Self.publicFolder)
    }

    @Test func withoutTheDemoAMissingFolderServesNoFiles() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-folder-\(UUID())").path
        try await TestServer.run(configure: { $0.http.publicDirectory = missing }) { server in
            let page = try await get("/", from: server)
            let health = try await get("/healthz", from: server)
            #expect(page.status == 404)
            #expect(health.body == "ok")
        }
    }
}
