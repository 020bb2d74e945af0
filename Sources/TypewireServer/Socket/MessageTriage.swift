import Foundation
import TypewireCore

/// How one message of a welcomed socket is admitted: decoded, then passed through the socket's budgets
/// (``InboundGate``). A pure function of the message, the gate and the time.
enum MessageTriage: Equatable {
    /// Hand this work to the hub, in order.
    case work(SocketContext.Work)
    /// Dropped within the budgets (its type, or `invalid`).
    case dropped(String)
    /// Past its budget and answered (`rate_limited`).
    case answered(ServerFrame.Failure, type: String)
    /// Not readable and answered (within the bad frames' budget).
    case badFrameAnswered(ServerFrame.Failure, type: String)
    /// The socket keeps flooding: close it with the policy-violation code.
    case flooded(reason: String, type: String)

    static func triage(_ message: MessageAssembler.Message, gate: inout InboundGate, rules: SocketRules, now: Int64) -> MessageTriage {
        let refusal: Refusal
        switch decode(message, maxFrameSize: rules.maxFrameSize) {
        case .success(let frame):
            switch gate.check(frame, now: now) {
            case .pass:
                if case .refresh(let refresh) = frame { return .work(.refresh(token: refresh.token)) }
                return .work(.frame(frame))
            case .refuse(let failure): return .answered(failure, type: frame.type)
            case .drop(let notify): return notify ? .answered(dropNotice(frame, rules: rules), type: frame.type) : .dropped(frame.type)
            case .close(let reason): return .flooded(reason: reason, type: frame.type)
            }
        case .failure(let failure):
            refusal = failure
        }
        let type = refusal.frameType ?? "invalid"
        switch gate.checkBadFrame(now: now) {
        case .pass: return .badFrameAnswered(refusal.answer, type: type)
        case .drop, .refuse: return .dropped(type)
        case .close(let reason): return .flooded(reason: reason, type: type)
        }
    }

    /// A frame that cannot be handled, and the error that answers it.
    private struct Refusal: Error {
        var answer: ServerFrame.Failure
        var frameType: String?
    }

    /// Decodes one message; frames over the configured size, binary frames and text that is not UTF-8 are refused.
    private static func decode(_ message: MessageAssembler.Message, maxFrameSize: Int) -> Result<ClientFrame, Refusal> {
        guard case .text(let text) = message else {  // binary, or text that is not UTF-8
            let error = FrameDecodingError.notJSON
            return .failure(Refusal(answer: .init(code: error.code, message: error.description), frameType: nil))
        }
        guard text.utf8.count <= maxFrameSize else {
            let message = "The frame has \(text.utf8.count) bytes; the limit is \(maxFrameSize)."
            // Read for its `ref` alone, so that the sender learns which request failed (a message of many
            // multi-byte characters is within the length limit and past this one). The WebSocket layer
            // bounds the text (`frameLimit`) and the bad-frame budget how often this happens.
            let frame = try? FrameCodec.decodeClientFrame(Data(text.utf8))
            return .failure(
                Refusal(
                    answer: .init(code: .tooLarge, message: message, ref: frame?.reference, request: frame?.type), frameType: frame?.type))
        }
        do throws(FrameDecodingError) {
            return .success(try FrameCodec.decodeClientFrame(text: text))
        } catch {
            let ref = error.frameType.map { String($0.prefix(64)) }
            return .failure(
                Refusal(
                    answer: .init(code: error.code, message: error.description, ref: ref, request: ref), frameType: error.frameType
                ))
        }
    }

    /// Tells the client that frames are dropped (at most once a second): activity past its own budget, or
    /// any frame past the socket's frame budget.
    private static func dropNotice(_ frame: ClientFrame, rules: SocketRules) -> ServerFrame.Failure {
        if case .activity(let request) = frame, request.activity.isActive {
            return .init(code: .rateLimited, message: rules.activityDropNotice, ref: "activity", request: .activity)
        }
        let message = "More than \(rules.frameRate) frames a second: the excess is dropped, this '\(frame.type)' among them."
        return .init(code: .rateLimited, message: message, ref: frame.type, request: frame.type)
    }
}
