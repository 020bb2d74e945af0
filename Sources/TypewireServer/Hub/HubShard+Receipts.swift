import NIOCore
import TypewireCore

// Read state: a member's `read` moves their watermark in the store, and the members learn of it in
// `receipts`, at most once a second per conversation (`ReceiptBatcher`).
extension HubShard {
    /// A member read a conversation up to a message: their watermark in the message's timeline moves
    /// forward in the store (never back), and the conversation's subscribers are told.
    func read(_ read: ClientFrame.Read, from id: ConnectionID) async {
        guard let user = connections[id]?.identity.userID else { return }
        var app: AppMessage?  // on a typing-only server, the app's own message (`HubShard+AppReceipts`)
        if !configuration.storage.storesMessages {
            guard let message = appMessage(read.messageId, sentAt: read.sentAt, thread: read.thread, request: .read, from: id) else {
                return
            }
            app = message
        }
        guard await ensureParticipant(user, of: read.conversation, from: id, ref: read.messageId, request: .read) else { return }
        let outcome: ReadOutcome
        let privately = read.isPrivate ?? false || configuration.messages.readReceipts == .off
        do {
            outcome =
                if let app {
                    try await store.markAppRead(app, in: read.conversation, by: user, at: now(), privately: privately)
                } else {
                    try await store.markRead(read.messageId, in: read.conversation, by: user, at: now(), privately: privately)
                }
        } catch {
            logger.storeFailed("recording a read failed", error: error)
            return reply(to: id, Self.markNotRecorded("The read was", ref: read.messageId, request: .read))
        }
        switch outcome {
        case .noSuchMessage:
            reply(to: id, Self.noSuchMessage(read.messageId, request: .read))
        case .unchanged:
            break
        case .moved(let mark, let thread, let own, let shared):
            webhooks?.record(.messageRead(conversation: read.conversation, thread: thread, mark: mark, isPrivate: !shared))
            // The app's messages have no readers the server could count, nor unread counts of its own.
            if shared, app == nil || !countsReaders(of: read.conversation) {
                receiptsChanged(mark, thread: thread, in: read.conversation, isLocal: true)
            }
            if own, app == nil { await tellUnread(of: user, in: read.conversation, thread: thread, readTo: mark.messageId) }
        }
    }

    /// A member marks a timeline unread from a message on: their own mark moves back to before it in the
    /// store, and their own sockets are told their count; nobody else is (the mark the others see stays).
    func markUnread(_ mark: ClientFrame.MarkUnread, from id: ConnectionID) async {
        guard let user = connections[id]?.identity.userID else { return }
        guard await ensureParticipant(user, of: mark.conversation, from: id, ref: mark.messageId, request: .markUnread) else { return }
        let outcome: UnreadOutcome
        do {
            outcome = try await store.markUnread(from: mark.messageId, in: mark.conversation, by: user, at: now())
        } catch {
            logger.storeFailed("marking a conversation unread failed", error: error)
            return reply(to: id, Self.markNotRecorded("The mark was", ref: mark.messageId, request: .markUnread))
        }
        switch outcome {
        case .noSuchMessage:
            reply(to: id, Self.noSuchMessage(mark.messageId, request: .markUnread))
        case .unchanged:
            break
        case .moved(let to, let thread):
            await tellUnread(of: user, in: mark.conversation, thread: thread, readTo: to)
        }
    }

    /// A device of the member received a timeline up to a message: their delivered mark moves forward in the
    /// store, and the conversation's subscribers are told with its next `receipts` (not in a group whose
    /// readers are counted, nor under `--read-receipts off`).
    func delivered(_ delivered: ClientFrame.Delivered, from id: ConnectionID) async {
        guard let user = connections[id]?.identity.userID, configuration.messages.readReceipts != .off else { return }
        var app: AppMessage?  // on a typing-only server, the app's own message (`HubShard+AppReceipts`)
        if !configuration.storage.storesMessages {
            guard
                let message = appMessage(
                    delivered.messageId, sentAt: delivered.sentAt, thread: delivered.thread, request: .delivered, from: id)
            else { return }
            app = message
        }
        guard await ensureParticipant(user, of: delivered.conversation, from: id, ref: delivered.messageId, request: .delivered),
            !countsReaders(of: delivered.conversation)
        else { return }
        let outcome: DeliveredOutcome
        do {
            outcome =
                if let app {
                    try await store.markAppDelivered(app, in: delivered.conversation, by: user, at: now())
                } else {
                    try await store.markDelivered(delivered.messageId, in: delivered.conversation, by: user, at: now())
                }
        } catch {
            logger.storeFailed("recording a delivery failed", error: error)
            return reply(to: id, Self.markNotRecorded("The delivery was", ref: delivered.messageId, request: .delivered))
        }
        switch outcome {
        case .noSuchMessage:
            reply(to: id, Self.noSuchMessage(delivered.messageId, request: .delivered))
        case .unchanged:
            break
        case .moved(let mark, let thread):
            receiptsChanged(mark, isDelivery: true, thread: thread, in: delivered.conversation, isLocal: true)
        }
    }

    /// The answer to a `read`, `markUnread` or `delivered` whose store write failed.
    static func markNotRecorded(_ subject: String, ref: String, request: ClientFrame.Kind) -> ServerFrame.Failure {
        .init(
            code: .unavailable,
            message: "\(subject) not recorded: the server cannot write to its storage now; send it again shortly.",
            ref: ref, request: request)
    }

    /// The answer to a `read`, `markUnread` or `delivered` of a message the conversation does not have.
    private static func noSuchMessage(_ messageId: String, request: ClientFrame.Kind) -> ServerFrame.Failure {
        .init(
            code: .invalidField,
            message: "No message '\(messageId.prefix(64))' in this conversation: send the id the server gave a message (`id`).",
            ref: messageId, request: request)
    }

    /// The reader's own sockets that follow the conversation's read state, here and on the other nodes, learn
    /// their new mark and unread count there (one bounded count of the store; a failed count tells nothing:
    /// the next `subscribe` has it).
    private func tellUnread(of user: String, in conversation: String, thread: String?, readTo messageId: String?) async {
        let count: Int
        do {
            count = try await store.unreadCount(of: user, in: conversation, thread: thread, limit: WireProtocol.maxUnreadCount)
        } catch {
            return logger.storeFailed("counting unread messages failed", error: error)
        }
        let frame = ServerFrame.Unread(conversation: conversation, thread: thread, messageId: messageId, count: count)
        deliverUnread(frame, to: user)
        cluster?.publish(.unread(user: user, frame))
    }

    /// Sends a user's `unread` to their sockets here that follow the conversation's read state (after
    /// `subscribed`, for a socket still joining).
    /// Looks among the user's own sockets, not the conversation's subscribers: each read of a large group
    /// would otherwise walk all of them.
    func deliverUnread(_ frame: ServerFrame.Unread, to user: String) {
        var encoded: OutboundFrame?
        let subscribers = subscriptions.subscribers(of: frame.conversation)
        for id in users.sockets(of: user) {
            guard let connection = connections[id], connection.readState.contains(frame.conversation) else { continue }
            let follows = subscribers[id] != nil
            guard follows || joining.sockets(joining: frame.conversation).contains(id) else { continue }
            let bytes = encoded ?? Self.encode(.unread(frame))
            encoded = bytes
            if follows {
                deliver(bytes, as: "unread", to: connection.sink)
            } else {
                joining.hold(bytes, for: id, in: frame.conversation)
            }
        }
    }

    /// Whether a user connected here may see others' read marks: what they chose, under the server's policy.
    func seesReceipts(_ viewer: String) -> Bool {
        configuration.messages.readReceipts.letsSee(users.readReceipts(of: viewer))
    }

    /// Whether a conversation's receipts count its readers rather than name them: a group of more than
    /// ``ServerConfiguration/Conversations/maxNamedReaders`` members.
    func countsReaders(of conversation: String) -> Bool {
        (members[conversation]?.count ?? 0) > configuration.conversations.maxNamedReaders
    }

    /// A timeline's receipts changed (`mark` moved, a delivered mark if `isDelivery`, or another node's
    /// readers moved the counts: nil); they go out with the conversation's next fan-out, at most one a
    /// second. `isLocal`: a reader of this node, whom the other nodes are told of.
    func receiptsChanged(_ mark: ReadMark?, isDelivery: Bool = false, thread: String?, in conversation: String, isLocal: Bool) {
        let counted = mark.flatMap { countsReaders(of: conversation) ? nil : $0 }
        switch receipts.add(counted, isDelivery: isDelivery, thread: thread, in: conversation, isLocal: isLocal, now: now()) {
        case .now:
            guard let batch = receipts.take(in: conversation) else { return }
            startTask { await $0.publishReceipts(batch) }
        case .at(let time):
            eventLoop.scheduleTask(in: .milliseconds(max(1, time - now()))) { [weak self] in
                self?.assumeIsolated { shard in
                    guard let batch = shard.receipts.wake(conversation, now: shard.now()) else { return }
                    shard.startTask { await $0.publishReceipts(batch) }
                }
            }
        case .scheduled:
            break
        }
    }

    /// Tells the subscribers here, and (for this node's readers) the other nodes of a cluster: named marks on
    /// the bus in events of at most ``marksPerClusterEvent`` marks, each within what NOTIFY carries; in a
    /// group whose readers are counted, the counts read from the store here, and the other nodes only that
    /// they changed (an event with no marks: each reads its own).
    private func publishReceipts(_ batch: ReceiptBatcher.Batch) async {
        var frames = batch.frames
        if let conversation = frames.first?.conversation, countsReaders(of: conversation) {
            for index in frames.indices {
                do {
                    frames[index].reads = []
                    frames[index].delivered = nil
                    frames[index].readCounts = try await store.readCounts(
                        in: conversation, thread: frames[index].thread, messages: WireProtocol.readCountMessages)
                } catch {
                    logger.storeFailed("counting a group's readers failed", error: error)
                }
            }
            frames.removeAll { $0.readCounts == nil }
        }
        fanOutReceipts(frames)
        guard let cluster, batch.isLocal else { return }
        for frame in batch.frames where countsReaders(of: frame.conversation) {
            cluster.publish(.receipts(.init(conversation: frame.conversation, thread: frame.thread, reads: [])))
        }
        for frame in batch.frames where !countsReaders(of: frame.conversation) {
            // Each event carries one kind of mark, at most `marksPerClusterEvent` of them.
            func publish(_ marks: [ReadMark], as put: (inout ServerFrame.Receipts, [ReadMark]) -> Void) {
                for start in stride(from: 0, to: marks.count, by: Self.marksPerClusterEvent) {
                    var part = frame
                    part.reads = []
                    part.delivered = nil
                    put(&part, Array(marks[start..<min(start + Self.marksPerClusterEvent, marks.count)]))
                    cluster.publish(.receipts(part))
                }
            }
            publish(frame.reads) { $0.reads = $1 }
            publish(frame.delivered ?? []) { $0.delivered = $1 }
        }
    }

    /// Another node's readers moved their marks: named marks go to the subscribers here at once; a change of a
    /// counted group's readers (no marks) joins this node's next fan-out of its counts.
    func remoteReceipts(_ frame: ServerFrame.Receipts) {
        guard frame.reads.isEmpty, frame.delivered == nil else { return fanOutReceipts([frame]) }
        receiptsChanged(nil, thread: frame.thread, in: frame.conversation, isLocal: false)
    }

    /// The most marks one cluster event carries: 20 marks of the longest ids (256 bytes) stay under what NOTIFY
    /// carries (``ClusterPayload/limit``).
    static let marksPerClusterEvent = 20

    /// Sends each frame to its conversation's subscribers that follow its read state: one encoding for
    /// everyone who hides nobody (and for everyone, in a group whose readers are counted: the counts name no
    /// one); a subscriber who blocked a reader, or was blocked by one, gets the frame without that reader's
    /// mark. A socket still joining the conversation gets its frame after `subscribed`.
    func fanOutReceipts(_ frames: [ServerFrame.Receipts]) {
        for frame in frames {
            var shared: OutboundFrame?
            var delivered = 0
            /// The frame for one socket, or nil if it gets none.
            func encoded(for connection: Connection) -> OutboundFrame? {
                let viewer = connection.identity.userID
                guard connection.readState.contains(frame.conversation), seesReceipts(viewer) else { return nil }
                if frame.readCounts == nil, users.visibility.hidesAnyone, users.visibility.hidesAnyone(from: viewer) {
                    let hidden = users.visibility.hidden(from: viewer)
                    var own = frame
                    own.reads.removeAll { hidden.contains($0.user) }
                    own.delivered?.removeAll { hidden.contains($0.user) }
                    if own.delivered?.isEmpty == true { own.delivered = nil }
                    return own.reads.isEmpty && own.delivered == nil ? nil : Self.encode(.receipts(own))
                }
                let everyones = shared ?? Self.encode(.receipts(frame))
                shared = everyones
                return everyones
            }
            for connection in subscriptions.subscribers(of: frame.conversation).values {
                guard let encoded = encoded(for: connection) else { continue }
                deliver(encoded, as: "receipts", to: connection.sink)
                delivered += 1
            }
            for id in joining.sockets(joining: frame.conversation) {
                guard let connection = connections[id], let encoded = encoded(for: connection) else { continue }
                joining.hold(encoded, for: id, in: frame.conversation)
            }
            metrics.fanOutDeliveries.increment(by: Int64(delivered))
        }
    }
}
