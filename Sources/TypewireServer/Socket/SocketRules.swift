import TypewireCore

/// What every socket's ``SocketStateMachine`` reads of the configuration, held once per server (each socket
/// holds a reference, not a copy).
final class SocketRules: Sendable {
    /// The largest frame accepted before a valid `hello` (a hello with a long token fits): a larger one
    /// closes the socket (1009) at once.
    static let helloFrameLimit = 8 * 1_024
    /// Frames that are not a valid `hello` answered before the socket is closed (1008).
    static let framesBeforeHello = 5
    /// Frames a socket may send behind its `hello` before `welcome` (they wait undecoded while the hello is
    /// checked): past it the socket is closed (1008). Clients send nothing before `welcome`.
    static let framesBehindHello = 256

    /// ``ServerConfiguration/Sockets/maxFrameSize``: a larger frame is answered with `too_large`.
    let maxFrameSize: Int
    /// ``ServerConfiguration/Sockets/frameLimit``: a larger frame closes the socket (1009).
    let frameLimit: Int
    /// ``ServerConfiguration/Sockets/helloTimeout``, in milliseconds, for the close's reason.
    let helloTimeout: Int64
    /// Each socket's budgets.
    let budgets: ServerConfiguration.Budgets
    /// What a socket is told when its activity is dropped.
    let activityDropNotice: String
    /// ``ServerConfiguration/Budgets/frames``' rate, for what a socket is told when its frames are dropped.
    let frameRate: Int

    init(_ configuration: ServerConfiguration) {
        maxFrameSize = configuration.sockets.maxFrameSize
        frameLimit = configuration.sockets.frameLimit
        helloTimeout = configuration.sockets.helloTimeout.wholeMilliseconds
        budgets = configuration.budgets
        let (activity, frames) = (Int(budgets.activity.rate), Int(budgets.frames.rate))
        let refresh = configuration.typing.refreshInterval.wholeMilliseconds
        activityDropNotice =
            "More than \(activity) activity frames a second, or \(frames) frames in all: the excess is dropped. A composer needs one every \(refresh) ms."
        frameRate = frames
    }
}
