import TypewireCore

/// Sockets whose subscription is being read from the store, and the frames their conversation's subscribers
/// got meanwhile.
///
/// A subscription reads the conversation's history, then joins its subscribers. A message stored and fanned
/// out between the two is in neither: without this it would never reach the new subscriber. So the
/// conversation's messages and reply parts broadcast while a socket joins are held for it, and sent right
/// after its `subscribed`, less the messages its history already carries. What is held is bounded by the
/// time of one store read and the senders' own budgets.
struct JoiningSubscribers {
    /// A broadcast frame held for a joining socket; `message` is set for a new or edited message.
    struct Held {
        let frame: OutboundFrame
        let message: ChatMessage?
    }

    private var held: [String: [ConnectionID: [Held]]] = [:]

    /// The socket starts to join the conversation: from now on its broadcasts are held for it.
    mutating func begin(_ id: ConnectionID, in conversation: String) {
        held[conversation, default: [:]][id] = []
    }

    /// Holds a frame broadcast to the conversation for each socket joining it.
    mutating func hold(_ frame: OutboundFrame, message: ChatMessage?, in conversation: String) {
        guard let ids = held[conversation]?.keys else { return }
        for id in Array(ids) { held[conversation]?[id]?.append(Held(frame: frame, message: message)) }
    }

    /// The sockets joining the conversation.
    func sockets(joining conversation: String) -> [ConnectionID] {
        held[conversation].map { Array($0.keys) } ?? []
    }

    /// Holds a frame for one socket joining the conversation (one made for it: without the users it hides).
    mutating func hold(_ frame: OutboundFrame, for id: ConnectionID, in conversation: String) {
        held[conversation]?[id]?.append(Held(frame: frame, message: nil))
    }

    /// The socket joined (or gave up): what was held for it, in order, without the messages already in
    /// `history` as they are.
    mutating func end(_ id: ConnectionID, in conversation: String, history: [ChatMessage] = []) -> [OutboundFrame] {
        guard let frames = held[conversation]?.removeValue(forKey: id) else { return [] }
        if held[conversation]?.isEmpty == true { held[conversation] = nil }
        return frames.filter { held in held.message.map { !history.contains($0) } ?? true }.map(\.frame)
    }
}
