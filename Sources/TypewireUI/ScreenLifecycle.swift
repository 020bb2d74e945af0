/// What a screen's lifecycle calls ask for: the screen is shown (more appears than disappears: a model
/// shown in two windows is shown until both went) and the app is not in the background. A model follows
/// the latest of them, whatever order they come in.
struct ScreenLifecycle: Hashable, Sendable {
    /// Appears not yet followed by their disappear (never below 0: a disappear without its appear is
    /// ignored).
    var appearances = 0
    /// Between entering the background and coming back.
    var isInBackground = false

    /// Whether the conversation should be followed now.
    var wantsOpen: Bool { appearances > 0 && !isInBackground }
}
