import TypewireCore

// Fan-out: the same bytes to every subscriber, presence, answers to one socket.
extension HubShard {
    /// Sends the same bytes to every subscriber of a conversation, after its paced activity update if one
    /// is waiting, so that no frame overtakes it (no one sees "is typing" after the message).
    /// Sockets still joining the conversation get the frame after their `subscribed`.
    /// - Parameter message: The message the frame carries, if it is a `message` frame.
    func broadcast(_ frame: OutboundFrame, as type: String, to conversation: String, message: ChatMessage? = nil) {
        joining.hold(frame, message: message, in: conversation)
        if pacer.takeEarly(conversation, now: now()) { fanOutActivity(of: conversation) }
        let subscribers = subscriptions.subscribers(of: conversation)
        for connection in subscribers.values { connection.sink.enqueue(frame) }
        metrics.sent(type, count: subscribers.count)
        metrics.fanOutDeliveries.increment(by: Int64(subscribers.count))
    }

    /// Tells the subscribers of the user's conversations, except those who may not see the user's presence
    /// (a block either way; a user who shares it with nobody is announced to no one), and except in large groups (``ServerConfiguration/Typing/largeGroupSize`` members or more): there every member's
    /// connect would reach every member, so a group's reconnecting members would cost the square of its size.
    /// An offline frame says when the user was last seen: this minute to receivers who share their own
    /// presence, "recently" to those who hide it (and to all when the user hides theirs, `hiding`).
    func announcePresence(of user: String, online: Bool, hiding: Bool = false) {
        let time = now()
        for conversation in members.conversations(of: user)
        where members[conversation].map({ $0.count < configuration.typing.largeGroupSize }) ?? false {
            var texts: [Bool: OutboundFrame] = [:]  // encoded once per kind of receiver, and only if a socket gets it
            for connection in subscriptions.subscribers(of: conversation).values {
                let viewer = connection.identity.userID
                guard users.visibility.showsPresence(of: user, to: viewer) else { continue }
                let viewerShares = online || users.visibility.sharesPresence(viewer)
                let frame =
                    texts[viewerShares]
                    ?? {
                        var presence = ServerFrame.Presence(conversation: conversation, user: user, online: online)
                        if !online {
                            (presence.lastSeenAt, presence.lastSeen) = LastSeenRule.justNow(
                                at: time, hiding: hiding, viewerShares: viewerShares)
                        }
                        return Self.encode(.presence(presence))
                    }()
                texts[viewerShares] = frame
                deliver(frame, as: "presence", to: connection.sink)
                metrics.fanOutDeliveries.increment()
            }
        }
    }

    func reply(to id: ConnectionID, _ failure: ServerFrame.Failure) {
        guard let sink = connections[id]?.sink else { return }
        deliver(Self.encode(.error(failure)), as: "error", to: sink)
    }

    /// Queues a frame on one socket and counts it.
    func deliver(_ frame: OutboundFrame, as type: String, to sink: any FrameSink) {
        sink.enqueue(frame)
        metrics.sent(type)
    }

    /// Applies what a change of ``subscriptions`` did: the gauge, the socket's budget (shared by every shard),
    /// and the caches of the conversations nobody here follows any more.
    func apply(_ change: Subscriptions<Connection>.Change, to connection: Connection) {
        if change.count != 0 {
            metrics.subscriptions.increment(by: Double(change.count))
            connection.budget.addSubscriptions(change.count)
        }
        for conversation in change.began {
            guard let cluster else { break }
            cluster.interest(in: conversation, following: true)
            // On a bus that routes by interest this node heard nothing of it so far: the others say what is going on.
            if cluster.routesByInterest { cluster.publish(.sliceRequest(conversation: conversation)) }
        }
        for conversation in change.abandoned {
            members.evict(conversation)
            history.invalidate(conversation)
            pacer.forget(conversation)
            guard let cluster else { continue }
            cluster.interest(in: conversation, following: false)
            if cluster.routesByInterest { board.clearRemote(in: conversation) }  // nothing more will be heard of it
        }
    }

    /// A frame encoded once for every socket it goes to.
    static func encode(_ frame: ServerFrame) -> OutboundFrame {
        if case .stream(let part) = frame { return OutboundFrame(part: part) }  // mergeable while a socket is behind
        return OutboundFrame(utf8: FrameCodec.encodeUTF8(frame))
    }
}
