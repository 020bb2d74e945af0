import Foundation
import Testing
import TypewireCore

@Suite("TypewireVersion: one version, the changelog's")
struct TypewireVersionTests {
    @Test func theNewestReleaseInTheChangelogIsThisOne() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let releases = changelog.split(separator: "\n").filter { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        let newest = try #require(releases.first, "CHANGELOG.md names no release")
        #expect(newest.hasPrefix("## [\(TypewireVersion.current)] - "), "CHANGELOG.md's newest release is \(newest)")
        #expect(TypewireVersion.current.split(separator: ".").compactMap { Int($0) }.count == 3, "semantic: MAJOR.MINOR.PATCH")
    }
}
