import Hummingbird

extension HTTPError {
    /// The answer to a change of a conversation's members that its store refused: 404 for a conversation that
    /// is gone, 409 for a kind that cannot change, 400 otherwise.
    init(_ refusal: MembershipRefusal, conversation: String) {
        if refusal == .noConversation {
            self.init(.notFound, message: "No conversation '\(conversation.prefix(64))'.")
        } else {
            self.init(refusal.existingKind == nil ? .badRequest : .conflict, message: refusal.description)
        }
    }
}
