import Foundation
import Testing
import TypewireCore

@Suite("Wire frames")
struct FrameCodecTests {
    static let clientFrames: [ClientFrame] = [
        .hello(.init(token: "eyJ.a.b")),
        .refresh(.init(token: "eyJ.c.d")),
        .subscribe(.init(conversation: "c1")),
        .unsubscribe(.init(conversation: "c1")),
        .activity(.init(conversation: "c1", activity: .typing)),
        .activity(.init(conversation: "c1", activity: .toolUse("search"))),
        .activity(.init(conversation: "c1", activity: .none)),
        .activity(.init(conversation: "c1", activity: .typing, thread: "42")),
        .send(.init(conversation: "c1", clientMessageId: "m-1", text: "Hi ✋ \"there\"")),
        .send(.init(conversation: "c1", clientMessageId: "m-2", text: "In the thread", thread: "42")),
        .edit(.init(conversation: "c1", messageId: "42", text: "Hello")),
        .stream(.init(conversation: "c1", messageId: "r1", delta: "Hel")),
        .stream(.init(conversation: "c1", messageId: "r1", delta: "lo", isFinal: true)),
        .stream(.init(conversation: "c1", messageId: "r1", delta: "!", isFinal: true, text: "Hello!")),
        .stream(.init(conversation: "c1", messageId: "r2", delta: "Yes", thread: "42")),
        .stream(.init(conversation: "c1", messageId: "r3", delta: "Ye", asker: "alice")),
        .stream(.init(conversation: "c1", messageId: "r3", delta: "", isFinal: true, text: "Ye", end: .cancelled)),
        .stream(.init(conversation: "c1", messageId: "r4", delta: "", isFinal: true, end: .failed, reason: "The model is down")),
        .cancel(.init(conversation: "c1", messageId: "r3")),
        .read(.init(conversation: "c1", messageId: "42")),
        .read(.init(conversation: "c1", messageId: "43", isPrivate: true)),
        .read(.init(conversation: "c1", messageId: "fs-doc", sentAt: 1_700_000_000_123, thread: "fs-parent")),
        .subscribe(.init(conversation: "c1", readState: true)),
        .markUnread(.init(conversation: "c1", messageId: "42")),
        .delivered(.init(conversation: "c1", messageId: "44")),
        .delivered(.init(conversation: "c1", messageId: "fs-doc", sentAt: 1_700_000_000_123)),
    ]

    static let serverFrames: [ServerFrame] = [
        .refreshed(.init(expiresAt: 1_700_003_600_000)),
        .welcome(
            .init(
                user: .init(id: "alice", name: "Alice", online: true), serverTime: 1_700_000_000_000,
                config: .init(activityTTL: 6_000, refreshInterval: 3_000, idleTimeout: 3_000))),
        .subscribed(
            .init(
                conversation: "c1",
                participants: [.init(id: "alice", name: "Alice", online: true), .init(id: "bob", name: nil, online: false)],
                activity: .init(conversation: "c1", entries: [], serverTime: 5),
                recentMessages: [.init(conversation: "c1", id: "1", sender: "bob", senderName: "Bob", text: "yo", sentAt: 3)]
            )),
        .activity(
            .init(
                conversation: "c1",
                entries: [
                    .init(user: "bob", name: "Bob", activity: .toolUse("calc"), since: 1, expiresAt: 6_001),
                    .init(user: "carol", name: "Carol", activity: .typing, since: 1, expiresAt: 6_001, thread: "42"),
                ],
                total: 7, serverTime: 2
            )),
        .presence(.init(conversation: "c1", user: "bob", online: false)),
        .message(
            .init(
                conversation: "c1", id: "9", sender: "bob", senderName: nil, text: "x", sentAt: 1,
                clientMessageId: "m-1", editedAt: 4)),
        .message(.init(conversation: "c1", id: "10", sender: "carol", senderName: "Carol", text: "y", sentAt: 2, thread: "9")),
        .ack(.init(clientMessageId: "m-1", messageId: "9")),
        .stream(.init(conversation: "c1", messageId: "r1", user: "clawd", delta: "Hi", final: false)),
        .stream(.init(conversation: "c1", messageId: "r2", user: "clawd", delta: "Hi", final: true, thread: "9")),
        .stream(.init(conversation: "c1", messageId: "r3", user: "clawd", delta: "Hi", final: false, seq: 4)),
        .stream(.init(conversation: "c1", messageId: "r3", user: "clawd", delta: "", final: true, seq: 5, end: .cancelled, by: "alice")),
        .stream(.init(conversation: "c1", messageId: "r4", user: "clawd", delta: "", final: true, seq: 1, end: .failed, reason: "down")),
        .stream(.init(conversation: "c1", messageId: "r5", user: "clawd", delta: "", final: true, seq: 9, end: .timedOut)),
        .cancel(.init(conversation: "c1", messageId: "r3", by: "alice")),
        .error(.init(code: .forbidden, message: "no", ref: "subscribe")),
        .receipts(.init(conversation: "c1", reads: [.init(user: "bob", messageId: "9", at: 7)])),
        .receipts(.init(conversation: "c1", thread: "9", reads: [])),
        .receipts(.init(conversation: "c1", reads: [], delivered: [.init(user: "bob", messageId: "10", at: 8)])),
        .unread(.init(conversation: "c1", messageId: "9", count: 3)),
        .unread(.init(conversation: "c1", thread: "9", messageId: "10", count: 0)),
    ]

    @Test(arguments: clientFrames)
    func clientFramesRoundTrip(_ frame: ClientFrame) throws {
        let bytes = FrameCodec.encode(frame)
        #expect(try FrameCodec.decodeClientFrame(bytes) == frame)
        let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        #expect(object["type"] as? String == frame.type)
    }

    @Test(arguments: serverFrames)
    func serverFramesRoundTrip(_ frame: ServerFrame) throws {
        let bytes = FrameCodec.encode(frame)
        #expect(try FrameCodec.decodeServerFrame(bytes) == frame)
    }

    @Test func everyFrameTypeIsCovered() {
        #expect(Set(Self.clientFrames.map(\.type)) == Set(ClientFrame.typeNames))
        #expect(Set(Self.serverFrames.map(\.type)) == Set(ServerFrame.typeNames))
    }

    @Test func activityFrameHasTheDocumentedShape() throws {
        let json = #"{"type":"activity","conversation":"c1","activity":"tool","detail":"search"}"#
        #expect(try FrameCodec.decodeClientFrame(Data(json.utf8)) == .activity(.init(conversation: "c1", activity: .toolUse("search"))))
        let inThread = #"{"type":"activity","conversation":"c1","activity":"typing","thread":"42"}"#
        #expect(
            try FrameCodec.decodeClientFrame(Data(inThread.utf8)) == .activity(.init(conversation: "c1", activity: .typing, thread: "42")))
        let stream = #"{"type":"stream","conversation":"c1","messageId":"r","delta":"x"}"#
        #expect(try FrameCodec.decodeClientFrame(Data(stream.utf8)) == .stream(.init(conversation: "c1", messageId: "r", delta: "x")))
    }

    @Test(arguments: [
        ("", ErrorCode.malformedFrame, "not valid UTF-8 JSON"),
        ("{", .malformedFrame, "not valid UTF-8 JSON"),
        ("[1,2]", .malformedFrame, "not an object"),
        ("42", .malformedFrame, "not an object"),
        (#"{"conversation":"c1"}"#, .malformedFrame, #"no string field "type""#),
        (#"{"type":7}"#, .malformedFrame, #"no string field "type""#),
        (#"{"type":"dance"}"#, .unknownType, "Unknown frame type 'dance'"),
        (#"{"type":"subscribe"}"#, .invalidField, #"'subscribe' frame lacks the required field "conversation""#),
        (#"{"type":"subscribe","conversation":5}"#, .invalidField, #"'subscribe' frame has an invalid value in field "conversation""#),
        (#"{"type":"activity","conversation":"c","activity":"dancing"}"#, .invalidField, #"field "activity""#),
        (#"{"type":"send","conversation":"c","clientMessageId":"m","text":null}"#, .invalidField, #"field "text""#),
        (#"{"type":"stream","conversation":"c","messageId":"m","delta":"x","final":"yes"}"#, .invalidField, #"field "final""#),
    ])
    func badInputIsATypedReadableError(json: String, code: ErrorCode, message: String) {
        let error = #expect(throws: FrameDecodingError.self) { try FrameCodec.decodeClientFrame(Data(json.utf8)) }
        #expect(error?.code == code)
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "")")
    }

    @Test func invalidUTF8IsMalformed() {
        let bytes: [UInt8] = [0x7B, 0x22, 0x74, 0xFF, 0xFE, 0x22, 0x7D]
        let error = #expect(throws: FrameDecodingError.self) { try FrameCodec.decodeClientFrame(bytes) }
        #expect(error?.code == .malformedFrame)
    }

    @Test func deeplyNestedJSONDoesNotCrash() {
        let depth = 100_000
        let json =
            #"{"type":"subscribe","conversation":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        #expect(throws: FrameDecodingError.self) { try FrameCodec.decodeClientFrame(Data(json.utf8)) }
    }

    /// Foundation's JSONDecoder traps on these (a 513th nested "[" as the last byte); the codec must not.
    @Test func anArrayNestedPastTheLimitAtTheEndDoesNotCrash() {
        for prefix in ["", " ", #"{"type":"subscribe","conversation":"#] {
            let json = prefix + String(repeating: "[", count: prefix.hasPrefix("{") ? 512 : 513)
            let error = #expect(throws: FrameDecodingError.self) { try FrameCodec.decodeClientFrame(Data(json.utf8)) }
            #expect(error?.code == .malformedFrame)
            #expect(throws: FrameDecodingError.self) { try FrameCodec.decodeServerFrame(Data(json.utf8)) }
        }
    }

    @Test func outOfRangeNumbersAreInvalidFields() {
        let json = #"{"type":"activity","conversation":"c1","entries":[],"total":1e400,"serverTime":1}"#
        let error = #expect(throws: FrameDecodingError.self) { try FrameCodec.decodeServerFrame(Data(json.utf8)) }
        #expect(error?.code == .invalidField || error?.code == .malformedFrame)
    }

    @Test func unknownErrorCodesDecode() throws {
        let json = #"{"type":"error","code":"brand_new","message":"m"}"#
        #expect(try FrameCodec.decodeServerFrame(Data(json.utf8)) == .error(.init(code: ErrorCode(rawValue: "brand_new"), message: "m")))
    }
}
