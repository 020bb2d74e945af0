import NIOConcurrencyHelpers
import TypewireCore

/// What a text field drives: it turns the user's editing into the few typing frames that keep the other
/// members' indicators true, by the rules of ``/TypewireCore/TypingEmitter``.
///
/// Call its methods from the UI as things happen; each call is synchronous and O(1) (a lock, the
/// emitter's step, at most one enqueued frame), so it is safe on every keystroke. Its frames go on the
/// conversation's ordered lane, the one ``ConversationHandle/send(_:)`` uses too: a message sent right
/// after a keystroke leaves after that keystroke's typing frame, never before it. A timer sends the
/// refreshes and the idle stop. While the connection is down nothing is sent, and typing that is still
/// going on is announced again once it is back.
///
/// ```swift
/// let composer = await chat.composer()
/// textField.onChange { composer.textDidChange($0) }
/// sendButton.onTap { Task { try await composer.send(textField.text) } }
/// ```
///
/// Closing the conversation ends its composers; ``end()`` ends one sooner.
public final class Composer: Sendable {
    private struct Machine {
        var emitter: TypingEmitter<ContinuousClock.Instant>
        var timer: Task<Void, Never>?
        var isEnded = false
    }

    /// The conversation, and its lane: not its handle, which the client's view of it holds this composer
    /// (a handle released without `close()` still closes).
    private let conversation: String
    private let lane: AsyncStream<ConversationStep>.Continuation
    private let machine: NIOLockedValueBox<Machine>

    init(handle: ConversationHandle, configuration: TypingEmitter<ContinuousClock.Instant>.Configuration, isConnected: Bool) {
        self.conversation = handle.id
        self.lane = handle.lane
        var emitter = TypingEmitter<ContinuousClock.Instant>(configuration: configuration)
        if !isConnected { _ = emitter.handle(.connectionLost, now: .now) }
        machine = NIOLockedValueBox(Machine(emitter: emitter))
    }

    /// The intervals this composer works with.
    public var configuration: TypingEmitter<ContinuousClock.Instant>.Configuration {
        machine.withLockedValue { $0.emitter.configuration }
    }

    /// The text in the input field changed (call it on every edit, with the whole text).
    public func textDidChange(_ text: String) { feed(.textChanged(text)) }

    /// The user sent the message: typing stops at once. ``send(_:)`` calls it for you. No frame goes out
    /// for it: the server clears the sender's typing when it stores the message (on a typing-only server,
    /// which stores none, a stop goes out instead).
    public func didSend() { feed(.messageSent) }

    /// The input field was cleared without sending.
    public func didClear() { feed(.inputCleared) }

    /// The user left the conversation's screen.
    public func didLeave() { feed(.leftConversation) }

    /// The app went to the background.
    public func didEnterBackground() { feed(.wentToBackground) }

    /// Stops typing and sends the message, after every typing frame of this composer; returns the
    /// server's id once stored (see ``ConversationHandle/send(_:)``).
    @discardableResult
    public func send(_ text: String) async throws -> String {
        didSend()
        return try await lane.send(text, in: conversation)
    }

    /// Stops the composer: typing it announced stops, its timer and its task end, and later calls do
    /// nothing.
    public func end() {
        feed(.leftConversation)
        machine.withLockedValue { machine in
            machine.isEnded = true
            machine.timer?.cancel()
            machine.timer = nil
        }
    }

    /// The client's connection came back (after a `welcome`) or went away.
    func connectionChanged(isConnected: Bool) {
        feed(isConnected ? .connectionRestored : .connectionLost)
    }

    /// Whether the composer's timer runs (for leak tests).
    var hasTimer: Bool { machine.withLockedValue { $0.timer != nil } }

    private func feed(_ input: TypingEmitter<ContinuousClock.Instant>.Input) {
        let now = ContinuousClock.now
        machine.withLockedValue { machine in
            guard !machine.isEnded else { return }
            if let frame = machine.emitter.handle(input, now: now) {
                lane.yield(input == .messageSent ? .sent : .activity(frame.activity))
            }
            if machine.timer == nil, machine.emitter.nextDeadline != nil { machine.timer = startTimer() }
        }
    }

    /// Sleeps to the emitter's next deadline and ticks it, until it has none. Waking early is harmless:
    /// keystrokes only move the deadline later, and a tick before it sends nothing.
    private func startTimer() -> Task<Void, Never> {
        Task { [weak self] in
            while let deadline = self?.nextDeadlineOrRetire() {
                try? await Task.sleep(until: deadline, clock: .continuous)
                guard !Task.isCancelled, let self else { return }
                let now = ContinuousClock.now
                machine.withLockedValue { machine in
                    if let frame = machine.emitter.tick(now: now) { lane.yield(.activity(frame.activity)) }
                }
            }
        }
    }

    /// The next deadline, or nil after marking the timer gone (under one lock, so a keystroke that
    /// needs a timer starts a new one).
    private func nextDeadlineOrRetire() -> ContinuousClock.Instant? {
        machine.withLockedValue { machine in
            guard !machine.isEnded, let deadline = machine.emitter.nextDeadline else {
                machine.timer = nil
                return nil
            }
            return deadline
        }
    }
}
