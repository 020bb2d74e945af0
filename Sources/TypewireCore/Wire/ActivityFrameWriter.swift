/// Writes the server's `activity` frame as JSON directly, without `JSONEncoder`.
///
/// Every change of a conversation's activity is fanned out as this frame, so it is the server's hot
/// encoding: profiled under load, `JSONEncoder` took about a third of the hub's fan-out time. The output
/// decodes to the same ``ActivityUpdate`` as `JSONEncoder`'s (a test checks this on hostile strings).
enum ActivityFrameWriter {
    /// The frame's JSON.
    static func json(_ update: ActivityUpdate) -> String {
        String(decoding: utf8(update), as: UTF8.self)
    }

    /// The frame's JSON as UTF-8 bytes.
    static func utf8(_ update: ActivityUpdate) -> [UInt8] {
        var json = JSONTextWriter(#"{"type":"activity","#, capacity: 96 + update.entries.count * 128)
        writeFields(of: update, to: &json)
        json.raw("}")
        return json.bytes
    }

    /// Appends the update's fields: `"conversation":…,"entries":[…],"total":…,"serverTime":…`.
    /// The `activity` frame is these after its `type`; `subscribed` nests them in an object of their own.
    static func writeFields(of update: ActivityUpdate, to json: inout JSONTextWriter) {
        json.raw(#""conversation":"#)
        json.string(update.conversation)
        json.array("entries", update.entries) { json, entry in
            json.raw(#"{"user":"#)
            json.string(entry.user)
            json.field("name", entry.name)
            json.field("activity", entry.activity.kind.rawValue)
            json.field("detail", entry.activity.detail)
            json.field("since", entry.since)
            json.field("expiresAt", entry.expiresAt)
            json.field("thread", entry.thread)
            json.raw("}")
        }
        json.field("total", Int64(update.total))
        json.field("serverTime", update.serverTime)
    }
}
