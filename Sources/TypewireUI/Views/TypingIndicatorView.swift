#if canImport(SwiftUI)
    import SwiftUI

    /// "Alice is typing…" beside three dots that fade in sequence (a 0.6 s loop), in the style of
    /// ``TypingIndicatorStyle``. The row keeps its height when no one is active and fades in and out in
    /// 0.2 s, so the messages above it never jump. VoiceOver reads the text without the ellipsis.
    ///
    /// With Reduce Motion the dots stand still and the row appears without a fade; at accessibility text
    /// sizes the text wraps instead of being cut. The dots redraw only while someone is active.
    ///
    /// Compiled on Apple platforms only (SwiftUI); what it shows is ``ConversationModel``'s, tested on Linux.
    public struct TypingIndicatorView: View {
        let text: String?
        let accessibilityText: String?
        @Environment(\.typingIndicatorStyle) private var style
        @Environment(\.accessibilityReduceMotion) private var reduceMotion
        @Environment(\.dynamicTypeSize) private var typeSize

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
            HStack(alignment: .firstTextBaseline, spacing: 6) {
                TypingDots(isAnimating: text != nil && !reduceMotion)
                Text(text ?? " ").lineLimit(typeSize.isAccessibilitySize ? nil : 1)
            }
            .font(style.font)
            .foregroundStyle(style.color)
            .frame(maxWidth: .infinity, alignment: .leading)
            .opacity(text == nil ? 0 : 1)
            .animation(reduceMotion ? nil : .easeInOut(duration: 0.2), value: text == nil)
            .accessibilityElement(children: .ignore)
            .accessibilityLabel(accessibilityText ?? "")
            .accessibilityHidden(text == nil)
        }
    }

    /// Three dots whose opacity follows a wave through them once every 0.6 s while `isAnimating`; still
    /// (and redrawn never) otherwise. Their size follows the style and Dynamic Type.
    ///
    /// Compiled on Apple platforms only (SwiftUI).
    public struct TypingDots: View {
        let isAnimating: Bool
        @Environment(\.typingIndicatorStyle) private var style
        @ScaledMetric(relativeTo: .caption) private var scale: CGFloat = 1

        /// Dots that wave while `isAnimating`.
        public init(isAnimating: Bool) {
            self.isAnimating = isAnimating
        }

        public var body: some View {
            TimelineView(.animation(minimumInterval: 1.0 / 30, paused: !isAnimating)) { context in
                let phase = context.date.timeIntervalSinceReferenceDate.truncatingRemainder(dividingBy: 0.6) / 0.6
                HStack(spacing: style.dotSize * scale * 0.6) {
                    ForEach(0..<3, id: \.self) { index in
                        Circle()
                            .frame(width: style.dotSize * scale, height: style.dotSize * scale)
                            .opacity(isAnimating ? Self.opacity(phase: phase, dot: index) : 1)
                    }
                }
            }
            .accessibilityHidden(true)
        }

        /// Full for the dot the wave is on, down to 0.3 for the dots farthest from it.
        static func opacity(phase: Double, dot: Int) -> Double {
            let distance = abs(phase - Double(dot) / 3)
            return 1 - min(1, min(distance, 1 - distance) * 3) * 0.7
        }
    }
#endif
