import Foundation
import Testing
import TypewireCore

@Suite("MemberActivity: wire names")
struct ActivityTests {
    @Test func wireNamesAreStable() {
        let names = Dictionary(uniqueKeysWithValues: MemberActivity.Kind.allCases.map { ($0, $0.rawValue) })
        #expect(
            names == [
                .none: "none", .typing: "typing", .thinking: "thinking", .toolUse: "tool",
                .recordingAudio: "recording", .uploading: "uploading",
            ])
    }

    @Test(arguments: [
        (MemberActivity.none, #"{"activity":"none"}"#),
        (.typing, #"{"activity":"typing"}"#),
        (.thinking, #"{"activity":"thinking"}"#),
        (.toolUse("web_search"), #"{"activity":"tool","detail":"web_search"}"#),
        (.toolUse(nil), #"{"activity":"tool"}"#),
        (.recordingAudio, #"{"activity":"recording"}"#),
        (.uploading, #"{"activity":"uploading"}"#),
    ])
    func codesAsWireFields(activity: MemberActivity, json: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(activity), as: UTF8.self) == json)
        #expect(try JSONDecoder().decode(MemberActivity.self, from: Data(json.utf8)) == activity)
    }

    @Test func detailIsKeptOnlyForToolUse() throws {
        let decoded = try JSONDecoder().decode(MemberActivity.self, from: Data(#"{"activity":"typing","detail":"x"}"#.utf8))
        #expect(decoded == .typing)
        #expect(MemberActivity(kind: .toolUse, detail: "calc").detail == "calc")
    }

    @Test func unknownActivityIsAnError() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(MemberActivity.self, from: Data(#"{"activity":"dancing"}"#.utf8))
        }
    }

    @Test func onlyNoneIsInactive() {
        for kind in MemberActivity.Kind.allCases {
            #expect(MemberActivity(kind: kind).isActive == (kind != .none))
        }
    }
}
