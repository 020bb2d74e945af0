#if canImport(SwiftUI)
    import SwiftUI
    import TypewireClient
    #if os(iOS)
        import Combine
        import GameController
    #endif

    /// A conversation screen made of the pieces above: the connection's banner while it is down, the
    /// messages, the thinking or typing indicator, and a composer. It shows model properties only; the model
    /// follows the screen's and the app's lifecycle. VoiceOver hears who starts typing
    /// (``ConversationModel/announcement``); on a hardware keyboard Return sends and Shift-Return adds a
    /// line, on the software keyboard Return adds a line and the button sends.
    ///
    /// Compiled on Apple platforms only (SwiftUI, iOS 17 / macOS 14 API); everything it shows is a property
    /// of the model, tested on Linux.
    public struct ConversationView: View {
        private let content: Content
        /// The current user's id, to put their bubbles on the trailing side.
        let userID: String?

        private enum Content {
            /// The app's model: the view shows whichever it is given.
            case given(ConversationModel)
            /// The view's own: one per conversation and thread, made anew when they change.
            case owned(key: ModelKey, make: @MainActor () -> ConversationModel)
        }

        private struct ModelKey: Hashable {
            let conversationID: String
            let parentMessageID: String?
        }

        /// A screen for a model the app owns (and keeps for as long as the screen lives); a new model given
        /// on an update is shown from then on.
        public init(model: ConversationModel, userID: String?) {
            content = .given(model)
            self.userID = userID
        }

        /// A screen that owns its model: one per conversation (and thread), kept across the parent's updates
        /// and made anew when `conversationID` or `parentMessageID` changes (a split view's detail needs no
        /// `.id`). `parentMessageID`: the message whose thread it shows (nil: the main timeline).
        /// `messageSource`: the app's own messages, for a typing-only server.
        public init(
            client: TypewireClient, conversationID: String, parentMessageID: String? = nil, userID: String?,
            messageSource: (any MessageSource)? = nil
        ) {
            content = .owned(key: ModelKey(conversationID: conversationID, parentMessageID: parentMessageID)) {
                ConversationModel(
                    client: client, conversationID: conversationID, parentMessageID: parentMessageID, messageSource: messageSource)
            }
            self.userID = userID
        }

        public var body: some View {
            switch content {
            case .given(let model): ConversationScreen(model: model, userID: userID).id(ObjectIdentifier(model))
            case .owned(let key, let make): OwnedConversationScreen(make: make, userID: userID).id(key)
            }
        }
    }

    /// The screen of a model it owns: made once per identity (the owning view's `.id` gives a new one).
    private struct OwnedConversationScreen: View {
        @State private var model: ConversationModel
        let userID: String?

        init(make: @MainActor () -> ConversationModel, userID: String?) {
            _model = State(initialValue: make())
            self.userID = userID
        }

        var body: some View { ConversationScreen(model: model, userID: userID) }
    }

    /// The screen of one model. Its body reads nothing of the model that changes: each part below is a view
    /// of its own that reads its own slice, so a typing change redraws the indicator row, not the messages
    /// (``ConversationModel/replying`` is kept apart for the same reason).
    private struct ConversationScreen: View {
        let model: ConversationModel
        let userID: String?
        @Environment(\.scenePhase) private var scenePhase

        var body: some View {
            VStack(spacing: 0) {
                ConnectionBannerRow(model: model)
                ScrollView {
                    MessageList(model: model, userID: userID).padding(.horizontal)
                }
                .defaultScrollAnchor(.bottom)
                IndicatorRow(model: model)
                    .padding(.horizontal)
                    .padding(.vertical, 4)
                ComposerRow(model: model).padding()
            }
            .task { await model.appear() }
            .onDisappear { Task { await model.disappear() } }
            #if os(iOS)
                // Return sends from a hardware keyboard only; on the software one it is a newline (iOS 14 API).
                .onAppear { model.hasHardwareKeyboard = GCKeyboard.coalesced != nil }
                .onReceive(NotificationCenter.default.publisher(for: .GCKeyboardDidConnect)) { _ in model.hasHardwareKeyboard = true }
                .onReceive(NotificationCenter.default.publisher(for: .GCKeyboardDidDisconnect)) { _ in
                    model.hasHardwareKeyboard = GCKeyboard.coalesced != nil
                }
            #endif
            .onChange(of: scenePhase) { _, phase in
                Task {
                    if phase == .background { await model.enterBackground() }
                    if phase == .active { await model.enterForeground() }
                }
            }
        }
    }

    /// "Connecting…", "No connection" or "Can't connect" while the connection is down: reads
    /// ``ConversationModel/connectionBanner`` only.
    private struct ConnectionBannerRow: View {
        let model: ConversationModel

        var body: some View {
            if let banner = model.connectionBanner {
                Text(banner.text)
                    .font(.footnote)
                    .foregroundStyle(.secondary)
                    .frame(maxWidth: .infinity)
                    .padding(.vertical, 4)
                    .background(.bar)
            }
        }
    }

    /// The bubbles: reads ``ConversationModel/messages`` only (a message's replying label reads its own).
    private struct MessageList: View {
        let model: ConversationModel
        let userID: String?

        var body: some View {
            LazyVStack(spacing: 6) {
                ForEach(model.messages) { item in
                    StreamingMessageBubble(
                        item: item, isMine: item.sender == userID, retry: { Task { await model.retry(itemID: item.id) } },
                        stop: item.replyID.flatMap { replyID in
                            model.canStop(item) ? { Task { await model.stop(replyID: replyID) } } : nil
                        }
                    )
                    // A lazy stack makes a row as it scrolls into view and drops it after it leaves: what is on
                    // screen, for "seen" (the model counts a second of it while the screen is open).
                    .onAppear { model.rowAppeared(item.id) }
                    .onDisappear { model.rowDisappeared(item.id) }
                    if let messageID = item.messageID {
                        ReplyingLabel(model: model, messageID: messageID, isMine: item.sender == userID)
                    }
                    if item.id == model.lastOwnStoredItemID {
                        StatusLabel(model: model, itemID: item.id)
                    }
                }
            }
        }
    }

    /// "Seen by Alice and Bob", "Delivered" or "Sent" under the user's newest message, as Messages says it:
    /// reads the read state in its own body, so a receipt redraws this label, not the list.
    private struct StatusLabel: View {
        let model: ConversationModel
        let itemID: String

        var body: some View {
            if let status = model.statusText(for: itemID) {
                Text(status)
                    .font(.caption2)
                    .foregroundStyle(.secondary)
                    .frame(maxWidth: .infinity, alignment: .trailing)
                    .accessibilityLabel(model.accessibilityStatusText(for: itemID) ?? status)
            }
        }
    }

    /// "2 people are replying…" under a message whose thread people write in: reads
    /// ``ConversationModel/replying`` only, which changes when a thread's count does.
    private struct ReplyingLabel: View {
        let model: ConversationModel
        let messageID: String
        let isMine: Bool

        var body: some View {
            if let replying = model.replyingText(for: messageID) {
                Text(replying)
                    .font(.caption)
                    .foregroundStyle(.secondary)
                    .frame(maxWidth: .infinity, alignment: isMine ? .trailing : .leading)
                    .accessibilityLabel(model.accessibilityReplyingText(for: messageID) ?? replying)
            }
        }
    }

    /// The typing or thinking indicator, and VoiceOver's announcements of who starts: the only part of the
    /// screen a typing change redraws.
    private struct IndicatorRow: View {
        let model: ConversationModel

        var body: some View {
            TypingIndicatorView(model: model)
                .onChange(of: model.announcement) { _, announcement in
                    guard let announcement else { return }
                    // Queued behind what VoiceOver is reading, not interrupting it (iOS 17 / macOS 14).
                    var spoken = AttributedString(announcement.text)
                    spoken.accessibilitySpeechAnnouncementPriority = .low
                    AccessibilityNotification.Announcement(spoken).post()
                }
        }
    }

    /// The draft's field and the send button: reads ``ConversationModel/draft``, so a keystroke redraws
    /// this row only.
    private struct ComposerRow: View {
        let model: ConversationModel

        var body: some View {
            HStack {
                TextField(UIText.message.localized, text: Bindable(model).draft, axis: .vertical)
                    .textFieldStyle(.roundedBorder)
                    .submitLabel(.send)
                    .onSubmit { Task { await model.send() } }
                    .onKeyPress(.return, phases: .down) { press in
                        if press.modifiers.contains(.shift) { model.allowNewline() }  // the field inserts it
                        return .ignored  // Return's newline reaches the model, which sends (returnKeySends)
                    }
                Button(UIText.send.localized) { Task { await model.send() } }
                    .disabled(model.draft.allSatisfy(\.isWhitespace))
            }
        }
    }
#endif
