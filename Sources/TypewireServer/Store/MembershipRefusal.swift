/// Why a store refused to change who is in a conversation: decided inside the change's transaction, so that
/// requests racing each other cannot break a conversation's rules between a check and a write.
public struct MembershipRefusal: Error, Equatable, CustomStringConvertible {
    private enum Reason: Equatable {
        case kindIsFixed(Conversation.Kind)
        case full(limit: Int)
        case noConversation
        case directIsForTwo
    }

    private let reason: Reason

    /// The conversation exists with this kind; a conversation's kind never changes.
    public static func kindIsFixed(_ kind: Conversation.Kind) -> MembershipRefusal { .init(reason: .kindIsFixed(kind)) }
    /// The conversation has `limit` participants already.
    public static func full(limit: Int) -> MembershipRefusal { .init(reason: .full(limit: limit)) }
    /// There is no such conversation (it may have been deleted meanwhile).
    public static let noConversation = MembershipRefusal(reason: .noConversation)
    /// The conversation is direct: its two members are set with it, never one by one.
    public static let directIsForTwo = MembershipRefusal(reason: .directIsForTwo)

    /// The kind the conversation has, for a refusal to change it.
    public var existingKind: Conversation.Kind? {
        if case .kindIsFixed(let kind) = reason { kind } else { nil }
    }

    public var description: String {
        switch reason {
        case .kindIsFixed(let kind):
            "The conversation is a \(kind.rawValue) conversation; its kind cannot change. Delete it first to make another."
        case .full(let limit): "The conversation has \(limit) participants already, its limit."
        case .noConversation: "No such conversation."
        case .directIsForTwo: "A direct conversation has exactly two participants for its whole life; make a group to change who is in it."
        }
    }
}
