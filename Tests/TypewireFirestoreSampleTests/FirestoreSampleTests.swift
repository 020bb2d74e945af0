import Foundation
import Testing
import TypewireClient
import TypewireCore
import TypewireTesting
import TypewireUI

/// docs/INTEGRATION.md's `FirestoreMessages`, compiled as a new Xcode app target compiles it (this target
/// isolates to the main actor by default) and run against a fake of the Firestore calls it makes: a
/// message is one bubble from its local write to its commit, online and offline.
@Suite("The Firestore sample: one bubble per message, online and offline", .serialized, .timeLimit(.minutes(1)))
struct FirestoreSampleTests {
    static let conversation = "direct-alice-bob"
    static let collection = "conversations/direct-alice-bob/messages"

    @Test func aMessageIsOneBubbleFromItsLocalWriteToItsCommit() async throws {
        try await withAlice { alice in
            alice.draft = "On my way"
            await alice.send()
            #expect(alice.lastError == nil)
            // The listener hands on the local write, then the commit; a message after both shows they were read.
            try await Self.bobWrites("Great")
            try await eventually { alice.messages.count == 2 }
            let mine = alice.messages.filter { $0.text == "On my way" }
            #expect(mine.count == 1, "the pending bubble, the local write and the commit are one bubble: \(alice.messages)")
            #expect(mine.first?.isPending == false && mine.first?.isFailed == false)
            let id = try #require(mine.first?.messageID)
            let stored = try #require(Firestore.firestore().committedFields(of: id, in: Self.collection))
            #expect(stored["sender"] as? String == "alice" && stored["text"] as? String == "On my way")
            #expect(stored["sentAt"] is Timestamp, "the server's time, not the device's")
            #expect(stored["thread"] == nil)
        }
    }

    @Test func offlineTheMessageIsOnePendingBubbleUntilTheNetworkIsBack() async throws {
        try await withAlice { alice in
            try await Firestore.firestore().disableNetwork()
            alice.draft = "Sent in a tunnel"
            let sending = Task { await alice.send() }
            try await eventually { Firestore.firestore().documentIDs(in: Self.collection).count == 1 }  // written locally
            let bob = Task { try await Self.bobWrites("Where are you?") }
            try await eventually { alice.messages.count == 2 }
            let mine = alice.messages.filter { $0.text == "Sent in a tunnel" }
            #expect(mine.count == 1, "the local write took the pending bubble's place: \(alice.messages)")
            #expect(mine.first?.isPending == true, "not committed: still pending")

            try await Firestore.firestore().enableNetwork()
            await sending.value
            try await bob.value
            #expect(alice.lastError == nil)
            try await eventually { alice.messages.allSatisfy { !$0.isPending } }
            #expect(alice.messages.map(\.text).sorted() == ["Sent in a tunnel", "Where are you?"])
        }
    }

    @Test func aReplyInAThreadIsStoredWithItsParentAndShowsInTheThreadsScreenOnce() async throws {
        try await withAlice(parentMessageID: "parent-1") { thread in
            thread.draft = "Replying here"
            await thread.send()
            #expect(thread.lastError == nil)
            let id = try #require(thread.messages.first?.messageID)
            #expect(Firestore.firestore().committedFields(of: id, in: Self.collection)?["thread"] as? String == "parent-1")
            try await Self.bobWrites("In the thread too", thread: "parent-1")
            try await eventually { thread.messages.count == 2 }
            #expect(thread.messages.map(\.text) == ["Replying here", "In the thread too"])
        }
    }

    @Test func theDocumentedSampleIsThisOne() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let sample = try String(contentsOf: here.appendingPathComponent("FirestoreMessages.swift"), encoding: .utf8)
        let guide = try String(contentsOf: here.appendingPathComponent("../../docs/INTEGRATION.md"), encoding: .utf8)
        let tested = sample.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix("//") }
        let blocks = guide.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        let documented = try #require(blocks.first { $0.contains("struct FirestoreMessages: MessageSource") })
        let shown = documented.split(separator: "\n", omittingEmptySubsequences: false).filter { $0 != "import FirebaseFirestore" }
        #expect(shown.joined(separator: "\n") == tested.joined(separator: "\n").trimmingCharacters(in: .newlines))
        #expect(documented.hasPrefix("import FirebaseFirestore\n"))
    }

    /// Alice's screen of the direct chat (or of a thread in it) on a typing-only server, with the sample as
    /// its source, on an empty database.
    private func withAlice(parentMessageID: String? = nil, _ body: (ConversationModel) async throws -> Void) async throws {
        try await Firestore.firestore().clearPersistence()
        try await TestServer.run(configure: { $0.storage.storesMessages = false }) { server in
            let client = TypewireClient(url: server.socketURL) { try await server.token("alice") }
            let connection = Task { try await client.run() }
            defer { connection.cancel() }
            for await state in await client.states() where state == .connected { break }
            let model = ConversationModel(
                client: client, conversationID: Self.conversation, parentMessageID: parentMessageID, messageSource: FirestoreMessages())
            await model.appear()
            try await body(model)
            await model.disappear()
        }
    }

    /// Bob's app writes a message (another device: straight to Firestore).
    private static func bobWrites(_ text: String, thread: String? = nil) async throws {
        var data: [String: Any] = ["sender": "bob", "text": text, "sentAt": FieldValue.serverTimestamp()]
        if let thread { data["thread"] = thread }
        try await Firestore.firestore().collection(collection).document().setData(data)
    }
}
