import Foundation

/// Where a client keeps the messages the server has not acknowledged yet, so that they survive the app
/// being killed: a small JSON file, written whole (to a temporary file, then renamed over the old one) each
/// time a message is added or settled. After a relaunch the client sends them again with their
/// `clientMessageId`, and the server stores each once.
///
/// One file per client: two clients on one file overwrite each other's messages.
public struct OutboxFile: Sendable, Hashable {
    /// The file.
    public var url: URL

    /// Keeps the outbox in `url` (its folder is created when needed).
    public init(url: URL) {
        self.url = url
    }

    /// The default: `Typewire/outbox.json` in the app's Application Support folder on Apple platforms (not
    /// purged like caches); nil elsewhere (messages then live in memory only).
    public static var standard: OutboxFile? {
        #if canImport(Darwin)
            guard let folder = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first else { return nil }
            return OutboxFile(url: folder.appendingPathComponent("Typewire/outbox.json"))
        #else
            return nil
        #endif
    }

    /// `Typewire/outbox.json` in the Application Support folder of an App Group's shared container (an app
    /// and its share extension sending as one client); nil if the app is not in the group, and off Apple
    /// platforms. `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)` (iOS 7, macOS 10.8):
    /// compiled on Apple platforms only, to review by eye.
    public static func appGroup(_ identifier: String) -> OutboxFile? {
        #if canImport(Darwin)
            guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: identifier) else { return nil }
            return OutboxFile(url: container.appendingPathComponent("Library/Application Support/Typewire/outbox.json"))
        #else
            return nil
        #endif
    }

    /// What the file holds; empty if there is no file yet.
    func load() throws -> UnsentMessages {
        guard FileManager.default.fileExists(atPath: url.path) else { return UnsentMessages() }
        return try JSONDecoder().decode(UnsentMessages.self, from: Data(contentsOf: url))
    }

    /// Replaces what the file holds. The messages' text is the user's: on iOS the file is readable only
    /// once the device was first unlocked after a restart, and on Apple platforms it stays out of backups
    /// (a message waits minutes, not years). Compiled on Apple platforms only, to review by eye:
    /// `Data.WritingOptions.completeFileProtectionUntilFirstUserAuthentication` (iOS 4) and
    /// `URLResourceValues.isExcludedFromBackup` (iOS 5.1, macOS 10.8).
    func save(_ messages: UnsentMessages) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            try JSONEncoder().encode(messages).write(to: url, options: [.atomic, .completeFileProtectionUntilFirstUserAuthentication])
        #else
            try JSONEncoder().encode(messages).write(to: url, options: .atomic)
        #endif
        #if canImport(Darwin)
            var file = url
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            try file.setResourceValues(values)
        #endif
    }
}
