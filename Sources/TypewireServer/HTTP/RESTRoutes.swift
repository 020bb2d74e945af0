import Foundation
import Hummingbird
import HummingbirdCore
import TypewireCore

/// The REST API beside the socket: conversations, participants, history, settings and blocks. Every
/// route needs `Authorization: Bearer <token>`; errors are JSON with a message a person can act on.
struct RESTRoutes {
    let store: any ChatStore
    let hub: Hub
    let authority: TokenAuthority
    let configuration: ServerConfiguration
    let requests: RequestLimiter
    let creations: RequestLimiter

    init(store: any ChatStore, hub: Hub, authority: TokenAuthority, configuration: ServerConfiguration) {
        self.store = store
        self.hub = hub
        self.authority = authority
        self.configuration = configuration
        requests = RequestLimiter(configuration.http.requestsPerUser)
        let perMinute = Double(configuration.conversations.createdPerMinute)
        creations = RequestLimiter(rate: perMinute / 60, burst: perMinute)
    }

    struct ConversationList: ResponseEncodable {
        var conversations: [Conversation]
    }

    struct NewConversation: Decodable {
        var kind: Conversation.Kind
        var title: String?
        var members: [String]
    }

    struct ParticipantList: ResponseEncodable {
        var participants: [ConversationMember]
    }

    struct NewParticipant: Decodable {
        var user: String
    }

    struct MessagePage: ResponseEncodable {
        var messages: [ChatMessage]
    }

    /// A user's settings: whether others see their typing, their presence (online or not), and their reading.
    struct Settings: Codable, ResponseEncodable {
        var shareTyping: Bool
        var sharePresence: Bool
        var readReceipts: ReadReceiptSharing
    }

    /// A change of settings: the fields given change, the others stay.
    struct SettingsChange: Decodable {
        var shareTyping: Bool?
        var sharePresence: Bool?
        var readReceipts: ReadReceiptSharing?
    }

    func register(on router: Router<BasicRequestContext>) {
        let api = router.group("v1")
        api.get("conversations") { request, _ -> ConversationList in
            let me = try await identity(of: request)
            return ConversationList(conversations: try await store.conversations(of: me.userID))
        }
        api.post("conversations") { request, context -> EditedResponse<Conversation> in
            let me = try await identity(of: request)
            let new = try await request.decodeJSON(as: NewConversation.self)
            let others = Set(new.members).subtracting([me.userID]).filter { !$0.isEmpty }
            for member in others.sorted() { try Self.checkUserID(member, field: "members") }
            guard !others.isEmpty else { throw HTTPError(.badRequest, message: "Name at least one other member in \"members\".") }
            if new.kind == .direct, others.count != 1 {
                throw HTTPError(.badRequest, message: "A direct conversation has exactly one other member; make a group for more.")
            }
            let limit = configuration.conversations.maxMembers
            guard others.count < limit else {
                throw HTTPError(
                    .badRequest, message: "\"members\" names \(others.count) others; a conversation has at most \(limit) participants.")
            }
            let title = try new.title.flatMap {
                try RequestText.checked($0, field: "title", maxCharacters: configuration.conversations.maxTitleLength)
            }
            // A user who blocked the creator is never put in a conversation by them (they would see each other there).
            if let other = try await store.blockers(of: me.userID).intersection(others).sorted().first {
                throw HTTPError(.forbidden, message: "'\(other.prefix(64))' does not take conversations from you.")
            }
            guard creations.allow(me.userID, now: hub.now()) else {
                throw Self.tooMany(
                    "You created \(configuration.conversations.createdPerMinute) conversations within a minute; try again shortly.")
            }
            let conversation = try await store.createConversation(
                id: UUID().uuidString.lowercased(), kind: new.kind, title: title, creator: me.userID, members: Array(others)
            )
            await hub.conversationCreated(conversation.id, members: [me.userID] + others.sorted())
            return EditedResponse(status: .created, response: conversation)
        }
        api.get("conversations/:id/participants") { request, context -> ParticipantList in
            let (me, conversation) = try await membership(request, context)
            let participants = try await store.participants(of: conversation.id)
            // Nobody is shown online to a user they blocked or who blocked them (docs/PROTOCOL.md, presence).
            let hidden = try await store.blockedUsers(of: me.userID).union(try await store.blockers(of: me.userID))
            let online = await hub.onlineUsers(among: participants.map(\.id)).subtracting(hidden)
            let hiding = await hub.onlineButHiding(among: participants.map(\.id))
            let lastSeen = try await store.lastSeen(in: conversation.id)
            let viewerShares = try await store.user(me.userID)?.sharesPresence ?? true
            let now = Int64(Date().timeIntervalSince1970 * 1_000)
            return ParticipantList(
                participants: participants.map {
                    LastSeenRule.shown(
                        ConversationMember(id: $0.id, name: $0.name, online: online.contains($0.id), isBot: $0.isBot),
                        hidden: hidden.contains($0.id),
                        onlineButHiding: hiding.contains($0.id), record: lastSeen[$0.id], viewerShares: viewerShares, now: now)
                })
        }
        api.post("conversations/:id/participants") { request, context -> HTTPResponse.Status in
            let (me, conversation) = try await membership(request, context)
            guard conversation.creator == me.userID else { throw Self.notAdmin }
            guard conversation.kind == .group else { throw Self.directIsForTwo }
            let new = try await request.decodeJSON(as: NewParticipant.self)
            guard !new.user.isEmpty else { throw HTTPError(.badRequest, message: "\"user\" cannot be empty.") }
            try Self.checkUserID(new.user, field: "user")
            guard try await !store.blockers(of: me.userID).contains(new.user) else {
                throw HTTPError(.forbidden, message: "'\(new.user.prefix(64))' does not take conversations from you.")
            }
            do {
                guard try await store.addParticipant(new.user, to: conversation.id, limit: configuration.conversations.maxMembers) else {
                    return .noContent
                }
            } catch let refusal as MembershipRefusal {
                throw HTTPError(refusal, conversation: conversation.id)
            }
            await hub.participantAdded(new.user, to: conversation.id)
            return .noContent
        }
        api.delete("conversations/:id/participants/:user") { request, context -> HTTPResponse.Status in
            let (me, conversation) = try await membership(request, context)
            // Any id: one stored before ids were held to the rule can still be removed.
            let user = try Self.parameter("user", of: context)
            guard conversation.creator == me.userID || user == me.userID else { throw Self.notAdmin }
            guard conversation.kind == .group else { throw Self.directIsForTwo }
            if user == conversation.creator, try await store.participants(of: conversation.id).count > 1 {
                throw HTTPError(.conflict, message: "You created this group and are its only admin: remove the others first, then leave.")
            }
            guard try await store.removeParticipant(user, from: conversation.id) else {
                throw HTTPError(.notFound, message: "'\(user)' is not a participant.")
            }
            await hub.participantRemoved(user, from: conversation.id)
            return .noContent
        }
        api.get("conversations/:id/messages") { request, context -> MessagePage in
            let (_, conversation) = try await membership(request, context)
            // Typing-only mode serves no message, not even those stored before the switch (docs/PROTOCOL.md).
            guard configuration.storage.storesMessages else { return MessagePage(messages: []) }
            let limit = min(200, max(1, request.uri.queryParameters.get("limit", as: Int.self) ?? 50))
            let before = request.uri.queryParameters.get("before")
            // `thread`: the replies to that message, paged as the main timeline is; without it, the main timeline.
            let thread = request.uri.queryParameters.get("thread")
            if let thread, !HubShard.isMessageID(thread) {
                throw HTTPError(.badRequest, message: "\"thread\" must be the id of a message of the conversation.")
            }
            return MessagePage(messages: try await store.messages(of: conversation.id, thread: thread, before: before, limit: limit))
        }
        api.get("settings") { request, _ -> Settings in
            let me = try await identity(of: request)
            return try await settings(of: me.userID)
        }
        api.put("settings") { request, context -> Settings in
            let me = try await identity(of: request)
            let change = try await request.decodeJSON(as: SettingsChange.self)
            if let shares = change.shareTyping {
                try await store.setSharesTyping(shares, for: me.userID)
                await hub.sharingChanged(shares, for: me.userID)
            }
            if let shares = change.sharePresence {
                try await store.setSharesPresence(shares, for: me.userID)
                await hub.presenceSharingChanged(shares, for: me.userID)
            }
            if let sharing = change.readReceipts {
                try await store.setReadReceipts(sharing, for: me.userID)
                await hub.readReceiptsChanged(for: me.userID)
            }
            return try await settings(of: me.userID)
        }
        api.put("blocks/:user") { request, context -> HTTPResponse.Status in
            try await setBlock(true, request, context)
        }
        api.delete("blocks/:user") { request, context -> HTTPResponse.Status in
            try await setBlock(false, request, context)
        }
    }

    private func settings(of user: String) async throws -> Settings {
        let stored = try await store.user(user)
        return Settings(
            shareTyping: stored?.sharesTyping ?? true, sharePresence: stored?.sharesPresence ?? true,
            readReceipts: stored?.readReceipts ?? .share)
    }

    private func setBlock(_ blocked: Bool, _ request: Request, _ context: BasicRequestContext) async throws -> HTTPResponse.Status {
        let me = try await identity(of: request)
        let user = try Self.parameter("user", of: context)
        if blocked { try Self.checkUserID(user, field: "user") }  // an unblock takes any id, to clear one stored before
        guard user != me.userID else { throw HTTPError(.badRequest, message: "You cannot block yourself.") }
        let limit = configuration.conversations.maxBlocksPerUser
        guard try await store.setBlocked(blocked, user: user, by: me.userID, limit: limit) else {
            throw HTTPError(.conflict, message: "You have blocked \(limit) users, the most one may; unblock one before blocking another.")
        }
        await hub.blockChanged(blocked, user: user, by: me.userID)
        return .noContent
    }

    /// The caller, from the bearer token.
    private func identity(of request: Request) async throws -> Identity {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            let identity = await authority.verify(String(header.dropFirst("Bearer ".count)))
        else {
            throw HTTPError(.unauthorized, message: "Send a valid token as \"Authorization: Bearer <token>\".")
        }
        guard requests.allow(identity.userID, now: hub.now()) else {
            throw Self.tooMany(
                "More than \(Int(configuration.http.requestsPerUser.rate)) requests a second; slow down and try again shortly.")
        }
        if try await store.recordIfChanged(identity)?.matches(identity) != true { await hub.userRecorded(identity.userID) }
        return identity
    }

    /// A path parameter, percent-decoded: `/v1/blocks/%D0%B0lice` names the user `аlice`.
    private static func parameter(_ name: String, of context: BasicRequestContext) throws -> String {
        let raw = try context.parameters.require(name)
        guard let decoded = raw.removingPercentEncoding, !decoded.isEmpty else {
            throw HTTPError(.badRequest, message: "The path's \(name) '\(raw.prefix(64))' is not valid percent-encoding.")
        }
        return decoded
    }

    /// A user id a request names must be one a token could carry (``TokenRules``'s rule for `sub`).
    private static func checkUserID(_ id: String, field: String) throws {
        try RequestIdentifier.check(id, field: field, maxBytes: TokenRules.maxSubjectBytes)
    }

    /// The caller and the conversation, if the caller is in it; otherwise 404, as for a missing one.
    private func membership(_ request: Request, _ context: BasicRequestContext) async throws -> (Identity, Conversation) {
        let me = try await identity(of: request)
        let id = try Self.parameter("id", of: context)
        guard let conversation = try await store.conversation(id),
            try await store.participants(of: id).contains(where: { $0.id == me.userID })
        else {
            throw HTTPError(.notFound, message: "No conversation '\(id.prefix(64))' that you are in.")
        }
        return (me, conversation)
    }

    private static func tooMany(_ message: String) -> HTTPError {
        HTTPError(.tooManyRequests, headers: [.retryAfter: "1"], message: message)
    }

    private static let notAdmin = HTTPError(.forbidden, message: "Only the conversation's creator may change who is in it.")
    private static let directIsForTwo = HTTPError(
        .badRequest, message: "A direct conversation has exactly two participants for its whole life; make a group to change who is in it."
    )
}

extension Conversation: ResponseEncodable {}
