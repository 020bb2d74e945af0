/// Which member of which conversation each socket is: socket `s` is in conversation `s % M`, as its
/// member `s / M`, so any N ≤ M×K spreads evenly. Conversation `i` is `c<i>`, its member `j` is `u<i>-<j>`.
struct SocketPlan: Sendable {
    struct Socket: Sendable {
        /// The socket's index over all workers.
        var index: Int
        /// The conversation's index.
        var conversation: Int
        /// The member's index in the conversation; the `u<member>` of its frames' stamps.
        var member: Int
        /// Whether this socket types (the first `--typers` members of each conversation).
        var isTyper: Bool

        var conversationID: String { "c\(conversation)" }
        var userID: String { "u\(conversation)-\(member)" }
    }

    let sockets: [Socket]
    /// How many counted sockets get each `activity` update a typer's frame causes in a conversation: its
    /// followers, less the typer itself (a server does not send a socket its own change), and only those
    /// counted (not the publishers, when they are on another node, ``BenchOptions/publishersApart``).
    let recipients: [Int]

    init(options: BenchOptions) {
        let m = options.conversations
        sockets = (0..<options.connections).map { index in
            Socket(index: index, conversation: index % m, member: index / m, isTyper: index / m < options.typers)
        }
        var counts = Array(repeating: 0, count: m)
        for socket in sockets where !(options.publishersApart && socket.isTyper) { counts[socket.conversation] += 1 }
        // The typer is among those counted unless the publishers are apart.
        recipients = counts.map { max(0, $0 - (options.publishersApart ? 0 : 1)) }
    }

    /// The members of each conversation of the reconnect storm.
    static let stormMembers = 10

    /// The storm's sockets (``BenchOptions/storm``): after the others, in conversations of their own numbered
    /// after theirs, ``stormMembers`` to a conversation, none typing.
    static func stormSockets(of options: BenchOptions) -> [Socket] {
        (0..<options.storm).map { index in
            Socket(
                index: options.connections + index, conversation: options.conversations + index / stormMembers,
                member: index % stormMembers, isTyper: false)
        }
    }

    /// The sockets a worker drives: every W-th.
    func sockets(ofWorker worker: Int, of workers: Int) -> [Socket] {
        sockets.filter { $0.index % workers == worker }
    }
}
