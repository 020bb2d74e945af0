#if canImport(SwiftUI)
    import SwiftUI
    import TypewireClient

    /// A conversation screen made of the pieces above: the connection's banner while it is down, the
    /// messages, the thinking or typing indicator, and a composer. It shows model properties only; the model follows the screen's and the app's lifecycle.
    /// VoiceOver hears who starts typing (``ConversationModel/announcement``); Return sends, Shift-Return
    /// on a hardware keyboard adds a line.
    ///
    /// Compiled on Apple platforms only (SwiftUI); everything it shows is a property of the model, tested
    /// on Linux.
    public struct ConversationView: View {
        @State private var model: ConversationModel
        /// The current user's id, to put their bubbles on the trailing side.
        let userID: String?
        @Environment(\.scenePhase) private var scenePhase

        /// A screen for a model the app owns (and keeps for as long as the screen lives).
        public init(model: ConversationModel, userID: String?) {
            _model = State(initialValue: model)
            self.userID = userID
        }

        /// A screen that owns its model: one per conversation id, kept across the parent's updates (give
        /// the view `.id(conversationID)` where the conversation can change). `parentMessageID`: the
        /// message whose thread it shows (nil: the main timeline). `messageSource`: the app's own
        /// messages, for a typing-only server.
        public init(
            client: TypewireClient, conversationID: String, parentMessageID: String? = nil, userID: String?,
            messageSource: (any MessageSource)? = nil
        ) {
            _model = State(
                initialValue: ConversationModel(
                    client: client, conversationID: conversationID, parentMessageID: parentMessageID, messageSource: messageSource))
            self.userID = userID
        }

        public var body: some View {
            VStack(spacing: 0) {
                if let banner = model.connectionBanner {
                    Text(banner.text)
                        .font(.footnote)
                        .foregroundStyle(.secondary)
                        .frame(maxWidth: .infinity)
                        .padding(.vertical, 4)
                        .background(.bar)
                }
                ScrollView {
                    LazyVStack(spacing: 6) {
                        ForEach(model.messages) { item in
                            StreamingMessageBubble(item: item, isMine: item.sender == userID)
                            if let replying = item.messageID.flatMap(model.replyingText(for:)) {
                                Text(replying)
                                    .font(.caption)
                                    .foregroundStyle(.secondary)
                                    .frame(maxWidth: .infinity, alignment: item.sender == userID ? .trailing : .leading)
                                    .accessibilityLabel(item.messageID.flatMap(model.accessibilityReplyingText(for:)) ?? replying)
                            }
                        }
                    }
                    .padding(.horizontal)
                }
                .defaultScrollAnchor(.bottom)
                TypingIndicatorView(model: model)
                    .padding(.horizontal)
                    .padding(.vertical, 4)
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
                .padding()
            }
            .onChange(of: model.announcement) { _, announcement in
                if let announcement { AccessibilityNotification.Announcement(announcement.text).post() }
            }
            .task { await model.appear() }
            .onDisappear { Task { await model.disappear() } }
            .onChange(of: scenePhase) { _, phase in
                Task {
                    if phase == .background { await model.enterBackground() }
                    if phase == .active { await model.enterForeground() }
                }
            }
        }
    }
#endif
