#if canImport(SwiftUI)
    import SwiftUI

    /// A message bubble; a bot's reply that is still streaming ends in a blinking cursor after its last
    /// word (``TypingCursor``), with a Stop button when the bubble is given `stop`, and says how it ended if
    /// not as written ("Stopped"); a message on its way is faded, and one that was not sent says so, with a
    /// button that sends it again when the bubble is given `retry`.
    /// VoiceOver reads who wrote it, its text and its state (``MessageItem/accessibilityLabel(isMine:language:)``).
    ///
    /// Compiled on Apple platforms only (SwiftUI, iOS 17 / macOS 14 API).
    public struct StreamingMessageBubble: View {
        let item: MessageItem
        let isMine: Bool
        let retry: (() -> Void)?
        let stop: (() -> Void)?

        /// A bubble for an item; `isMine` puts it on the trailing side in the accent colour; `retry`, if
        /// given, is what "Try Again" under a message that was not sent does (``ConversationModel/retry(itemID:)``);
        /// `stop`, if given, what "Stop" under a streaming reply does (``ConversationModel/stop(replyID:)``;
        /// give it when ``ConversationModel/canStop(_:)``).
        public init(item: MessageItem, isMine: Bool, retry: (() -> Void)? = nil, stop: (() -> Void)? = nil) {
            self.item = item
            self.isMine = isMine
            self.retry = retry
            self.stop = stop
        }

        public var body: some View {
            VStack(alignment: isMine ? .trailing : .leading, spacing: 2) {
                VStack(alignment: isMine ? .trailing : .leading, spacing: 2) {
                    TypingCursor(text: item.text, isStreaming: item.isStreaming)
                        .padding(.horizontal, 12)
                        .padding(.vertical, 8)
                        .foregroundStyle(isMine ? Color.white : Color.primary)
                        .background(isMine ? Color.accentColor : Color.secondary.opacity(0.15), in: .rect(cornerRadius: 16))
                        .opacity(item.isPending ? 0.6 : 1)
                    if item.isFailed {
                        Text(UIText.notSent.localized).font(.caption).foregroundStyle(.red)
                    }
                    if let note = item.replyEndNote {
                        Text(note.localized).font(.caption).foregroundStyle(.secondary)
                    }
                }
                .accessibilityElement(children: .ignore)
                .accessibilityLabel(item.accessibilityLabel(isMine: isMine))
                // Outside the bubble's element, so that VoiceOver reaches it as a button of its own.
                if item.isFailed, let retry {
                    Button(UIText.tryAgain.localized, action: retry).font(.caption)
                }
                if item.isStreaming, let stop {
                    Button(UIText.stop.localized, action: stop).font(.caption).buttonStyle(.bordered)
                }
            }
            .frame(maxWidth: .infinity, alignment: isMine ? .trailing : .leading)
        }
    }
#endif
