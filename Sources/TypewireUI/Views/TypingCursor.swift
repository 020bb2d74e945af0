#if canImport(SwiftUI)
    import SwiftUI

    /// A streaming reply's text with the cursor after its last word (inline, so it follows the text's
    /// wrapping): the cursor blinks twice a second, or stands still with Reduce Motion. Nothing redraws
    /// once the reply stops streaming.
    ///
    /// Compiled on Apple platforms only (SwiftUI).
    public struct TypingCursor: View {
        let text: String
        let isStreaming: Bool
        @Environment(\.typingIndicatorStyle) private var style
        @Environment(\.accessibilityReduceMotion) private var reduceMotion

        /// `text`, followed by the cursor while `isStreaming`.
        public init(text: String, isStreaming: Bool) {
            self.text = text
            self.isStreaming = isStreaming
        }

        public var body: some View {
            Group {
                if isStreaming && !reduceMotion {
                    TimelineView(.periodic(from: .now, by: 0.5)) { context in
                        line(cursorShown: Int(context.date.timeIntervalSinceReferenceDate * 2).isMultiple(of: 2))
                    }
                } else {
                    line(cursorShown: isStreaming)
                }
            }
            .accessibilityLabel(text)
        }

        /// The text and, while streaming, the cursor (clear when blinked off, so nothing moves).
        private func line(cursorShown: Bool) -> Text {
            guard isStreaming else { return Text(text) }
            return Text(text) + Text(style.cursor).foregroundStyle(cursorShown ? Color.primary : Color.clear)
        }
    }
#endif
