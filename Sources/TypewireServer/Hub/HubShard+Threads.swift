import TypewireCore

// Threads: a reply names the message it answers, a message of the same conversation's main timeline.
extension HubShard {
    /// Whether a thread id can name a stored message: the store's ids are decimal numbers, so anything else
    /// names none (checked before any lookup, and the bound of what a client can make the board hold).
    static func isMessageID(_ thread: String) -> Bool {
        !thread.isEmpty && thread.utf8.count <= 20 && thread.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Whether a frame's thread can name a parent message here. A server that keeps messages knows their
    /// ids (``isMessageID(_:)``); a typing-only one keeps none, and its threads are the app's own message
    /// ids (a Firestore document's id): at most ``maxAppMessageIDBytes`` bytes, nothing invisible.
    func isThreadID(_ thread: String) -> Bool {
        configuration.storage.storesMessages
            ? Self.isMessageID(thread) : DisplayName.isAcceptableID(thread, maxBytes: Self.maxAppMessageIDBytes)
    }

    /// The longest app message id a typing-only server takes, as a thread or in a read mark (the board holds at
    /// most 4 threads per socket and conversation, and the store a mark per member and timeline, so this bounds
    /// what a client makes them keep).
    static let maxAppMessageIDBytes = 128

    /// The answer to a frame whose thread is not a message id.
    static func badThread(ref: String, request: ClientFrame.Kind) -> ServerFrame.Failure {
        .init(code: .invalidField, message: "\"thread\" must be the id of a message of the conversation.", ref: ref, request: request)
    }

    /// Why a message may not go to this thread, or nil when it may: the parent must be a message of the
    /// conversation's main timeline (threads are one level deep). A send (rate-limited) pays one store read.
    func refusal(ofThread thread: String, in conversation: String, ref: String, request: ClientFrame.Kind) async -> ServerFrame.Failure? {
        guard Self.isMessageID(thread) else { return Self.badThread(ref: ref, request: request) }
        let parent: ChatMessage?
        do {
            parent = try await store.message(thread, in: conversation)
        } catch {
            logger.storeFailed("reading a thread's parent failed", error: error)
            return .init(
                code: .unavailable, message: "The thread's message could not be read now; nothing was stored. Try again later.", ref: ref,
                request: request)
        }
        guard let parent else {
            return .init(
                code: .invalidField, message: "There is no message \(thread) in this conversation to reply to.", ref: ref, request: request)
        }
        guard parent.thread == nil else {
            return .init(
                code: .invalidField,
                message: "Message \(thread) is itself a reply in a thread; reply in its thread (\(parent.thread ?? "")) instead.", ref: ref,
                request: request)
        }
        return nil
    }
}
