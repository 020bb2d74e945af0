/// Writes the server's `activity` frame as JSON directly, without `JSONEncoder`.
///
/// Every change of a conversation's activity is fanned out as this frame, so it is the server's hot
/// encoding: profiled under load, `JSONEncoder` took about a third of the hub's fan-out time. The output
/// decodes to the same ``ActivityUpdate`` as `JSONEncoder`'s (a test checks this on hostile strings).
enum ActivityFrameWriter {
    /// The frame's UTF-8 JSON.
    static func json(_ update: ActivityUpdate) -> String {
        var out = #"{"type":"activity","conversation":"#
        out.reserveCapacity(96 + update.entries.count * 128)
        appendString(update.conversation, to: &out)
        out += #","entries":["#
        for (index, entry) in update.entries.enumerated() {
            if index > 0 { out += "," }
            out += #"{"user":"#
            appendString(entry.user, to: &out)
            if let name = entry.name {
                out += #","name":"#
                appendString(name, to: &out)
            }
            out += #","activity":""#
            out += entry.activity.kind.rawValue
            out += "\""
            if let detail = entry.activity.detail {
                out += #","detail":"#
                appendString(detail, to: &out)
            }
            out += #","since":"#
            out += String(entry.since)
            out += #","expiresAt":"#
            out += String(entry.expiresAt)
            if let thread = entry.thread {
                out += #","thread":"#
                appendString(thread, to: &out)
            }
            out += "}"
        }
        out += #"],"total":"#
        out += String(update.total)
        out += #","serverTime":"#
        out += String(update.serverTime)
        out += "}"
        return out
    }

    /// Appends a JSON string literal: quotes, backslashes and control characters escaped.
    private static func appendString(_ value: String, to out: inout String) {
        out += "\""
        var plain = true
        for byte in value.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            plain = false
            break
        }
        if plain {
            out += value
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
