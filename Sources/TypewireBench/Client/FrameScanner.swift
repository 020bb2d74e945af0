/// Reads what the benchmark needs from a server frame's bytes without decoding its JSON.
///
/// The generator shares the machine with the server, so a received frame costs a scan, not a parse.
/// Typewire encodes `type` first and the relay forwards the client's frames, which the generator also
/// writes with `type` first; the scanner falls back to a search when it is not.
enum FrameScanner {
    private static let typePrefix = Array(#"{"type":""#.utf8)
    private static let typeMarker = Array(#""type":""#.utf8)
    private static let detailMarker = Array(#""detail":"t"#.utf8)
    private static let deltaMarker = Array(#""delta":"t"#.utf8)
    private static let serverTimeMarker = Array(#""serverTime":"#.utf8)
    private static let userMarker = Array(#""user":""#.utf8)
    private static let expiryMarker = Array(#""expiresAt":"#.utf8)
    private static let refreshMarker = Array(#""refreshInterval":"#.utf8)
    private static let idMarker = Array(#""id":""#.utf8)

    /// The kinds of frame the benchmark tells apart.
    enum Kind: Equatable {
        case welcome, subscribed, activity, message, stream, receipts, unread, error, other
    }

    /// The frame's type.
    static func kind(_ bytes: UnsafeRawBufferPointer) -> Kind {
        let prefix = typePrefix
        var start = -1
        if bytes.count > prefix.count, zip(bytes.prefix(prefix.count), prefix).allSatisfy({ $0 == $1 }) {
            start = prefix.count
        } else if let found = find(typeMarker, in: bytes, from: 0) {
            start = found
        }
        guard start >= 0 else { return .other }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
        switch String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) {
        case "activity": return .activity
        case "message", "send": return .message  // the relay forwards a `send` as it came
        case "stream": return .stream
        case "receipts": return .receipts
        case "unread": return .unread
        case "welcome": return .welcome
        case "subscribed": return .subscribed
        case "error": return .error
        default: return .other
        }
    }

    /// Calls `body` with each `"detail":"t<nanos>u<sender>"` in the frame (`"delta":"t…` in a bot's reply part).
    static func forEachStamp(
        _ bytes: UnsafeRawBufferPointer, inPart: Bool = false, _ body: (_ sentNanos: UInt64, _ sender: Int) -> Void
    ) {
        let marker = inPart ? deltaMarker : detailMarker
        var from = 0
        while let at = find(marker, in: bytes, from: from) {
            var index = at
            guard let nanos = digits(bytes, &index), index < bytes.count, bytes[index] == UInt8(ascii: "u") else {
                from = at
                continue
            }
            index += 1
            guard let sender = digits(bytes, &index) else {
                from = index
                continue
            }
            body(nanos, Int(sender))
            from = index
        }
    }

    /// The `(user, expiresAt)` of each entry of a Typewire `activity` update.
    static func entries(_ bytes: UnsafeRawBufferPointer) -> [(user: String, expiresAt: Int64)] {
        var result: [(String, Int64)] = []
        var from = 0
        while let at = find(userMarker, in: bytes, from: from) {
            var end = at
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
            let user = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<end]), as: UTF8.self)
            guard var index = find(expiryMarker, in: bytes, from: end), let expiresAt = digits(bytes, &index) else { break }
            result.append((user, Int64(expiresAt)))
            from = index
        }
        return result
    }

    /// How many entries a Typewire `activity` update lists (the relay's forwarded frames list none).
    static func entryCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        var count = 0
        var from = 0
        while let at = find(userMarker, in: bytes, from: from) {
            count += 1
            from = at
        }
        return count
    }

    /// The value of `"serverTime":<ms>` in a Typewire frame, if present.
    static func serverTime(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard var index = find(serverTimeMarker, in: bytes, from: 0) else { return nil }
        return digits(bytes, &index).map { Int64($0) }
    }

    /// The server's id of a `message` frame (its `"id"`), if present.
    static func messageID(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard let start = find(idMarker, in: bytes, from: 0) else { return nil }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
        return end < bytes.count ? String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) : nil
    }

    /// The value of `"refreshInterval":<ms>` in a `welcome`, if present.
    static func refreshInterval(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard var index = find(refreshMarker, in: bytes, from: 0) else { return nil }
        return digits(bytes, &index).map { Int($0) }
    }

    /// The index just past the first occurrence of `needle` at or after `from`.
    private static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = from
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == first {
                var matched = 1
                while matched < needle.count, bytes[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index + needle.count }
            }
            index += 1
        }
        return nil
    }

    /// Reads decimal digits at `index`, moving it past them; nil if there are none.
    private static func digits(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> UInt64? {
        var value: UInt64 = 0
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), index - start < 19 {
            value = value * 10 + UInt64(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        return index > start ? value : nil
    }
}
