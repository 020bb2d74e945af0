import Foundation
import NIOCore
import NIOWebSocket
import TypewireCore

extension SocketStateMachine {
    /// What follows a close frame of ours.
    enum AfterClose: Equatable {
        /// Wait for the peer's close frame, no longer than the close timeout.
        case waitForPeer
        /// Close the connection once the frame is written: the peer cannot be read or is gone.
        case closeNow
    }

    /// What the handler does for the machine, in order.
    enum Action: Equatable {
        /// Read the channel (`autoRead`), or stop.
        case setReading(Bool)
        /// Hand work to the hub through the socket's lane (which may ask to stop reading: ``laneFilled()``).
        case submit(SocketContext.Work)
        /// Ask the hub's handshake budget of the user the token names, and feed the answer back
        /// (``SocketStateMachine/handshakeBudgetChecked(_:token:unchecked:)``).
        case checkHandshakeBudget(token: String, unchecked: UncheckedToken?)
        /// Answer `hello` with an `error` frame.
        case sendHelloFailure(ErrorCode, String)
        /// Send a ping.
        case sendPing
        /// Answer a `refresh`: the socket now expires then.
        case sendRefreshed(Date)
        /// Answer a ping with its payload.
        case answerPing(ByteBuffer)
        /// Send a close frame (once), after what is queued.
        case close(WebSocketErrorCode, String, then: AfterClose)
        /// Close the connection once what is queued is written.
        case closeConnection
        /// Close the channel now.
        case closeChannel
        /// Count a frame the socket's budgets dropped (of this type, if it was read).
        case countDropped(received: String?)
        /// Count a frame that could not be read and was answered.
        case countReceived(String)
        /// The hello deadline is over.
        case cancelHelloDeadline
        /// Close the socket when its token expires (instead of when the token before it did).
        case scheduleTokenExpiry(Date)
        /// Stop the hello deadline, the token's expiry and the pings.
        case cancelTimers
        /// Let the lane go once its last item ran (its work refers to the handler).
        case releaseLane
        /// Count the socket as refused for its client's address (``AddressRefusals``).
        case countRefusal
    }
}
