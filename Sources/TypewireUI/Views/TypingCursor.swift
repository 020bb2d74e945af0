#if canImport(SwiftUI)
    import SwiftUI

    /// The cursor at the end of a bot's reply while it streams: a bar that blinks twice a second.
    public struct TypingCursor: View {
        /// Creates a cursor.
        public init() {}

        public var body: some View {
            TimelineView(.periodic(from: .now, by: 0.5)) { context in
                Rectangle()
                    .frame(width: 2, height: 14)
                    .opacity(Int(context.date.timeIntervalSinceReferenceDate * 2).isMultiple(of: 2) ? 1 : 0)
            }
            .accessibilityHidden(true)
        }
    }
#endif
