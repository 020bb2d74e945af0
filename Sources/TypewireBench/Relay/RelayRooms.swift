import NIOConcurrencyHelpers
import TypewireServer

/// The bare relay's rooms: which sockets follow each conversation, each as its outbox.
///
/// One lock over a dictionary: a frame's recipients are copied out under the lock and written outside it.
final class RelayRooms: Sendable {
    private struct State {
        var rooms: [String: [ObjectIdentifier: ChannelOutbox]] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// Puts a socket into a conversation's room.
    func join(_ outbox: ChannelOutbox, room: String) {
        state.withLockedValue { $0.rooms[room, default: [:]][ObjectIdentifier(outbox)] = outbox }
    }

    /// Takes a socket out of these rooms.
    func leave(_ outbox: ChannelOutbox, rooms: some Sequence<String>) {
        state.withLockedValue { state in
            for room in rooms {
                state.rooms[room]?[ObjectIdentifier(outbox)] = nil
                if state.rooms[room]?.isEmpty == true { state.rooms[room] = nil }
            }
        }
    }

    /// Writes the same frame to every socket in the room, except `sender` if given (an `activity` frame
    /// goes to the others only, as Typewire sends a socket no update of its own change).
    func broadcast(_ frame: OutboundFrame, to room: String, except sender: ChannelOutbox? = nil) {
        let recipients = state.withLockedValue { $0.rooms[room].map { Array($0.values) } ?? [] }
        for outbox in recipients where outbox !== sender { outbox.enqueue(frame) }
    }
}
