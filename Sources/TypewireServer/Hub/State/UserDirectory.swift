/// Who is online and what they share, as one shard knows it: the sockets of each user connected to the node,
/// the other nodes of the cluster each user is connected to, who does not share their typing, and who sees
/// what of whom (``UserVisibility``). Every change that makes a user come online or go offline says so, and
/// the shard announces it. A pure value; each ``HubShard`` keeps a copy (``Hub`` registers each socket in all).
struct UserDirectory {
    /// The sockets of each user connected to this node.
    private var socketsOfUser: [String: Set<ConnectionID>] = [:]
    /// For each user online on other nodes of the cluster, those nodes.
    private var remoteNodes: [String: Set<String>] = [:]
    /// Users whose last socket here went away (1001), shown online for the presence grace; what was loaded
    /// for them stays until the hold ends.
    private var held: Set<String> = []
    /// Connected users who turned sharing their typing off (loaded on connect, dropped on the last close).
    private var notSharingTyping: Set<String> = []
    /// Connected users who hide their reading, and how (loaded on connect, dropped on the last close).
    private var hidingReads: [String: ReadReceiptSharing] = [:]
    /// What connected users may see of each other: blocks both ways, presence shared with nobody (loaded on
    /// connect, dropped on the last close).
    private(set) var visibility = UserVisibility()

    /// The user's sockets on this node.
    func sockets(of user: String) -> Set<ConnectionID> {
        socketsOfUser[user] ?? []
    }

    /// The users with a socket on this node.
    var connectedUsers: [String] { Array(socketsOfUser.keys) }

    /// Whether the user has a socket on this node.
    func isConnected(_ user: String) -> Bool {
        socketsOfUser[user] != nil
    }

    /// Whether the user shows online: a socket on this node or on another node of the cluster, or held
    /// online for the presence grace.
    func isOnline(_ user: String) -> Bool {
        socketsOfUser[user] != nil || remoteNodes[user] != nil || held.contains(user)
    }

    /// Whether the user is held online for the presence grace (no socket open anywhere): a push for a new
    /// message counts them offline.
    func isHeld(_ user: String) -> Bool {
        held.contains(user)
    }

    /// Whether the user has a socket on another node of the cluster.
    func isConnectedElsewhere(_ user: String) -> Bool {
        remoteNodes[user] != nil
    }

    /// Whether the user shares their typing (a user not connected here does, as far as this node knows).
    func sharesTyping(_ user: String) -> Bool {
        !notSharingTyping.contains(user)
    }

    /// What a user shows of their reading and sees of others' (a user not connected here shares, as far as
    /// this node knows: marks are filtered by the store, a viewer is always connected).
    func readReceipts(of user: String) -> ReadReceiptSharing {
        hidingReads[user] ?? .share
    }

    /// A connected user changed what they show of their reading.
    mutating func setReadReceipts(_ sharing: ReadReceiptSharing, for user: String) {
        guard isConnected(user) else { return }
        hidingReads[user] = sharing == .share ? nil : sharing
    }

    /// A socket of the user opened here, with what the store says of the user.
    /// - Returns: Whether the user came online (no socket here before, none elsewhere in the cluster).
    mutating func connect(_ id: ConnectionID, of user: String, settings: UserSettings) -> Bool {
        let wasOnline = isOnline(user)
        held.remove(user)
        if settings.sharesTyping { notSharingTyping.remove(user) } else { notSharingTyping.insert(user) }
        hidingReads[user] = settings.readReceipts == .share ? nil : settings.readReceipts
        visibility.connected(user, blocked: settings.blocked, blockers: settings.blockers, sharesPresence: settings.sharesPresence)
        socketsOfUser[user, default: []].insert(id)
        return !wasOnline
    }

    /// What a socket's close did to its user.
    enum Departure: Equatable {
        /// The user has other sockets here.
        case stays
        /// It was the user's last socket here; `wentOffline` if none is open elsewhere in the cluster either.
        /// What was loaded for the user stays until ``forgetSettings(of:)`` (an announcement that the user
        /// went offline still heeds their blocks and settings).
        case left(wentOffline: Bool)
        /// It was the user's last socket, and it went away: they show online until ``endHold(of:)``.
        case held
    }

    /// A socket of the user closed; `wentAway` if its user is to be held online for the presence grace
    /// (its peer said it goes away).
    mutating func disconnect(_ id: ConnectionID, of user: String, wentAway: Bool = false) -> Departure {
        socketsOfUser[user]?.remove(id)
        guard socketsOfUser[user]?.isEmpty == true else { return .stays }
        socketsOfUser[user] = nil
        if wentAway, remoteNodes[user] == nil {
            held.insert(user)
            return .held
        }
        return .left(wentOffline: remoteNodes[user] == nil)
    }

    /// The presence grace of a user held online ran out.
    /// - Returns: Whether they were held (false: a socket of theirs came back meanwhile).
    mutating func endHold(of user: String) -> Bool {
        held.remove(user) != nil
    }

    /// Forgets what was loaded for a user whose last socket here closed (reloaded from the store when the user
    /// connects again).
    mutating func forgetSettings(of user: String) {
        guard !isConnected(user), !held.contains(user) else { return }
        visibility.disconnected(user)
        notSharingTyping.remove(user)
        hidingReads[user] = nil
    }

    /// A connected user turned sharing their typing on or off (nothing for a user not connected here: it is
    /// loaded from the store when they connect).
    mutating func setSharesTyping(_ shares: Bool, for user: String) {
        guard isConnected(user) else { return }
        if shares { notSharingTyping.remove(user) } else { notSharingTyping.insert(user) }
    }

    /// A connected user turned sharing their presence on or off.
    mutating func setSharesPresence(_ shares: Bool, for user: String) {
        visibility.setSharesPresence(shares, for: user)
    }

    /// `blocker` blocked or unblocked `user`; each side is updated if it is connected here.
    mutating func setBlocked(_ isBlocked: Bool, user: String, by blocker: String) {
        let connected = socketsOfUser.keys
        visibility.setBlocked(isBlocked, user: user, by: blocker) { connected.contains($0) }
    }

    /// Another node reported that the user connected there (or left).
    /// - Returns: Whether the user came online or went offline with it.
    mutating func setRemote(_ user: String, on node: String, online: Bool) -> Bool {
        let wasOnline = isOnline(user)
        if online {
            remoteNodes[user, default: []].insert(node)
        } else {
            remoteNodes[user]?.remove(node)
            if remoteNodes[user]?.isEmpty == true { remoteNodes[user] = nil }
        }
        return isOnline(user) != wasOnline
    }

    /// The other nodes with users online (as far as their reports said).
    var remoteNodeIDs: Set<String> {
        remoteNodes.values.reduce(into: []) { $0.formUnion($1) }
    }

    /// The users connected to a node of the cluster (as far as its reports said).
    func users(on node: String) -> [String] {
        remoteNodes.filter { $0.value.contains(node) }.map(\.key)
    }
}
