import NIOConcurrencyHelpers

/// What one socket may spend, whichever of the hub's shards it spends it in: its subscriptions
/// (``ServerConfiguration/Sockets/maxSubscriptions``) and its lookups of conversations it turned out not to
/// be in (``ServerConfiguration/Budgets/unknownConversations``). Kept once per socket, so that sharding does not
/// multiply them; touched by a subscribe, an unsubscribe or a lookup the membership cache cannot answer,
/// never by a frame the cache answers.
final class SocketBudget: Sendable {
    private struct State {
        var subscriptions = 0
        var unknownLookups: RateLimiter
    }

    private let state: NIOLockedValueBox<State>

    init(unknownConversations: RateBudget) {
        state = NIOLockedValueBox(State(unknownLookups: RateLimiter(unknownConversations)))
    }

    /// The conversations the socket follows, in every shard.
    var subscriptions: Int {
        state.withLockedValue { $0.subscriptions }
    }

    /// Counts subscriptions begun (a positive change) or ended (a negative one).
    func addSubscriptions(_ change: Int) {
        state.withLockedValue { $0.subscriptions += change }
    }

    /// Takes one lookup of a conversation not in the membership cache, if the budget has one.
    func allowUnknownLookup(now: Int64) -> Bool {
        state.withLockedValue { $0.unknownLookups.allow(now: now) }
    }

    /// Gives a lookup back: the conversation was the user's after all.
    func refundUnknownLookup() {
        state.withLockedValue { $0.unknownLookups.refund() }
    }
}
