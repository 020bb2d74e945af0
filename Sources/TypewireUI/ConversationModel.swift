import Foundation
import Observation
import TypewireClient
import TypewireCore

/// One conversation's screen, observable by SwiftUI without glue: its messages (a bot's reply merged in
/// while it streams), who is typing, who is online, where a bot's reply stands, and the draft, whose
/// every change drives a ``/TypewireClient/Composer``.
///
/// Call ``appear()`` when a screen showing it shows and ``disappear()`` when it goes (each appear counts:
/// two windows keep it open until both went); ``enterBackground()`` and ``enterForeground()`` when the
/// app does, the last of them winning. The calls may come in any order and overlap. Nothing here blocks
/// the main actor: the client is an actor of its own, and a keystroke is a lock and an enqueue.
///
/// A thread's screen is a model of its own (``init(client:conversationID:parentMessageID:messageSource:)``):
/// its bubbles are the thread's replies, its indicator says who types in the thread, and its draft sends a
/// reply there. The main timeline's model shows no reply and no one typing in a thread; a message whose
/// thread people write in says so (``replyingText(for:)``: "2 people are replying…").
///
/// Own one model per conversation for as long as its screen lives (`@State` in the view that shows it,
/// or a model the app keeps), not one made anew in a `body`: a model released while open closes its
/// subscription by itself, but a new one starts from nothing.
@MainActor @Observable
public final class ConversationModel {
    /// The conversation's id.
    public let conversationID: String
    /// The message whose thread the screen shows; nil for the conversation's main timeline.
    public let parentMessageID: String?
    /// The bubbles, oldest first.
    public internal(set) var timeline = MessageTimeline()
    /// Who is active now, ready to show.
    public internal(set) var typing: TypingState = .idle
    /// Who writes in which message's thread (``/TypewireClient/TypingState/replying``), kept apart from ``typing`` and
    /// changed only when a count changes: a message's "2 people are replying…" is not read again at every
    /// change of who types in the conversation.
    public internal(set) var replying: [String: ThreadReplying] = [:]
    /// The members online now, as far as the client knows: none while it is not connected (the next
    /// `subscribed` says who is).
    public internal(set) var onlineMembers: Set<String> = []
    /// Where a bot's reply stands: the first of ``replies``, or ``ReplyPhase/idle``.
    public internal(set) var reply: ReplyPhase = .idle
    /// Every bot's reply under way, in the order they began: two bots answering at once each have their
    /// own phase ("Clawd is thinking…" beside Scout's streaming reply).
    public internal(set) var replies: [BotReplyPhase] = []
    /// Why the last send failed, for an alert: a ``/TypewireClient/TypewireClientError`` (a message too long, a
    /// conversation left), or the ``MessageSource``'s error.
    public internal(set) var lastError: (any Error)?
    /// Whether the screen follows the conversation (between ``appear()`` and ``disappear()``).
    public internal(set) var isOpen = false
    /// The client's connection, followed while the screen is open.
    public internal(set) var connection: ConnectionState = .connecting
    /// What the screen says about the connection, if anything ("Connecting…" after a drop, "No
    /// connection", "Can't connect"): ``ConnectionBanner``.
    public internal(set) var connectionBanner: ConnectionBanner?
    /// The text being written. Every change tells the composer, which tells the others "is typing"; a
    /// Return typed at its end on a hardware keyboard sends it (``returnKeySends``, ``hasHardwareKeyboard``).
    public var draft: String = "" {
        didSet { draftChanged(from: oldValue) }
    }
    /// Whether Return at the end of the draft sends it from a hardware keyboard, as in Messages (default
    /// true); a newline the user asks for (``allowNewline()``, on Shift-Return) stays. False: Return is
    /// always a newline.
    public var returnKeySends = true
    /// Whether the user types on a hardware keyboard. On a software keyboard (or with VoiceOver's), Return
    /// is a newline and the send button sends, as in Messages on iPhone. `ConversationView` (Apple platforms) keeps it up to
    /// date on iOS; default false on iOS and visionOS, true elsewhere (a Mac's keyboard).
    public var hasHardwareKeyboard = ConversationModel.typesOnAHardwareKeyboardByDefault

    /// Where a software keyboard is the one to expect until told otherwise.
    nonisolated static var typesOnAHardwareKeyboardByDefault: Bool {
        #if os(iOS) || os(visionOS)
            false
        #else
            true
        #endif
    }
    /// The timeline's read state: the user's unread count and how far the others have read
    /// (``unreadCount``, ``readers(of:)``).
    public internal(set) var readState = ReadState()
    /// What VoiceOver should say now: someone started typing, a bot began thinking (``TypingAnnouncer``:
    /// not at every refresh, at most once every 5 s). The view posts each new one.
    public internal(set) var announcement: Announcement?

    @ObservationIgnored let client: TypewireClient?
    /// Where messages come from and go to instead of the Typewire server, if the app keeps them.
    @ObservationIgnored let messageSource: (any MessageSource)?
    @ObservationIgnored var handle: ConversationHandle?
    @ObservationIgnored var composer: Composer?
    @ObservationIgnored var listening: Task<Void, Never>?
    @ObservationIgnored var bots = BotReplies()
    @ObservationIgnored var botTimer: Task<Void, Never>?
    @ObservationIgnored var userID: String?
    @ObservationIgnored var isClearingDraft = false
    @ObservationIgnored var allowsNewline = false
    @ObservationIgnored var announcer = TypingAnnouncer<ContinuousClock.Instant>()
    @ObservationIgnored var announcementTimer: Task<Void, Never>?
    /// When the bubbles on screen count as seen, and its timer.
    @ObservationIgnored var seen = SeenTracker<ContinuousClock.Instant>()
    @ObservationIgnored var seenTimer: Task<Void, Never>?
    /// The bubbles on screen (``rowAppeared(_:)``), and the reports of what was seen, in order.
    @ObservationIgnored var rowsOnScreen: Set<String> = []
    @ObservationIgnored var reading: Task<Void, Never>?
    /// The time of the newest of the app's own messages reported delivered (a source may deliver older ones
    /// after newer).
    @ObservationIgnored var deliveredUpTo = Int64.min
    /// The members' names, for "Seen by".
    @ObservationIgnored var memberNames: [String: String] = [:]
    /// The members, as the last `subscribed` listed them: whom a message must reach to be delivered.
    @ObservationIgnored var memberIDs: Set<String> = []
    /// When each member was last seen, as the server last said (``presenceText(for:at:)``).
    var lastSeen: [String: ConversationMember] = [:]
    /// What the calls so far ask for (on screen, in the background).
    @ObservationIgnored var lifecycle = ScreenLifecycle()
    /// Where the lifecycle's changes run, one after another.
    @ObservationIgnored let lane = ChangeLane()

    /// A model of one conversation of a client (which runs elsewhere: `Task { try await client.run() }`).
    /// - Parameters:
    ///   - client: The app's client.
    ///   - conversationID: The conversation the screen shows.
    ///   - parentMessageID: The message whose thread the screen shows; nil (the default): the main
    ///     timeline.
    ///   - messageSource: The app's own store of messages, for a typing-only server (the Firebase path);
    ///     nil: the Typewire server keeps them.
    public init(
        client: TypewireClient, conversationID: String, parentMessageID: String? = nil, messageSource: (any MessageSource)? = nil
    ) {
        self.client = client
        self.conversationID = conversationID
        self.parentMessageID = parentMessageID
        self.messageSource = messageSource
    }

    /// A model released while open ends what it started: its listening, its timer, and its handle (which
    /// stops the user's typing and ends the subscription, unless another handle follows the conversation).
    deinit {
        listening?.cancel()
        botTimer?.cancel()
        announcementTimer?.cancel()
        seenTimer?.cancel()
        if let handle { Task { await handle.close() } }
    }

    /// A model that shows fixed state and connects to nothing: for SwiftUI previews.
    public init(
        previewOf conversationID: String, messages: [MessageItem] = [], typing: TypingState = .idle,
        reply: ReplyPhase = .idle, onlineMembers: Set<String> = [], draft: String = ""
    ) {
        client = nil
        messageSource = nil
        self.conversationID = conversationID
        parentMessageID = nil
        timeline = MessageTimeline(items: messages)
        self.typing = typing
        replying = typing.replying
        self.reply = reply
        replies = reply == .idle ? [] : [BotReplyPhase(bot: "bot", phase: reply)]
        self.onlineMembers = onlineMembers
        self.draft = draft
    }

    /// The bubbles, oldest first, a streaming reply included.
    public var messages: [MessageItem] { timeline.items }

    /// The earlier name of ``timeline`` ("thread" is a reply thread everywhere else: ``parentMessageID``).
    @available(*, deprecated, renamed: "timeline")
    public var thread: MessageTimeline { timeline }
    /// "Alice is typing…", or nil.
    public var typingText: String? { typing.text }
    /// The same for VoiceOver: no ellipsis, names uncut.
    public var accessibilityText: String? { typing.accessibilityText }
    /// Who is active, in stable order.
    public var typers: [Typer] { typing.typers }
    /// What a message of the main timeline shows while others write in its thread: "2 people are
    /// replying…" (``/TypewireCore/TypingText/replyingText(count:)``); nil when no one does (and always in a thread's
    /// model, whose indicator names them).
    public func replyingText(for messageID: String) -> String? { replying[messageID]?.text }
    /// The same for VoiceOver.
    public func accessibilityReplyingText(for messageID: String) -> String? { replying[messageID]?.accessibilityText }
    /// What the indicator row under the messages says: ``typingText``, except when everyone active is a
    /// bot whose reply streams, whose cursor says it (no "Clawd is typing…" under a bubble that grows).
    /// With anyone else active it says all of it: "Clawd is typing… · Scout is thinking…".
    public var indicatorText: String? { onlyStreamingBotsAreActive ? nil : typing.text }
    /// The same for VoiceOver.
    public var indicatorAccessibilityText: String? { onlyStreamingBotsAreActive ? nil : typing.accessibilityText }
    /// Whether a thinking indicator shows ("Clawd is thinking…"): a bot thinks or runs a tool.
    public var showsThinkingIndicator: Bool {
        replies.contains {
            switch $0.phase {
            case .thinking, .tool: true
            case .idle, .streaming: false
            }
        }
    }
    /// Whether a streaming reply shows a cursor at its end.
    public var showsStreamingCursor: Bool {
        replies.contains { if case .streaming = $0.phase { true } else { false } }
    }

    private var onlyStreamingBotsAreActive: Bool {
        let streaming = Set(replies.filter { if case .streaming = $0.phase { true } else { false } }.map(\.bot))
        return !streaming.isEmpty && typing.typers.allSatisfy { streaming.contains($0.userID) }
    }

    // MARK: What the conversation does

    func show(_ state: TypingState) {
        typing = state
        if replying != state.replying { replying = state.replying }
        announce(announcer.stateChanged(state, now: .now))
        bots.typersChanged(state.typers, now: .now)
        step()
    }

    func show(_ state: ConnectionState) {
        connection = state
        connectionBanner = ConnectionBanner.after(state, previous: connectionBanner)
        // Away from the server, nobody is known to be online: the next `subscribed` says who is.
        if state != .connected { onlineMembers = [] }
    }

    func receive(_ message: ChatMessage) {
        guard message.thread == parentMessageID else { return }  // one timeline: a source may deliver them all
        timeline.receive(message)
        refreshReply()
        // The app's own message of another member reached the device: a typing-only server tells the sender
        // (on a server that keeps messages, the client reports its own).
        if messageSource != nil, message.editedAt == nil, let userID, message.sender != userID, message.sentAt > deliveredUpTo,
            let handle
        {
            deliveredUpTo = message.sentAt
            let previous = reading
            reading = Task { [handle] in
                await previous?.value
                await handle.markDelivered(message.id, sentAt: message.sentAt)
            }
        }
    }

    func receive(_ part: ServerFrame.StreamDelta) {
        guard part.thread == parentMessageID else { return }
        let name = typing.typers.first { $0.userID == part.user }?.name
        timeline.stream(part, senderName: name, now: Int64(Date().timeIntervalSince1970 * 1_000))
        bots.chunk(from: part.user, isFinal: part.final, now: .now)
        step()
    }

    /// After the bots' machines moved: the phases, and a timer for the next deadline.
    /// - Parameter gaveUp: The bots whose replies were given up: their cursors go.
    private func step(gaveUp: [String] = []) {
        for bot in gaveUp { timeline.endStreams(of: bot) }
        refreshReply()
        botTimer?.cancel()
        botTimer = bots.nextDeadline.map { deadline in
            Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                guard !Task.isCancelled, let self else { return }
                self.step(gaveUp: self.bots.tick(now: .now))
            }
        }
    }

    func refreshReply() {
        let typers = typing.typers
        replies = bots.phases(
            name: { bot in typers.first { $0.userID == bot }?.name ?? self.timeline.items.last { $0.sender == bot }?.senderName },
            streamingText: { bot in self.timeline.items.last { $0.isStreaming && $0.sender == bot }?.text })
        reply = replies.first?.phase ?? .idle
    }
}
