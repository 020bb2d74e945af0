/// The NATS subjects of the cluster bus: one per conversation, which only the nodes following it subscribe
/// to, and one that every node subscribes to for what every node needs.
///
/// Conversation ids may hold any character but the bidi and zero-width ones, and a subject's tokens may not
/// hold dots, blanks or wildcards: an id becomes one token where letters, digits, `-` and `_` stand for
/// themselves and every other byte of its UTF-8 is `~` and two hex digits (so `~` too: two ids never share a
/// subject). A 256-byte id makes a token of at most 768 bytes.
enum ClusterSubjects {
    /// What every node hears.
    static let everyNode = "typewire.all"
    /// The prefix of conversations' subjects.
    static let conversationPrefix = "typewire.c."

    /// A conversation's subject.
    static func conversation(_ id: String) -> String {
        var subject = conversationPrefix
        subject.reserveCapacity(conversationPrefix.utf8.count + id.utf8.count)
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                subject.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                subject.append("~")
                subject.append(hexDigits[Int(byte >> 4)])
                subject.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return subject
    }

    /// The subject an event travels on.
    static func subject(of event: ClusterEvent) -> String {
        event.conversation.map(conversation) ?? everyNode
    }

    private static let hexDigits = Array("0123456789ABCDEF")
}
