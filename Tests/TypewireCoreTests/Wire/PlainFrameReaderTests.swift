import Foundation
import Testing

@testable import TypewireCore

@Suite("PlainFrameReader: plain activity, hello and subscribe frames read without JSONDecoder, the rest left to it")
struct PlainFrameReaderTests {
    private func decoded(_ text: String) -> ClientFrame? {
        try? FrameCodec.decodeClientFrame(Data(text.utf8))
    }

    @Test(arguments: [
        #"{"type":"activity","conversation":"c1","activity":"typing"}"#,
        #"{"conversation":"c1","activity":"none","type":"activity"}"#,
        #" { "type" : "activity" ,"conversation":"c1","activity":"tool","detail":"web_search","thread":"m-42"}"#,
        "{\"type\":\"activity\",\n\t\"conversation\":\"école 💬\",\r\n\"activity\":\"thinking\"}\n",
        #"{"type":"activity","conversation":"","activity":"typing","detail":"ignored for typing"}"#,
        #"{"type":"subscribe","conversation":"group-7"}"#,
        #"{ "conversation" : "école 💬", "type" : "unsubscribe" }"#,
        #"{"type":"hello","token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln"}"#,
    ])
    func readsAPlainFrameAsJSONDecoderDoes(text: String) throws {
        let read = try #require(PlainFrameReader.read(text), "a plain frame went to JSONDecoder")
        #expect(read == decoded(text))
    }

    @Test(arguments: [
        ClientFrame.activity(.init(conversation: "group-7", activity: .toolUse("search"), thread: "m1")),
        .hello(.init(token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln")),
        .subscribe(.init(conversation: "group-7")),
        .unsubscribe(.init(conversation: "group-7")),
    ])
    func readsWhatTheSDKSends(frame: ClientFrame) throws {
        let text = String(decoding: FrameCodec.encode(frame), as: UTF8.self)
        #expect(PlainFrameReader.read(text) == frame)
    }

    @Test(arguments: [
        #"{"type":"activity","conversation":"c\/1","activity":"typing"}"#,  // an escape
        #"{"type":"activity","conversation":"c1","activity":"typing","thread":null}"#,
        #"{"type":"activity","conversation":"c1","activity":"typing","extra":"x"}"#,
        #"{"type":"activity","conversation":"c1","conversation":"c2","activity":"typing"}"#,
        #"{"type":"activity","conversation":"c1","activity":"dancing"}"#,
        #"{"type":"activity","conversation":"c1"}"#,
        #"{"type":"send","conversation":"c1","clientMessageId":"m1","text":"hi"}"#,
        #"{"type":"subscribe","conversation":"c1","activity":"typing"}"#,  // a key that is not the frame's
        #"{"type":"activity","conversation":"c1","activity":"typing","token":"t"}"#,
        #"{"type":"hello","token":"t","conversation":"c1"}"#,
        #"{"type":"hello"}"#,
        #"{"type":"subscribe","conversation":"c\u0031"}"#,  // an escape
        #"{"type":"activity","conversation":"c1","activity":"typing"} x"#,
        #"{"type":"activity","conversation":"c1","activity":"typing""#,
        #"{"type":"activity","conversation":7,"activity":"typing"}"#,
        "{}",
        "",
    ])
    func leavesAnythingElseToJSONDecoder(text: String) {
        #expect(PlainFrameReader.read(text) == nil)
    }
}
