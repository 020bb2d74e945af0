import Foundation
import Hummingbird
import HummingbirdCore
import TypewireCore

/// The server API under `/v1/server/`, for the app's own backend: users, conversations and participants
/// with the app's ids, who is typing, and who is online. Every route needs `Authorization: Bearer <key>`
/// with the `--api-key`; without a key configured the routes do not exist (404). Every change is
/// idempotent: putting the same thing twice, or deleting what is gone, answers as the first time did.
struct ServerAPIRoutes {
    let store: any ChatStore
    let hub: Hub
    let key: APIKey
    let configuration: ServerConfiguration
    let requests: RequestLimiter

    init(store: any ChatStore, hub: Hub, key: APIKey, configuration: ServerConfiguration) {
        self.store = store
        self.hub = hub
        self.key = key
        self.configuration = configuration
        requests = RequestLimiter(configuration.serverAPI.requests)
    }

    struct UserBody: Decodable {
        var name: String?
        var bot: Bool?
        /// What the user shows of their reading; absent: as it was.
        var readReceipts: ReadReceiptSharing?
    }

    struct User: ResponseEncodable {
        var id: String
        var name: String?
        var bot: Bool
        var readReceipts: ReadReceiptSharing
    }

    struct ConversationBody: Decodable {
        var kind: Conversation.Kind
        var title: String?
        var members: [String]
        /// Who may stop a bot's reply; absent: `asker`.
        var stopRule: Conversation.StopRule?
    }

    struct ConversationState: ResponseEncodable {
        var id: String
        var kind: Conversation.Kind
        var title: String?
        var members: [String]
        var stopRule: Conversation.StopRule
        var joined: [String]
        var left: [String]
    }

    struct Presence: ResponseEncodable {
        var user: String
        var online: Bool
        /// When an offline user was last seen (to the minute), whatever they share; nil if never.
        var lastSeenAt: Int64?
    }

    func register(on router: Router<BasicRequestContext>) {
        let api = router.group("v1/server")
        api.put("users/:id") { request, context -> User in
            try authorize(request)
            let id = try identifier("id", of: context)
            let body = try await request.decodeJSON(as: UserBody.self)
            let name = try body.name.flatMap { try checkedText($0, field: "name") }
            let user = Identity(userID: id, name: DisplayName.cleaned(name), isBot: body.bot ?? false)
            try await store.putUser(user)
            await hub.userRecorded(id)
            if let sharing = body.readReceipts {
                try await store.setReadReceipts(sharing, for: id)
                await hub.readReceiptsChanged(for: id)
            }
            let readReceipts = try await store.user(id)?.readReceipts ?? .share
            return User(id: id, name: user.name, bot: user.isBot, readReceipts: readReceipts)
        }
        api.put("conversations/:id") { request, context -> EditedResponse<ConversationState> in
            try authorize(request)
            let id = try identifier("id", of: context)
            let body = try await request.decodeJSON(as: ConversationBody.self)
            let members = try checkedMembers(body.members, kind: body.kind)
            let title = try body.title.flatMap { try checkedText($0, field: "title") }
            let change: ConversationChange
            do {
                change = try await store.putConversation(
                    id: id, kind: body.kind, title: title, members: Array(members), stopRule: body.stopRule ?? .asker)
            } catch let refusal as MembershipRefusal {
                guard let existing = refusal.existingKind else { throw HTTPError(refusal, conversation: id) }
                throw HTTPError(
                    .conflict,
                    message:
                        "'\(id.prefix(64))' is a \(existing.rawValue) conversation; its kind cannot change. Delete it first to make a \(body.kind.rawValue)."
                )
            }
            await hub.membersChanged(in: id, joined: change.joined, left: change.left)
            let state = ConversationState(
                id: id, kind: change.conversation.kind, title: change.conversation.title, members: members.sorted(),
                stopRule: change.conversation.stopRule, joined: change.joined, left: change.left
            )
            return EditedResponse(status: change.created ? .created : .ok, response: state)
        }
        api.delete("conversations/:id") { request, context -> HTTPResponse.Status in
            try authorize(request)
            let id = try identifier("id", of: context)
            let participants = try await store.deleteConversation(id)
            await hub.conversationDeleted(id, participants: participants)
            return .noContent
        }
        api.put("conversations/:id/participants/:user") { request, context -> HTTPResponse.Status in
            try authorize(request)
            let conversation = try await group(context)
            let user = try identifier("user", of: context)
            do {
                guard try await store.addParticipant(user, to: conversation.id, limit: configuration.conversations.maxMembers) else {
                    return .noContent
                }
            } catch let refusal as MembershipRefusal {
                throw HTTPError(refusal, conversation: conversation.id)
            }
            await hub.participantAdded(user, to: conversation.id)
            return .noContent
        }
        api.delete("conversations/:id/participants/:user") { request, context -> HTTPResponse.Status in
            try authorize(request)
            let conversation = try await group(context)
            let user = try identifier("user", of: context)
            if try await store.removeParticipant(user, from: conversation.id) {
                await hub.participantRemoved(user, from: conversation.id)
            }
            return .noContent
        }
        api.get("conversations/:id/activity") { request, context -> ActivityUpdate in
            try authorize(request)
            let id = try identifier("id", of: context)
            guard try await store.conversation(id) != nil else { throw Self.noConversation(id) }
            return await hub.activity(in: id)
        }
        api.get("users/:id/presence") { request, context -> Presence in
            try authorize(request)
            let id = try identifier("id", of: context)
            let online = await hub.presence(of: id)
            return Presence(user: id, online: online, lastSeenAt: online ? nil : try await store.lastSeen(of: id)?.at)
        }
    }

    /// Refuses a request without the key (401) or past the API's rate (429).
    private func authorize(_ request: Request) throws {
        guard key.authorizes(request.headers[.authorization]) else {
            throw HTTPError(
                .unauthorized, headers: [.wwwAuthenticate: "Bearer"],
                message: "Send the server's API key as \"Authorization: Bearer <key>\" (--api-key)."
            )
        }
        guard requests.allow("server", now: hub.now()) else {
            throw HTTPError(
                .tooManyRequests, headers: [.retryAfter: "1"],
                message:
                    "More than \(Int(configuration.serverAPI.requests.rate)) server API requests a second; slow down and try again shortly."
            )
        }
    }

    /// A path parameter naming a user or conversation: percent-decoded, at most ``ServerConfiguration/ServerAPI/maxIDLength`` bytes, no control characters.
    private func identifier(_ name: String, of context: BasicRequestContext) throws -> String {
        let raw = try context.parameters.require(name)
        guard let decoded = raw.removingPercentEncoding, !decoded.isEmpty else {
            throw HTTPError(.badRequest, message: "The path's \(name) '\(raw.prefix(64))' is not valid percent-encoding.")
        }
        try checkIdentifier(decoded, field: name)
        return decoded
    }

    private func checkIdentifier(_ id: String, field: String) throws {
        try RequestIdentifier.check(id, field: field, maxBytes: configuration.serverAPI.maxIDLength)
    }

    private func checkedText(_ text: String, field: String) throws -> String? {
        try RequestText.checked(text, field: field, maxCharacters: configuration.conversations.maxTitleLength)
    }

    private func checkedMembers(_ members: [String], kind: Conversation.Kind) throws -> Set<String> {
        for (index, member) in members.enumerated() { try checkIdentifier(member, field: "members[\(index)]") }
        let unique = Set(members)
        switch kind {
        case .direct where unique.count != 2:
            throw HTTPError(.badRequest, message: "\"members\" of a direct conversation names exactly two users; it names \(unique.count).")
        case .group where unique.isEmpty:
            throw HTTPError(.badRequest, message: "\"members\" of a group names at least one user.")
        case .group where unique.count > configuration.conversations.maxMembers:
            throw HTTPError(
                .badRequest,
                message: "\"members\" names \(unique.count) users; a conversation has at most \(configuration.conversations.maxMembers).")
        default:
            return unique
        }
    }

    /// The group a participant route names: 404 if there is none, 400 for a direct conversation.
    private func group(_ context: BasicRequestContext) async throws -> Conversation {
        let id = try identifier("id", of: context)
        guard let conversation = try await store.conversation(id) else { throw Self.noConversation(id) }
        guard conversation.kind == .group else {
            throw HTTPError(
                .badRequest,
                message:
                    "'\(id.prefix(64))' is a direct conversation: put it whole with PUT /v1/server/conversations/:id to change its two members."
            )
        }
        return conversation
    }

    private static func noConversation(_ id: String) -> HTTPError {
        HTTPError(.notFound, message: "No conversation '\(id.prefix(64))'.")
    }
}

extension ActivityUpdate: ResponseEncodable {}
