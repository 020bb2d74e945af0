/// Writes every server frame as JSON directly, without `JSONEncoder`.
///
/// A handshake sends `welcome` and a `subscribed` per conversation, and every connect and last close a
/// `presence` per conversation: profiled while 11 000 sockets connected, `JSONEncoder` took 8 % of the
/// server's CPU for them. The output decodes to the same ``ServerFrame`` as `JSONEncoder`'s (tests check
/// every frame type on hostile strings); the fields are those of each frame's `Codable` form, nil ones
/// left out.
enum ServerFrameWriter {
    /// The frame's JSON.
    static func json(_ frame: ServerFrame) -> String {
        String(decoding: utf8(frame), as: UTF8.self)
    }

    /// The frame's JSON as UTF-8 bytes.
    static func utf8(_ frame: ServerFrame) -> [UInt8] {
        if case .activity(let update) = frame { return ActivityFrameWriter.utf8(update) }
        var json = JSONTextWriter(#"{"type":"#, capacity: 256)
        json.string(frame.type)
        switch frame {
        case .welcome(let welcome):
            json.raw(#","user":"#)
            write(welcome.user, to: &json)
            json.field("serverTime", welcome.serverTime)
            let config = welcome.config
            json.raw(#","config":{"activityTTL":"#)
            json.number(config.activityTTL)
            json.field("refreshInterval", config.refreshInterval)
            json.field("idleTimeout", config.idleTimeout)
            json.field("storesMessages", config.storesMessages)
            json.field("pingInterval", config.pingInterval)
            json.field("maxMessageLength", config.maxMessageLength)
            json.field("maxFrameSize", config.maxFrameSize)
            json.field("serverVersion", config.serverVersion)
            json.raw("}")
        case .subscribed(let subscribed):
            json.field("conversation", subscribed.conversation)
            json.array("participants", subscribed.participants) { json, participant in write(participant, to: &json) }
            json.raw(#","activity":{"#)
            ActivityFrameWriter.writeFields(of: subscribed.activity, to: &json)
            json.raw("}")
            json.array("recentMessages", subscribed.recentMessages) { json, message in write(message, to: &json) }
            json.field("presence", subscribed.presence)
            json.field("unread", subscribed.unread.map(Int64.init))
            if let reads = subscribed.reads { json.array("reads", reads) { json, mark in write(mark, to: &json) } }
            if let delivered = subscribed.delivered { json.array("delivered", delivered) { json, mark in write(mark, to: &json) } }
            if let counts = subscribed.readCounts { json.array("readCounts", counts) { json, count in write(count, to: &json) } }
        case .activity:
            preconditionFailure("written by ActivityFrameWriter above")
        case .presence(let presence):
            json.field("conversation", presence.conversation)
            json.field("user", presence.user)
            json.field("online", presence.online)
            json.field("lastSeenAt", presence.lastSeenAt)
            json.field("lastSeen", presence.lastSeen?.rawValue)
        case .message(let message):
            json.raw(",")
            writeFields(of: message, to: &json)
        case .ack(let ack):
            json.field("clientMessageId", ack.clientMessageId)
            json.field("messageId", ack.messageId)
        case .stream(let stream):
            json.field("conversation", stream.conversation)
            json.field("messageId", stream.messageId)
            json.field("user", stream.user)
            json.field("delta", stream.delta)
            json.field("final", stream.final)
            json.field("thread", stream.thread)
            json.field("seq", stream.seq)
            json.field("end", stream.end?.rawValue)
            json.field("by", stream.by)
            json.field("reason", stream.reason)
            json.field("asker", stream.asker)
            json.field("text", stream.text)
        case .cancel(let cancel):
            json.field("conversation", cancel.conversation)
            json.field("messageId", cancel.messageId)
            json.field("by", cancel.by)
        case .error(let failure):
            json.field("code", failure.code.rawValue)
            json.field("message", failure.message)
            json.field("ref", failure.ref)
            json.field("request", failure.request)
        case .refreshed(let refreshed):
            json.field("expiresAt", refreshed.expiresAt)
        case .receipts(let receipts):
            json.field("conversation", receipts.conversation)
            json.field("thread", receipts.thread)
            json.array("reads", receipts.reads) { json, mark in write(mark, to: &json) }
            if let delivered = receipts.delivered { json.array("delivered", delivered) { json, mark in write(mark, to: &json) } }
            if let counts = receipts.readCounts { json.array("readCounts", counts) { json, count in write(count, to: &json) } }
        case .unread(let unread):
            json.field("conversation", unread.conversation)
            json.field("thread", unread.thread)
            json.field("messageId", unread.messageId)
            json.field("count", Int64(unread.count))
        }
        json.raw("}")
        return json.bytes
    }

    /// `{"id":…,"name":…,"online":…}`.
    private static func write(_ participant: ConversationMember, to json: inout JSONTextWriter) {
        json.raw(#"{"id":"#)
        json.string(participant.id)
        json.field("name", participant.name)
        json.field("online", participant.online)
        json.field("lastSeenAt", participant.lastSeenAt)
        json.field("lastSeen", participant.lastSeen?.rawValue)
        json.field("bot", participant.bot)
        json.raw("}")
    }

    /// `{"user":…,"messageId":…,"at":…}`.
    private static func write(_ mark: ReadMark, to json: inout JSONTextWriter) {
        json.raw(#"{"user":"#)
        json.string(mark.user)
        json.field("messageId", mark.messageId)
        json.field("at", mark.at)
        json.raw("}")
    }

    /// `{"messageId":…,"readers":…}`.
    private static func write(_ count: ReadCount, to json: inout JSONTextWriter) {
        json.raw(#"{"messageId":"#)
        json.string(count.messageId)
        json.field("readers", Int64(count.readers))
        json.raw("}")
    }

    /// A message as an object of its own, in `subscribed`'s `recentMessages`.
    private static func write(_ message: ChatMessage, to json: inout JSONTextWriter) {
        json.raw("{")
        writeFields(of: message, to: &json)
        json.raw("}")
    }

    /// A message's fields: `"conversation":…,"id":…` and the rest.
    private static func writeFields(of message: ChatMessage, to json: inout JSONTextWriter) {
        json.raw(#""conversation":"#)
        json.string(message.conversation)
        json.field("id", message.id)
        json.field("sender", message.sender)
        json.field("senderName", message.senderName)
        json.field("text", message.text)
        json.field("sentAt", message.sentAt)
        json.field("clientMessageId", message.clientMessageId)
        json.field("editedAt", message.editedAt)
        json.field("thread", message.thread)
    }
}
