#if canImport(SwiftUI)
    import SwiftUI

    /// A message bubble; a bot's reply that is still streaming ends in a blinking cursor after its last
    /// word (``TypingCursor``), a message on its way is faded, and one the server refused says so.
    /// VoiceOver reads who wrote it, its text and its state (``MessageItem/accessibilityLabel(isMine:language:)``).
    ///
    /// Compiled on Apple platforms only (SwiftUI, iOS 17 / macOS 14 API).
    public struct StreamingMessageBubble: View {
        let item: MessageItem
        let isMine: Bool

        /// A bubble for an item; `isMine` puts it on the trailing side in the accent colour.
        public init(item: MessageItem, isMine: Bool) {
            self.item = item
            self.isMine = isMine
        }

        public var body: some View {
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
            }
            .frame(maxWidth: .infinity, alignment: isMine ? .trailing : .leading)
            .accessibilityElement(children: .ignore)
            .accessibilityLabel(item.accessibilityLabel(isMine: isMine))
        }
    }
#endif
