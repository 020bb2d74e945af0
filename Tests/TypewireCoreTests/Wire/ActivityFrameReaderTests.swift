import Foundation
import Testing

@testable import TypewireCore

@Suite("ActivityFrameReader: plain activity frames read without JSONDecoder, the rest left to it")
struct ActivityFrameReaderTests {
    private func decoded(_ text: String) -> ClientFrame? {
        try? FrameCodec.decodeClientFrame(Data(text.utf8))
    }

    @Test(arguments: [
        #"{"type":"activity","conversation":"c1","activity":"typing"}"#,
        #"{"conversation":"c1","activity":"none","type":"activity"}"#,
        #" { "type" : "activity" ,"conversation":"c1","activity":"tool","detail":"web_search","thread":"m-42"}"#,
        "{\"type\":\"activity\",\n\t\"conversation\":\"école 💬\",\r\n\"activity\":\"thinking\"}\n",
        #"{"type":"activity","conversation":"","activity":"typing","detail":"ignored for typing"}"#,
    ])
    func readsAPlainFrameAsJSONDecoderDoes(text: String) throws {
        let read = try #require(ActivityFrameReader.read(text), "a plain frame went to JSONDecoder")
        #expect(.activity(read) == decoded(text))
    }

    @Test func readsWhatTheSDKSends() throws {
        let frame = ClientFrame.activity(.init(conversation: "group-7", activity: .toolUse("search"), thread: "m1"))
        let text = String(decoding: FrameCodec.encode(frame), as: UTF8.self)
        #expect(ActivityFrameReader.read(text).map(ClientFrame.activity) == frame)
    }

    @Test(arguments: [
        #"{"type":"activity","conversation":"c\/1","activity":"typing"}"#,  // an escape
        #"{"type":"activity","conversation":"c1","activity":"typing","thread":null}"#,
        #"{"type":"activity","conversation":"c1","activity":"typing","extra":"x"}"#,
        #"{"type":"activity","conversation":"c1","conversation":"c2","activity":"typing"}"#,
        #"{"type":"activity","conversation":"c1","activity":"dancing"}"#,
        #"{"type":"activity","conversation":"c1"}"#,
        #"{"type":"subscribe","conversation":"c1"}"#,
        #"{"type":"activity","conversation":"c1","activity":"typing"} x"#,
        #"{"type":"activity","conversation":"c1","activity":"typing""#,
        #"{"type":"activity","conversation":7,"activity":"typing"}"#,
        "{}",
        "",
    ])
    func leavesAnythingElseToJSONDecoder(text: String) {
        #expect(ActivityFrameReader.read(text) == nil)
    }
}
