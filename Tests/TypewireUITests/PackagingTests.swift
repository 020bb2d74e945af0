import Foundation
import Testing
import TypewireUI  // alone: it brings TypewireClient's and TypewireCore's types

/// What an app gets from the package besides code: one import, and privacy manifests that declare what the
/// SDK's sources use.
@Suite("Packaging")
struct PackagingTests {
    @Test @MainActor func oneImportBringsTheClientAndTheCore() {
        let client = TypewireClient(url: "ws://127.0.0.1:1/ws") { "token" }
        let model = ConversationModel(client: client, conversationID: "direct-alice-bob")
        let locale: TypingLocale = .english
        let code: ErrorCode = .tooLarge
        #expect(model.conversationID == "direct-alice-bob" && locale.identifier == "en" && code.rawValue == "too_large")
    }

    /// Top-level types of the frameworks an app imports beside TypewireUI, as the iOS 17.0 SDK's Swift
    /// interfaces declare them: ActivityKit's whole list, GroupActivities' and StoreKit's generic names, and
    /// SwiftUI's most generic ones. Beside one of these, a public type of ours of the same name makes the
    /// app's unqualified use of Apple's ambiguous (`Activity<Attributes>.request(…)` stops compiling once the
    /// app adds Typewire). Not every Apple name: the ones a chat app is likely to write.
    static let appleTopLevelTypes: Set<String> = [
        // ActivityKit (iOS 16.1+)
        "Activity", "ActivityAttributes", "ActivityAuthorizationError", "ActivityAuthorizationInfo", "ActivityContent",
        "ActivityState", "ActivityUIDismissalPolicy", "AlertConfiguration", "PushType",
        // GroupActivities (iOS 15+), StoreKit (iOS 15+)
        "GroupActivity", "GroupSession", "GroupSessionMessenger", "Participant", "Participants", "Message", "Product",
        "Transaction",
        // SwiftUI
        "Alert", "Animation", "Binding", "Color", "Group", "Image", "Label", "List", "Section", "State", "Text", "View",
    ]

    /// No public type the one import brings shares a name with one of ``appleTopLevelTypes``.
    @Test func noPublicTypeSharesANameWithAnAppleFrameworkType() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let declaration = /^\s*public (?:final )?(?:struct|class|enum|protocol|actor|typealias) ([A-Za-z_]+)/
        var names: [String: String] = [:]  // name: the file that declares it
        for module in ["TypewireCore", "TypewireClient", "TypewireUI"] {
            let directory = root.appendingPathComponent("Sources/\(module)")
            for path in try FileManager.default.subpathsOfDirectory(atPath: directory.path) where path.hasSuffix(".swift") {
                var depth = 0  // of braces: a top-level declaration is at 0, inside an `#if` or not
                for line in try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8).split(separator: "\n") {
                    if line.trimmingPrefix(while: \.isWhitespace).hasPrefix("//") { continue }
                    if depth == 0, let match = line.prefixMatch(of: declaration) { names[String(match.1)] = "\(module)/\(path)" }
                    depth += line.count(where: { $0 == "{" }) - line.count(where: { $0 == "}" })
                }
            }
        }
        let found = ["ConversationModel", "TypingRoster", "ConversationView", "TypewireClient"].filter { names[$0] != nil }
        #expect(found.count == 4 && names["State"] == nil, "the scan finds the modules' top-level types, not nested ones")
        for (name, file) in names.sorted(by: { $0.key < $1.key }) where Self.appleTopLevelTypes.contains(name) {
            Issue.record("\(file) declares \(name), a top-level type of an Apple framework an app imports beside Typewire")
        }
    }

    /// Apple's required-reason APIs (developer.apple.com, "Describing use of required reason API"), by the
    /// category a privacy manifest declares them under, as they are spelt in Swift.
    static let requiredReasonAPIs: [String: [String]] = [
        "NSPrivacyAccessedAPICategoryFileTimestamp": [
            "creationDate", "modificationDate", "fileModificationDate", "contentModificationDateKey", "creationDateKey",
            "getattrlist", "getattrlistbulk", "fgetattrlist", "getattrlistat", "stat(", "fstat(", "fstatat(", "lstat(",
        ],
        "NSPrivacyAccessedAPICategorySystemBootTime": ["systemUptime", "mach_absolute_time"],
        "NSPrivacyAccessedAPICategoryDiskSpace": [
            "volumeAvailableCapacityKey", "volumeAvailableCapacityForImportantUsageKey",
            "volumeAvailableCapacityForOpportunisticUsageKey", "volumeTotalCapacityKey", "systemFreeSize", "systemSize",
            "statfs(", "statvfs(", "fstatfs(", "fstatvfs(",
        ],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": ["activeInputModes"],
        "NSPrivacyAccessedAPICategoryUserDefaults": ["UserDefaults"],
    ]

    /// Each module an app links carries a manifest (no tracking, no tracking domains) that declares every
    /// required-reason API its sources (and TypewireCore's, linked with the client) use.
    @Test(arguments: [("TypewireClient", ["TypewireClient", "TypewireCore"]), ("TypewireUI", ["TypewireUI"])])
    func thePrivacyManifestDeclaresEveryRequiredReasonAPITheSourcesUse(module: String, sources: [String]) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Sources/\(module)/Resources/PrivacyInfo.xcprivacy"))
        let manifest = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        #expect((manifest["NSPrivacyTrackingDomains"] as? [String])?.isEmpty == true)
        let declared = Set(
            (manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? []).compactMap { $0["NSPrivacyAccessedAPIType"] as? String })

        var used: [String: String] = [:]  // category: a file that uses it
        for folder in sources {
            let directory = root.appendingPathComponent("Sources/\(folder)")
            for path in try FileManager.default.subpathsOfDirectory(atPath: directory.path) where path.hasSuffix(".swift") {
                let file = directory.appendingPathComponent(path)
                let text = try String(contentsOf: file, encoding: .utf8)
                for (category, symbols) in Self.requiredReasonAPIs where symbols.contains(where: { Self.uses($0, in: text) }) {
                    used[category] = file.lastPathComponent
                }
            }
        }
        for (category, file) in used {
            #expect(declared.contains(category), "\(file) uses a \(category) API the manifest of \(module) does not declare")
        }
        #expect(!sources.isEmpty)
    }

    /// Whether `symbol` occurs in code as a word of its own (not inside a longer name).
    static func uses(_ symbol: String, in text: String) -> Bool {
        var rest = text[...]
        while let range = rest.range(of: symbol) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            if before.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }
}
