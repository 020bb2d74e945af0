import Synchronization

/// The bare relay's rooms: which sockets follow each conversation, each as the outbox its writer drains.
///
/// One `Mutex` over a dictionary: a frame's recipients are copied out under the lock and fed outside it.
final class RelayRooms: Sendable {
    private struct State {
        var rooms: [String: [Int: AsyncStream<String>.Continuation]] = [:]
        var nextSocket = 0
    }

    private let state = Mutex(State())

    /// A new socket's id.
    func newSocket() -> Int {
        state.withLock { state in
            state.nextSocket += 1
            return state.nextSocket
        }
    }

    /// Puts a socket into a conversation's room.
    func join(_ socket: Int, outbox: AsyncStream<String>.Continuation, room: String) {
        state.withLock { $0.rooms[room, default: [:]][socket] = outbox }
    }

    /// Takes a socket out of these rooms.
    func leave(_ socket: Int, rooms: some Sequence<String>) {
        state.withLock { state in
            for room in rooms {
                state.rooms[room]?[socket] = nil
                if state.rooms[room]?.isEmpty == true { state.rooms[room] = nil }
            }
        }
    }

    /// Queues the same text on every socket in the room (the sender's included).
    func broadcast(_ text: String, to room: String) {
        let recipients = state.withLock { $0.rooms[room].map { Array($0.values) } ?? [] }
        for outbox in recipients { outbox.yield(text) }
    }
}
