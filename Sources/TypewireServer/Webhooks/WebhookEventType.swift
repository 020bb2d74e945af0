/// The kinds of event a node sends to the app's backend (`--webhook-url`).
public enum WebhookEventType: String, Sendable, Hashable, CaseIterable, Codable {
    /// A message was stored; it names the members who had no socket open (for push notifications).
    case messageCreated = "message.created"
    /// A message's text was edited.
    case messageEdited = "message.edited"
    /// A bot began streaming a reply.
    case replyStarted = "reply.started"
    /// A bot's streamed reply ended: its final part arrived.
    case replyFinished = "reply.finished"
    /// A user came online (their first socket in the cluster) or went offline (their last one closed).
    case presenceChanged = "presence.changed"
    /// Users joined or left a conversation, or it was deleted.
    case membersChanged = "conversation.members_changed"
    /// A user's activity in a conversation changed; off unless asked for, and rate-limited per conversation.
    case activityChanged = "activity.changed"
    /// A member read a conversation further; off unless asked for, and a later read of the same member and
    /// timeline replaces one still waiting in the outbox.
    case messageRead = "message.read"
    /// A message of the main timeline some members had not read ``ServerConfiguration/Webhooks/unreadReminderAfter``
    /// after it was sent (what a backend needs to push or email only what is still unread); off unless asked for.
    case unreadReminder = "unread.reminder"

    /// What a server sends unless told otherwise: every type but ``activityChanged``, ``messageRead`` and
    /// ``unreadReminder``.
    public static let defaults: Set<WebhookEventType> = Set(allCases).subtracting([.activityChanged, .messageRead, .unreadReminder])
}
