import Foundation
import TypewireCore

// The connection: every event goes to the machine (``ClientConnectionStateMachine``), and its actions are
// run here, in one place. The client keeps only what the machine cannot: tasks and the transport.
extension TypewireClient {
    /// Connects, and reconnects after every drop, until the calling task is cancelled. While the app has
    /// asked for no connection (``disconnect()``, the background, ``signOut()``) or no network path reaches
    /// anything, it waits, connected to nothing.
    /// - Throws: ``TypewireClientError`` if this client runs already: one `run()` per client (share the client
    ///   between an app's windows rather than running it twice).
    public func run() async throws(TypewireClientError) {
        guard !machine.running else {
            throw TypewireClientError(
                reason: .closed, message: "This client is running already: one run() per client; share the client between windows."
            )
        }
        loadOutbox()
        let followers = [
            configuration.followsNetworkPath ? followNetworkPath() : nil,
            configuration.followsAppLifecycle ? followAppLifecycle() : nil,
        ]
        handle { $0.start(now: $1) }
        while !Task.isCancelled {
            await sleep(until: machine.deadline)
            handle { machine, now in machine.timePassed(now: now) }
        }
        for follower in followers { follower?.cancel() }
        handle { machine, _ in machine.stop() }
        tokenTask?.cancel()
        socketTask?.cancel()
        await socketTask?.value
        releaseWaiters()
    }

    /// `run()` ended: nobody waits for ever. A send waiting for its `ack` fails, and stays in the outbox to
    /// go out when the client runs again (the server stores it once); a waiting edit fails.
    private func releaseWaiters() {
        let stopped = TypewireClientError(
            reason: .closed,
            message: "The client stopped before the server acknowledged this; a message is sent again when the client runs next.")
        for id in pendingSends.keys {
            pendingSends[id]!.continuation?.resume(throwing: stopped)
            pendingSends[id]!.continuation = nil
        }
        for edit in pendingEdits.values { edit.fail(stopped) }
        pendingEdits.removeAll()
    }

    /// Feeds one event to the machine, runs its actions and publishes the state it leads to.
    func handle(_ event: (inout ClientConnectionStateMachine, ContinuousClock.Instant) -> [ClientConnectionStateMachine.Action]) {
        let now = ContinuousClock.now
        for action in event(&machine, now) { perform(action) }
        publishState(now: now)
        wake?.finish()  // the deadline may have moved
    }

    /// Publishes the machine's state at `now`. A wait is told once, with the time left when it began: an
    /// event that leaves the same wait under way publishes nothing (not the wait again with less time left).
    private func publishState(now: ContinuousClock.Instant) {
        let new = machine.state(now: now)
        let waitEnd: ContinuousClock.Instant? = if case .waiting(let until) = machine.link { until } else { nil }
        if case .waitingToReconnect = new, case .waitingToReconnect = state, waitEnd == publishedWaitEnd { return }
        publishedWaitEnd = waitEnd
        setState(new)
    }

    private func perform(_ action: ClientConnectionStateMachine.Action) {
        switch action {
        case .requestToken(let id, let request):
            tokenTask?.cancel()
            let provider = token
            tokenTask = Task { [weak self] in
                let result: Result<String, any Error>
                do { result = .success(try await provider(request)) } catch { result = .failure(error) }
                await self?.tokenAnswered(id: id, result)
            }
        case .open(let socket, let token):
            socketTask = Task { await self.connect(socket, token: token) }
        case .close(let socket, let reason):
            if socket == socketNumber, let outgoing {
                outgoing.yield(.close(reason))
            } else {
                closeAsked = (socket, reason)
            }
        case .stopTyping: stopTypingEverywhere()
        case .beginBackgroundTime: backgroundTime.begin { [weak self] in Task { await self?.backgroundTimeExpiring() } }
        case .endBackgroundTime: backgroundTime.end()
        case .endSession: endSession()
        }
    }

    private func tokenAnswered(id: Int, _ result: Result<String, any Error>) {
        switch result {
        case .success(let token): handle { $0.tokenArrived(token, id: id, now: $1) }
        case .failure(let error):
            let failure =
                (error as? TypewireClientError).flatMap { $0.reason == .signedOut ? $0 : nil }
                ?? TypewireClientError(reason: .tokenProvider, message: "The token provider failed: \(error)")
            logger.warning("the token provider failed; asking again after the backoff", metadata: ["error": "\(error)"])
            handle { $0.tokenFailed(failure, id: id, now: $1) }
        }
    }

    /// Opens socket `socket`, says hello with `token`, and reads its frames until it closes.
    private func connect(_ socket: Int, token: String) async {
        let pingInterval = configuration.pingInterval ?? serverConfiguration?.pingInterval.map { .milliseconds($0) } ?? .seconds(15)
        do {
            try await transport.connect(url: url, pingInterval: pingInterval, logger: logger) { reader, writer in
                let (items, continuation) = AsyncStream.makeStream(of: Outgoing.self)
                continuation.yield(.text(Self.encode(.hello(.init(token: token)))))
                await self.attach(continuation, socket: socket, token: token)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await item in items {
                            switch item {
                            case .text(let text): try await writer.send(text)
                            case .close(let reason): return try await writer.close(reason.goesAway, reason.text)
                            }
                        }
                    }
                    while let text = try await reader.next() {
                        guard let frame = try? FrameCodec.decodeServerFrame(Data(text.utf8)) else { continue }
                        await self.receive(frame)
                    }
                    group.cancelAll()
                }
            }
        } catch {
            logger.debug("connection ended", metadata: ["error": "\(error)"])
        }
        if socketNumber == socket { detach() }
        handle { $0.socketClosed(socket: socket, now: $1) }
    }

    /// The server refused the `hello`'s token (its answer before it closes the socket).
    func helloRefused(_ failure: ServerFrame.Failure) {
        guard failure.code == .unauthorized else { return }
        logger.warning("the server refused the token", metadata: ["message": "\(failure.message)"])
        machine.refused(socket: socketNumber, TypewireClientError(reason: .server(failure.code), message: failure.message))
    }

    /// Waits until `deadline` (nil: until woken), or less if an event wakes it or the task is cancelled.
    private func sleep(until deadline: ContinuousClock.Instant?) async {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        wake = continuation
        let timer = deadline.map { deadline in
            Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                continuation.finish()
            }
        }
        await withTaskCancellationHandler {
            for await _ in stream { break }
        } onCancel: {
            continuation.finish()
        }
        timer?.cancel()
        wake = nil
    }

    /// The user stops typing everywhere at once (the app left the foreground).
    private func stopTypingEverywhere() {
        for timeline in activeIn { setActivity(.none, in: timeline) }
        for conversation in conversations.values {
            for composer in conversation.composers { composer.didEnterBackground() }
        }
    }

    /// The user signed out: every send and edit waiting fails, every handle ends, the outbox is emptied and
    /// the user forgotten.
    private func endSession() {
        for id in conversations.keys { conversationEnded(id, error: .signedOut) }
        for (clientMessageId, _) in pendingSends {
            settleSend(clientMessageId)?.continuation?.resume(throwing: TypewireClientError.signedOut)
        }
        for edit in pendingEdits.values { edit.fail(.signedOut) }
        pendingEdits.removeAll()
        unsent = UnsentMessages()
        saveOutbox()
        retryAttempts.removeAll()
        forgetUser()
    }
}

extension ClientConnectionStateMachine.CloseReason {
    /// Whether the close frame says 1001 (going away) rather than 1000: the app went to the background or
    /// the network changed, so the server keeps the user's presence for its grace (`--presence-grace`) and
    /// a quick switch back does not blink them offline to others. The app or the user meant to leave: 1000.
    var goesAway: Bool {
        switch self {
        case .background, .networkChanged: true
        case .app, .signedOut, .stopped: false
        }
    }

    /// The close frame's reason.
    var text: String {
        switch self {
        case .app: "the app disconnected"
        case .background: "the app went to the background"
        case .networkChanged: "the network changed"
        case .signedOut: "the user signed out"
        case .stopped: "the client stopped"
        }
    }
}
