import TypewireCore

/// The frames a socket holds back while its peer reads slower than the socket writes and a bot's reply is
/// streaming to it: a part of a reply that finds an earlier part of the same reply still waiting merges into
/// it (deltas joined, one frame), so a slow phone gets fewer, larger frames and never a backlog of parts.
/// Every other frame waits in order behind them. A pure value, on the socket's event loop
/// (``ChannelSink``).
///
/// Merging moves a part's text earlier, never later, and never past its reply's final part: a merged frame
/// takes the latest part's number (`seq`), its end, and its whole text when it is a catch-up (`text`).
///
/// Each merge encodes the merged frame again, so that its memory is counted exactly against the socket's
/// room: at most the message limit's bytes per part, and only on a socket that is behind.
struct HeldFrames {
    private var frames: [OutboundFrame] = []
    /// The memory the held frames take (``SentBytes/cost(of:)`` each).
    private(set) var cost = 0

    /// Whether nothing is held.
    var isEmpty: Bool { frames.isEmpty }

    /// How many frames are held.
    var count: Int { frames.count }

    /// Holds a frame, merged into the waiting part of its reply if there is one, else after the others, if
    /// what is held then takes at most `room` bytes of memory.
    /// - Returns: false, holding nothing, past `room`.
    mutating func hold(_ frame: OutboundFrame, within room: Int) -> Bool {
        if let (index, merged) = merge(frame) {
            let added = SentBytes.cost(of: merged) - SentBytes.cost(of: frames[index])
            guard cost + added <= room else { return false }
            cost += added
            frames[index] = merged
        } else {
            guard cost + SentBytes.cost(of: frame) <= room else { return false }
            cost += SentBytes.cost(of: frame)
            frames.append(frame)
        }
        return true
    }

    /// Takes every held frame, in order.
    mutating func take() -> [OutboundFrame] {
        defer {
            frames = []
            cost = 0
        }
        return frames
    }

    /// The held part `frame` merges into, and the merged frame: the last held part of the same reply, unless
    /// that one is its final part.
    private func merge(_ frame: OutboundFrame) -> (Int, OutboundFrame)? {
        guard let part = frame.replyPart?.delta,
            let index = frames.lastIndex(where: { $0.replyPart.map { Self.sameReply($0.delta, part) } ?? false }),
            let earlier = frames[index].replyPart?.delta, !earlier.final
        else { return nil }
        var merged = part
        if part.text == nil {
            merged.delta = earlier.delta + part.delta
            merged.text = earlier.text.map { $0 + part.delta }
        }
        merged.asker = part.asker ?? earlier.asker
        return (index, OutboundFrame(part: merged))
    }

    private static func sameReply(_ one: ServerFrame.StreamDelta, _ other: ServerFrame.StreamDelta) -> Bool {
        one.messageId == other.messageId && one.user == other.user && one.conversation == other.conversation
    }
}
