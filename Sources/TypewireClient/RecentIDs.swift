/// The last `capacity` distinct ids seen, oldest forgotten first: enough to tell a message the server
/// repeats after a reconnect (at most its recent ones) from a new one, in bounded memory.
struct RecentIDs {
    private var order: [String] = []
    private var members: Set<String> = []
    private var start = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Adds an id. - Returns: Whether it was new.
    mutating func insert(_ id: String) -> Bool {
        guard members.insert(id).inserted else { return false }
        if order.count < capacity {
            order.append(id)
        } else {
            members.remove(order[start])
            order[start] = id
            start = (start + 1) % capacity
        }
        return true
    }
}
