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
        private let source: Source
        @Environment(\.typingIndicatorStyle) private var style
        @Environment(\.accessibilityReduceMotion) private var reduceMotion
        @Environment(\.dynamicTypeSize) private var typeSize

        private enum Source {
            case text(String?, accessibilityText: String?)
            /// Read in this view's body, so a typing change redraws this row, not the view that holds it.
            case model(ConversationModel)
        }

        /// An indicator of this text (nil: no one is active).
        public init(text: String?, accessibilityText: String?) {
            source = .text(text, accessibilityText: accessibilityText)
        }

        /// The indicator of a conversation's screen (``ConversationModel/indicatorText``), read by this view.
        public init(model: ConversationModel) {
            source = .model(model)
        }

        private var text: String? {
            switch source {
            case .text(let text, _): text
            case .model(let model): model.indicatorText
            }
        }

        private var accessibilityText: String? {
            switch source {
            case .text(_, let accessibilityText): accessibilityText
            case .model(let model): model.indicatorAccessibilityText
            }
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

    /// Three dots, each at full opacity in turn and down to 0.3 otherwise, once every 0.6 s while
    /// `isAnimating`; still otherwise. Their size follows the style and Dynamic Type.
    ///
    /// A `PhaseAnimator` (iOS 17 / macOS 14), not a 30 Hz timeline: SwiftUI builds the dots at each of the
    /// three phases of a cycle and animates the opacities between them itself; nothing runs while no one is
    /// active.
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
            Group {
                if isAnimating {
                    PhaseAnimator([0, 1, 2]) { lit in
                        dots(lit: lit)
                    } animation: { _ in
                        .easeInOut(duration: 0.2)
                    }
                } else {
                    dots(lit: nil)
                }
            }
            .accessibilityHidden(true)
        }

        /// The dots, the one at `lit` full and the others at 0.3; all full when none is lit.
        private func dots(lit: Int?) -> some View {
            HStack(spacing: style.dotSize * scale * 0.6) {
                ForEach(0..<3, id: \.self) { index in
                    Circle()
                        .frame(width: style.dotSize * scale, height: style.dotSize * scale)
                        .opacity(lit == nil || lit == index ? 1 : 0.3)
                }
            }
        }
    }
#endif
