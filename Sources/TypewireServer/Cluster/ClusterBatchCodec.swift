import Foundation
import NIOCore
import TypewireCore

/// The events of a batch on the NATS bus in a compact binary form: a format byte, then each event. A
/// `slice` (an activity change: by far the most frequent event) is written field by field; every other event
/// as its JSON with a length before it. JSON coding of the slices was a fifth of a receiving node's CPU and a
/// tenth of a sending node's (docs/BENCHMARKS.md, "The cluster's two buses").
///
/// The body is read only after it opened under the cluster's key (``ClusterPayload``), so it comes
/// from a node of the cluster; a body that does not read whole is still refused, never trusted in part.
enum ClusterBatchCodec {
    /// The format of the bodies written here: 2 adds each entry's thread, 3 a slice's unlisted users
    /// (``ClusterSlice``). A node reads formats 1 and 2 too (entries without a thread, slices listing all).
    static let format: UInt8 = 3

    private enum Tag: UInt8 {
        case json = 0
        case slice = 1
    }

    /// Why a body did not read.
    struct Malformed: Error {}

    /// Appends one event.
    static func write(_ event: ClusterEvent, into buffer: inout ByteBuffer, encoder: JSONEncoder) throws {
        guard case .slice(let conversation, let entries, let serverTime, let unlisted) = event, entries.count <= Int(UInt16.max) else {
            let json = try encoder.encode(event)
            buffer.writeInteger(Tag.json.rawValue)
            buffer.writeInteger(UInt32(json.count))
            buffer.writeBytes(json)
            return
        }
        buffer.writeInteger(Tag.slice.rawValue)
        writeString(conversation, into: &buffer)
        buffer.writeInteger(serverTime)
        buffer.writeInteger(UInt16(entries.count))
        for entry in entries {
            writeString(entry.user, into: &buffer)
            writeOptional(entry.name, into: &buffer)
            buffer.writeInteger(UInt8(MemberActivity.Kind.allCases.firstIndex(of: entry.activity.kind) ?? 0))
            writeOptional(entry.activity.detail, into: &buffer)
            buffer.writeInteger(entry.since)
            buffer.writeInteger(entry.expiresAt)
            writeOptional(entry.thread, into: &buffer)
        }
        if let unlisted {
            buffer.writeInteger(UInt8(1))
            buffer.writeInteger(UInt32(clamping: unlisted.users))
            buffer.writeInteger(unlisted.until)
        } else {
            buffer.writeInteger(UInt8(0))
        }
    }

    /// Reads every event of a body (its format byte first).
    static func read(_ body: ByteBuffer, decoder: JSONDecoder) throws -> [ClusterEvent] {
        var body = body
        guard let format = body.readInteger(as: UInt8.self), (1...Self.format).contains(format) else { throw Malformed() }
        var events: [ClusterEvent] = []
        while body.readableBytes > 0 { events.append(try readEvent(from: &body, format: format, decoder: decoder)) }
        return events
    }

    private static func readEvent(from body: inout ByteBuffer, format: UInt8, decoder: JSONDecoder) throws -> ClusterEvent {
        switch body.readInteger(as: UInt8.self).flatMap(Tag.init(rawValue:)) {
        case .json:
            guard let length = body.readInteger(as: UInt32.self), let json = body.readData(length: Int(length)) else { throw Malformed() }
            return try decoder.decode(ClusterEvent.self, from: json)
        case .slice:
            let conversation = try readString(from: &body)
            guard let serverTime = body.readInteger(as: Int64.self), let count = body.readInteger(as: UInt16.self) else {
                throw Malformed()
            }
            var entries: [ActivityEntry] = []
            entries.reserveCapacity(Int(count))
            for _ in 0..<count {
                let user = try readString(from: &body)
                let name = try readOptional(from: &body)
                guard let kindIndex = body.readInteger(as: UInt8.self), Int(kindIndex) < MemberActivity.Kind.allCases.count else {
                    throw Malformed()
                }
                let detail = try readOptional(from: &body)
                guard let since = body.readInteger(as: Int64.self), let expiresAt = body.readInteger(as: Int64.self) else {
                    throw Malformed()
                }
                let thread = format >= 2 ? try readOptional(from: &body) : nil
                let kind = MemberActivity.Kind.allCases[Int(kindIndex)]
                entries.append(
                    ActivityEntry(
                        user: user, name: name, activity: MemberActivity(kind: kind, detail: detail), since: since, expiresAt: expiresAt,
                        thread: thread))
            }
            guard format >= 3 else { return .slice(conversation: conversation, entries: entries, serverTime: serverTime) }
            switch body.readInteger(as: UInt8.self) {
            case 0:
                return .slice(conversation: conversation, entries: entries, serverTime: serverTime)
            case 1:
                guard let users = body.readInteger(as: UInt32.self), let until = body.readInteger(as: Int64.self) else { throw Malformed() }
                return .slice(
                    conversation: conversation, entries: entries, serverTime: serverTime,
                    unlisted: UnlistedActivity(users: Int(users), until: until))
            default:
                throw Malformed()
            }
        case nil:
            throw Malformed()
        }
    }

    private static func writeString(_ text: String, into buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt32(text.utf8.count))
        buffer.writeString(text)
    }

    private static func writeOptional(_ text: String?, into buffer: inout ByteBuffer) {
        guard let text else {
            buffer.writeInteger(UInt8(0))
            return
        }
        buffer.writeInteger(UInt8(1))
        writeString(text, into: &buffer)
    }

    private static func readString(from buffer: inout ByteBuffer) throws -> String {
        guard let length = buffer.readInteger(as: UInt32.self), let text = buffer.readString(length: Int(length)) else { throw Malformed() }
        return text
    }

    private static func readOptional(from buffer: inout ByteBuffer) throws -> String? {
        switch buffer.readInteger(as: UInt8.self) {
        case 0: return nil
        case 1: return try readString(from: &buffer)
        default: throw Malformed()
        }
    }
}
