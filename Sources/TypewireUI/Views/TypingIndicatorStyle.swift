#if canImport(SwiftUI)
    import SwiftUI

    /// How the indicator and the streaming cursor look: the app's to set for a screen and everything in
    /// it with ``SwiftUI/View/typingIndicatorStyle(_:)``. Sizes grow with Dynamic Type.
    ///
    /// Compiled on Apple platforms only (SwiftUI).
    public struct TypingIndicatorStyle: Sendable {
        /// The indicator's font. Default `.caption`.
        public var font: Font = .caption
        /// The indicator's colour, dots included. Default `.secondary`.
        public var color: Color = .secondary
        /// A dot's diameter at the default text size, in points. Default 5.
        public var dotSize: CGFloat = 5
        /// What the streaming cursor is: a glyph set after the reply's last word. Default "▍".
        public var cursor: String = "▍"

        /// The default style.
        public init() {}
    }

    private struct TypingIndicatorStyleKey: EnvironmentKey {
        static let defaultValue = TypingIndicatorStyle()
    }

    extension EnvironmentValues {
        /// The indicator style of this part of the view tree.
        public var typingIndicatorStyle: TypingIndicatorStyle {
            get { self[TypingIndicatorStyleKey.self] }
            set { self[TypingIndicatorStyleKey.self] = newValue }
        }
    }

    extension View {
        /// Sets how typing indicators and streaming cursors in this view look.
        public func typingIndicatorStyle(_ style: TypingIndicatorStyle) -> some View {
            environment(\.typingIndicatorStyle, style)
        }
    }
#endif
