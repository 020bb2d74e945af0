import Foundation
import HummingbirdWSClient
import Logging
import TypewireCore

/// A connection to a Typewire server, for an app.
///
/// Run it for as long as the app wants to be connected (`await client.run()` in a task; cancel the task
/// to stop). It says hello with a fresh token from the token provider, reconnects after any drop with
/// exponential backoff and jitter, and after each reconnect subscribes again to every open conversation
/// and sends again every message not yet acknowledged (the server stores each `clientMessageId` once).
///
/// ```swift
/// let client = TypewireClient(url: "ws://127.0.0.1:8080/v1/socket") { try await fetchToken() }
/// let connection = Task { await client.run() }
/// let chat = await client.conversation("direct-alice-bob")
/// for await state in chat.typing { label.text = state.text ?? "" }
/// ```
public actor TypewireClient {
    /// The client's options.
    public struct Configuration: Sendable {
        /// How long to wait between reconnect attempts.
        public var backoff: Backoff
        /// How typing state is put into words (style, name limit, locale).
        public var text: TypingText.Configuration

        /// Creates a configuration.
        public init(backoff: Backoff = .init(), text: TypingText.Configuration = .init()) {
            self.backoff = backoff
            self.text = text
        }
    }

    private let url: String
    private let token: @Sendable () async throws -> String
    private let configuration: Configuration
    private let formatter: TypingText
    private let logger: Logger

    private var outgoing: AsyncStream<String>.Continuation?
    private var welcomed = false
    private var currentUser: String?
    private var state: ConnectionState = .connecting
    private var stateObservers: [UUID: AsyncStream<ConnectionState>.Continuation] = [:]
    private var conversations: [String: ConversationState] = [:]
    private var pending: [String: PendingSend] = [:]
    /// Conversations where this client last set an activity other than none.
    private var activeIn: Set<String> = []

    /// Creates a client; nothing happens until ``run()``.
    /// - Parameters:
    ///   - url: The server's socket, e.g. `ws://127.0.0.1:8080/v1/socket`.
    ///   - configuration: Backoff and text options.
    ///   - token: Returns a valid token; called before every connection attempt, so it may refresh one.
    public init(
        url: String, configuration: Configuration = .init(), logger: Logger = Logger(label: "typewire.client"),
        token: @escaping @Sendable () async throws -> String
    ) {
        self.url = url
        self.token = token
        self.configuration = configuration
        self.formatter = TypingText(configuration: configuration.text)
        self.logger = logger
    }

    // MARK: Connection

    /// Connects, and reconnects after every drop, until the calling task is cancelled.
    public func run() async {
        var attempt = 0
        var random = SystemRandomNumberGenerator()
        while !Task.isCancelled {
            setState(.connecting)
            do {
                let token = try await token()
                try await WebSocketClient.connect(
                    url: url, configuration: .init(maxFrameSize: 1 << 20), logger: logger
                ) { inbound, outbound, _ in
                    let (texts, continuation) = AsyncStream.makeStream(of: String.self)
                    continuation.yield(Self.encode(.hello(.init(token: token))))
                    await self.attach(continuation)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await text in texts { try await outbound.write(.text(text)) }
                        }
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            guard case .text(let text) = message,
                                  let frame = try? FrameCodec.decodeServerFrame(Data(text.utf8))
                            else { continue }
                            await self.receive(frame)
                        }
                        group.cancelAll()
                    }
                }
            } catch {
                logger.debug("connection ended", metadata: ["error": "\(error)"])
            }
            if detach() { attempt = 0 }
            guard !Task.isCancelled else { break }
            attempt += 1
            let wait = configuration.backoff.delay(attempt: attempt, using: &random)
            setState(.waitingToReconnect(retryIn: wait))
            try? await Task.sleep(for: wait)
        }
        setState(.stopped)
    }

    /// The connection's state, now and as it changes.
    public func states() -> AsyncStream<ConnectionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: ConnectionState.self)
        let id = UUID()
        stateObservers[id] = continuation
        continuation.yield(state)
        continuation.onTermination = { _ in Task { await self.removeStateObserver(id) } }
        return stream
    }

    private func removeStateObserver(_ id: UUID) {
        stateObservers[id] = nil
    }

    private func setState(_ new: ConnectionState) {
        guard new != state else { return }
        state = new
        for observer in stateObservers.values { observer.yield(new) }
    }

    private func attach(_ continuation: AsyncStream<String>.Continuation) {
        outgoing = continuation
        welcomed = false
    }

    /// Forgets the socket; the conversations keep their last state until it expires.
    /// - Returns: Whether the socket had been welcomed (a connection that worked resets the backoff).
    private func detach() -> Bool {
        outgoing?.finish()
        outgoing = nil
        for id in conversations.keys { conversations[id]!.isSubscribed = false }
        defer { welcomed = false }
        return welcomed
    }

    private func transmit(_ frame: ClientFrame) {
        guard welcomed else { return }
        outgoing?.yield(Self.encode(frame))
    }

    // MARK: Conversations

    /// Opens a conversation: subscribes now (or once connected) and after every reconnect.
    /// Close the handle when done; nothing it started outlives it.
    public func conversation(_ id: String) -> ConversationHandle {
        conversations[id]?.finish()
        let (typing, typingContinuation) = AsyncStream.makeStream(of: TypingState.self, bufferingPolicy: .bufferingNewest(1))
        let (messages, messagesContinuation) = AsyncStream.makeStream(of: ChatMessage.self)
        let (presence, presenceContinuation) = AsyncStream.makeStream(of: ServerFrame.Presence.self)
        conversations[id] = ConversationState(typing: typingContinuation, messages: messagesContinuation, presence: presenceContinuation)
        typingContinuation.yield(.idle)
        transmit(.subscribe(.init(conversation: id)))
        return ConversationHandle(id: id, client: self, typing: typing, messages: messages, presence: presence)
    }

    /// Closes a conversation: stops the user's activity there (leaving ends typing), unsubscribes, stops
    /// its timer and ends its sequences.
    func close(_ id: String) {
        guard let conversation = conversations.removeValue(forKey: id) else { return }
        conversation.finish()
        if activeIn.remove(id) != nil { transmit(.activity(.init(conversation: id, activity: .none))) }
        transmit(.unsubscribe(.init(conversation: id)))
    }

    /// Sends a message; returns the server's id once stored. Retried across reconnects until acknowledged.
    func send(_ text: String, in conversation: String) async throws -> String {
        let clientMessageId = UUID().uuidString.lowercased()
        return try await withCheckedThrowingContinuation { continuation in
            pending[clientMessageId] = PendingSend(conversation: conversation, text: text, continuation: continuation)
            transmit(.send(.init(conversation: conversation, clientMessageId: clientMessageId, text: text)))
        }
    }

    /// Sets the user's own activity in a conversation (what a composer or a bot reports).
    func setActivity(_ activity: Activity, in conversation: String) {
        if activity.isActive { activeIn.insert(conversation) } else { activeIn.remove(conversation) }
        transmit(.activity(.init(conversation: conversation, activity: activity)))
    }

    /// The open conversations whose `subscribed` arrived on the current connection (for tests).
    var subscribedConversations: Set<String> {
        Set(conversations.filter { $0.value.isSubscribed }.keys)
    }

    /// How many conversations are open and how many expiry timers run (for leak tests).
    var liveCounts: (conversations: Int, timers: Int) {
        (conversations.count, conversations.values.filter { $0.expiryTimer != nil }.count)
    }

    // MARK: Frames from the server

    private func receive(_ frame: ServerFrame) {
        switch frame {
        case .welcome(let welcome):
            currentUser = welcome.user.id
            welcomed = true
            setState(.connected)
            for id in conversations.keys { transmit(.subscribe(.init(conversation: id))) }
            for (clientMessageId, send) in pending {
                transmit(.send(.init(conversation: send.conversation, clientMessageId: clientMessageId, text: send.text)))
            }
        case .subscribed(let subscribed):
            guard let user = currentUser, conversations[subscribed.conversation] != nil else { return }
            var roster = TypingRoster<ContinuousClock.Instant>(currentUserID: user, participants: Set(subscribed.participants.map(\.id)))
            for participant in subscribed.participants where !participant.online { roster.setOnline(false, user: participant.id) }
            roster.apply(subscribed.activity, now: .now)
            conversations[subscribed.conversation]!.roster = roster
            conversations[subscribed.conversation]!.isSubscribed = true
            for message in subscribed.recentMessages { conversations[subscribed.conversation]!.deliver(message) }
            publish(subscribed.conversation)
        case .activity(let update):
            guard conversations[update.conversation]?.roster != nil else { return }
            conversations[update.conversation]!.roster!.apply(update, now: .now)
            publish(update.conversation)
        case .presence(let presence):
            guard conversations[presence.conversation] != nil else { return }
            conversations[presence.conversation]!.roster?.setOnline(presence.online, user: presence.user)
            conversations[presence.conversation]!.presence.yield(presence)
            publish(presence.conversation)
        case .message(let message):
            conversations[message.conversation]?.deliver(message)
        case .ack(let ack):
            pending.removeValue(forKey: ack.clientMessageId)?.continuation.resume(returning: ack.messageId)
        case .error(let failure):
            handle(failure)
        case .stream:
            break
        }
    }

    /// Answers the server's refusal of a pending send: a rate limit is retried a second later; anything
    /// else (too large, not a participant) fails the send with the server's reason.
    private func handle(_ failure: ServerFrame.Failure) {
        guard let ref = failure.ref, pending[ref] != nil else { return }
        if failure.code == .rateLimited {
            Task { [weak self] in
                try? await Task.sleep(for: .seconds(1))
                await self?.resend(ref)
            }
        } else {
            pending.removeValue(forKey: ref)?.continuation.resume(throwing: TypewireClientError(code: failure.code, message: failure.message))
        }
    }

    private func resend(_ clientMessageId: String) {
        guard let send = pending[clientMessageId] else { return }
        transmit(.send(.init(conversation: send.conversation, clientMessageId: clientMessageId, text: send.text)))
    }

    /// Publishes a conversation's typing state and arms its timer for the next expiry.
    private func publish(_ id: String) {
        guard var conversation = conversations[id], var roster = conversation.roster else { return }
        let now = ContinuousClock.now
        roster.removeExpired(now: now)
        conversation.roster = roster
        let typers = roster.typers(at: now)
        let state = TypingState(
            typers: typers, text: formatter.text(for: typers), accessibilityText: formatter.accessibilityText(for: typers)
        )
        if state != conversation.lastPublished {
            conversation.lastPublished = state
            conversation.typing.yield(state)
        }
        conversation.expiryTimer?.cancel()
        conversation.expiryTimer = roster.nextDeadline.map { deadline in
            Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                guard !Task.isCancelled else { return }
                await self?.publish(id)
            }
        }
        conversations[id] = conversation
    }

    private static func encode(_ frame: ClientFrame) -> String {
        String(decoding: FrameCodec.encode(frame), as: UTF8.self)
    }
}

/// A message waiting for its `ack`.
private struct PendingSend {
    var conversation: String
    var text: String
    var continuation: CheckedContinuation<String, any Error>
}

/// What the client keeps for one open conversation.
private struct ConversationState {
    var typing: AsyncStream<TypingState>.Continuation
    var messages: AsyncStream<ChatMessage>.Continuation
    var presence: AsyncStream<ServerFrame.Presence>.Continuation
    var roster: TypingRoster<ContinuousClock.Instant>?
    var lastPublished: TypingState = .idle
    var expiryTimer: Task<Void, Never>?
    var lastMessageID: Int = 0
    var isSubscribed = false

    init(
        typing: AsyncStream<TypingState>.Continuation, messages: AsyncStream<ChatMessage>.Continuation,
        presence: AsyncStream<ServerFrame.Presence>.Continuation
    ) {
        self.typing = typing
        self.messages = messages
        self.presence = presence
    }

    /// Yields a message unless it was delivered before (a resync after a reconnect repeats recent ones);
    /// edits of known messages pass.
    mutating func deliver(_ message: ChatMessage) {
        let id = Int(message.id) ?? .max
        guard id > lastMessageID || message.editedAt != nil else { return }
        lastMessageID = max(lastMessageID, id)
        messages.yield(message)
    }

    func finish() {
        expiryTimer?.cancel()
        typing.finish()
        messages.finish()
        presence.finish()
    }
}
