// swift-format-ignore-file
// (The README shows this file's example as written, its comments aligned.)
import Foundation
import Testing
import TypewireCore
import TypewireTesting
import TypewireClient

// README: begin
/// An app's chat screen: shows who is typing, and tells the others when the user types.
func chatScreen(url: String, token: @escaping @Sendable () async throws -> String) async throws {
    let client = TypewireClient(url: url, token: token)   // token: before every connection, and ahead of expiry
    let connection = Task { try await client.run() }     // connects; reconnects after every drop
    defer { connection.cancel() }

    let chat = await client.conversation("direct-alice-bob")
    Task { for await state in chat.typing { print(state.text ?? "") } }   // "Bob is typing…"
    Task { for await message in chat.messages { print(message.sender, message.text) } }

    let composer = await chat.composer()
    composer.textDidChange("Hel")              // on every edit of the text field: O(1), no await
    composer.textDidChange("Hello")
    try await composer.send("Hello, Bob")      // stops typing; retried until stored, stored once
    await chat.close()                         // ends its subscription, timers and sequences
}

/// A bot's reply (the bot's token has role=bot): thinking, a tool, then the text streamed in; the person
/// it answers may stop it, and what it wrote by then is kept.
func botReply(to asker: String, in chat: ConversationHandle) async throws {
    let reply = try await chat.beginReply(answering: asker)   // "Clawd is thinking…"
    let writing = Task {
        try await reply.useTool("web_search")  // "Clawd is using web_search…"
        for word in ["Typing ", "indicators ", "matter."] where !Task.isCancelled {
            try await reply.write(word)        // streams to every member, coalesced
        }
    }
    let stops = Task { for await _ in reply.cancellations { writing.cancel() } }   // the asker's Stop
    defer { stops.cancel() }
    try await writing.value
    try await reply.finish(end: writing.isCancelled ? .cancelled : .finished)   // stored as one message
}
// README: end

/// The README's example compiles (it is this file) and does what it says against a real server.
@Suite("The README's Getting started example", .timeLimit(.minutes(1)))
struct GettingStartedTests: ClientTesting {
    @Test func theChatScreenSendsAndTheBotReplies() async throws {
        try await TestServer.run { server in
            try await withChats(["bob"], of: server) { _, chats in
                try await chatScreen(url: server.socketURL) { try await server.token("alice") }
                let message = try await first(chats[0].messages) { $0.sender == "alice" }
                #expect(message.text == "Hello, Bob")
            }
            try await withChats(["clawd", "alice"], in: "bot-clawd", of: server) { _, chats in
                try await botReply(to: "alice", in: chats[0])
                let message = try await first(chats[1].messages) { $0.sender == "clawd" }
                #expect(message.text == "Typing indicators matter.")
            }
        }
    }

    @Test func theReadmeShowsThisFilesExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let example = source.components(separatedBy: "// README: begin\n")[1].components(separatedBy: "// README: end")[0]
        #expect(readme.contains("```swift\nimport TypewireClient\n\n" + example + "```"), "README's Getting started differs from GettingStartedTests.swift")
    }
}
