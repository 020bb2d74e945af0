import NIOConcurrencyHelpers
import TypewireServer

/// The bare relay's rooms: which sockets follow each conversation, each as its sink.
///
/// One lock over a dictionary: a frame's recipients are copied out under the lock and written outside it.
final class RelayRooms: Sendable {
    private struct State {
        var rooms: [String: [ObjectIdentifier: ChannelSink]] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// Puts a socket into a conversation's room.
    func join(_ sink: ChannelSink, room: String) {
        state.withLockedValue { $0.rooms[room, default: [:]][ObjectIdentifier(sink)] = sink }
    }

    /// Takes a socket out of these rooms.
    func leave(_ sink: ChannelSink, rooms: some Sequence<String>) {
        state.withLockedValue { state in
            for room in rooms {
                state.rooms[room]?[ObjectIdentifier(sink)] = nil
                if state.rooms[room]?.isEmpty == true { state.rooms[room] = nil }
            }
        }
    }

    /// Writes the same frame to every socket in the room, except `sender` if given (an `activity` frame
    /// goes to the others only, as Typewire sends a socket no update of its own change).
    func broadcast(_ frame: OutboundFrame, to room: String, except sender: ChannelSink? = nil) {
        let recipients = state.withLockedValue { $0.rooms[room].map { Array($0.values) } ?? [] }
        for sink in recipients where sink !== sender { sink.enqueue(frame) }
    }
}
