import TypewireClient

/// What a conversation's screen says about its connection, if anything: a line while messages and typing
/// cannot flow (the client is getting a dropped connection back, has no network, or gave up), nothing while
/// connected, at the first connect, or in a state the app asked for (paused in the background, signed out,
/// stopped).
public enum ConnectionBanner: Hashable, Sendable {
    /// The connection dropped and the client is getting it back: "Connecting…".
    case reconnecting
    /// No network path reaches the server: "No connection".
    case offline
    /// The client gave up (the server kept refusing the user's token): "Can't connect", until the app
    /// reconnects it (``ConversationModel/connection`` says why).
    case failed

    /// The banner once the client is in `state`, `previous` being the one shown before (a `connecting`
    /// after a drop keeps "Connecting…"; the first one shows nothing).
    public static func after(_ state: ConnectionState, previous: ConnectionBanner?) -> ConnectionBanner? {
        switch state {
        case .connected, .paused, .signedOut, .stopped: nil
        case .connecting: previous.map { _ in .reconnecting }
        case .waitingToReconnect: .reconnecting
        case .offline: .offline
        case .failed: .failed
        }
    }

    /// The words, in the device's language (``UIText``).
    public var text: String { word.localized }

    /// The words' entry in ``UIText``.
    public var word: UIText {
        switch self {
        case .reconnecting: .reconnecting
        case .offline: .offline
        case .failed: .cannotConnect
        }
    }
}
