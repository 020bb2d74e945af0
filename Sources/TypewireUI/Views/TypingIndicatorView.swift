#if canImport(SwiftUI)
    import SwiftUI

    /// "Alice is typing…" beside three dots that fade in sequence (a 0.6 s loop), in the caption font and
    /// the secondary colour. The row keeps its height when no one is active and fades in and out in 0.2 s,
    /// so the messages above it never jump. VoiceOver reads the text without the ellipsis.
    public struct TypingIndicatorView: View {
        let text: String?
        let accessibilityText: String?

        /// An indicator of this text (nil: no one is active).
        public init(text: String?, accessibilityText: String?) {
            self.text = text
            self.accessibilityText = accessibilityText
        }

        /// The indicator of a conversation's screen.
        public init(model: ConversationModel) {
            self.init(text: model.indicatorText, accessibilityText: model.indicatorAccessibilityText)
        }

        public var body: some View {
            HStack(spacing: 6) {
                TypingDots()
                Text(text ?? " ").lineLimit(1)
            }
            .font(.caption)
            .foregroundStyle(.secondary)
            .frame(maxWidth: .infinity, alignment: .leading)
            .opacity(text == nil ? 0 : 1)
            .animation(.easeInOut(duration: 0.2), value: text == nil)
            .accessibilityElement(children: .ignore)
            .accessibilityLabel(accessibilityText ?? "")
            .accessibilityHidden(text == nil)
        }
    }

    /// Three dots whose opacity follows a wave through them once every 0.6 s.
    struct TypingDots: View {
        var body: some View {
            TimelineView(.animation) { context in
                let phase = context.date.timeIntervalSinceReferenceDate.truncatingRemainder(dividingBy: 0.6) / 0.6
                HStack(spacing: 3) {
                    ForEach(0..<3, id: \.self) { index in
                        Circle().frame(width: 5, height: 5).opacity(Self.opacity(phase: phase, dot: index))
                    }
                }
            }
        }

        /// Full for the dot the wave is on, down to 0.3 for the dots farthest from it.
        static func opacity(phase: Double, dot: Int) -> Double {
            let distance = abs(phase - Double(dot) / 3)
            return 1 - min(1, min(distance, 1 - distance) * 3) * 0.7
        }
    }
#endif
