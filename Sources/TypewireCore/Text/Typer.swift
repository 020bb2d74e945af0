/// A member shown in an indicator: who, under which name, doing what.
public struct Typer: Hashable, Sendable {
    /// The member's user id.
    public var userID: String
    /// The display name, if known; an empty or missing name is shown as "Someone".
    public var name: String?
    /// What the member is doing.
    public var activity: MemberActivity

    /// Creates a typer.
    public init(userID: String, name: String?, activity: MemberActivity = .typing) {
        self.userID = userID
        self.name = name
        self.activity = activity
    }
}
