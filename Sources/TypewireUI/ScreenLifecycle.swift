/// What a screen's lifecycle calls ask for: the screen is shown (between appear and disappear) and the
/// app is not in the background. A model follows the latest of them, whatever order they come in.
struct ScreenLifecycle: Hashable, Sendable {
    /// Between an appear and a disappear.
    var isOnScreen = false
    /// Between entering the background and coming back.
    var isInBackground = false

    /// Whether the conversation should be followed now.
    var wantsOpen: Bool { isOnScreen && !isInBackground }
}
