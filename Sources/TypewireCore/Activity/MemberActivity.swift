/// What a member of a conversation is doing right now.
///
/// On the wire an activity is two sibling fields of the frame that carries it: `activity`, one of the
/// stable names in ``MemberActivity/Kind``, and `detail`, present only for ``toolUse(_:)`` when a detail is known:
///
/// ```json
/// {"activity": "tool", "detail": "web_search"}
/// ```
public enum MemberActivity: Hashable, Sendable {
    /// Nothing: the member's indicator is hidden.
    case none
    /// Composing a text message.
    case typing
    /// An assistant is working on a reply and has not started writing it.
    case thinking
    /// An assistant is running a tool; the detail names it (for example `"web_search"`).
    case toolUse(String?)
    /// Recording a voice message.
    case recordingAudio
    /// Uploading a file.
    case uploading

    /// The stable wire names of the activities.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case none
        case typing
        case thinking
        case toolUse = "tool"
        case recordingAudio = "recording"
        case uploading
    }

    /// The activity's wire name.
    public var kind: Kind {
        switch self {
        case .none: .none
        case .typing: .typing
        case .thinking: .thinking
        case .toolUse: .toolUse
        case .recordingAudio: .recordingAudio
        case .uploading: .uploading
        }
    }

    /// The detail that travels beside the wire name (the tool's name for ``toolUse(_:)``).
    public var detail: String? {
        if case .toolUse(let detail) = self { return detail }
        return nil
    }

    /// Builds an activity from its wire name and optional detail; the detail is kept only for tool use.
    public init(kind: Kind, detail: String? = nil) {
        switch kind {
        case .none: self = .none
        case .typing: self = .typing
        case .thinking: self = .thinking
        case .toolUse: self = .toolUse(detail)
        case .recordingAudio: self = .recordingAudio
        case .uploading: self = .uploading
        }
    }

    /// Whether a member with this activity shows in an indicator.
    public var isActive: Bool { self != .none }
}

extension MemberActivity: Codable {
    private enum CodingKeys: String, CodingKey {
        case activity
        case detail
    }

    /// Decodes the `activity` and `detail` fields of the enclosing object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(Kind.self, forKey: .activity)
        let detail = try container.decodeIfPresent(String.self, forKey: .detail)
        self.init(kind: kind, detail: detail)
    }

    /// Encodes the `activity` and (when present) `detail` fields into the enclosing object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .activity)
        try container.encodeIfPresent(detail, forKey: .detail)
    }
}
