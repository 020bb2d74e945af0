/// When a socket whose user sees nothing of someone is sent its own view of a conversation's activity
/// (``HubShard/sendActivityView(of:to:entries:delivery:)``).
enum ViewDelivery {
    /// Only if it differs from the last view sent: a change of hidden users alone sends nothing.
    case ifChanged
    /// Always: a block changed what the socket may see while the other user is doing something.
    case always
    /// Never: the view is recorded as what the socket shows, since it shows it already, or since the change
    /// is the socket's own, which it is not told.
    case recordOnly
}
