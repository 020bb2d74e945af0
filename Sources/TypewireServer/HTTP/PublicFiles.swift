import Foundation
import Hummingbird

/// The web demo's static files (``ServerConfiguration/HTTP/publicDirectory``), served at `/` by Hummingbird's
/// `FileMiddleware`: `/` answers `index.html`, other paths their file. Routes come first; only a request
/// that no route answers looks for a file.
enum PublicFiles {
    /// The middleware that serves the folder, or nil when there is no folder to serve.
    /// - Throws: ``PublicFolderError`` if the demo is on and the folder is missing.
    static func middleware<Context: RequestContext>(
        for configuration: ServerConfiguration, context: Context.Type = Context.self
    ) throws -> FileMiddleware<Context, LocalFileSystem>? {
        guard let folder = try configuration.resolvedPublicDirectory() else { return nil }
        // no-cache: browsers revalidate (by ETag) on every load, so a new build of the page shows at once.
        return FileMiddleware(folder, cacheControl: .init([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true)
    }
}

extension ServerConfiguration {
    /// The absolute path of ``HTTP-swift.struct/publicDirectory`` if the folder exists; nil if it is missing and the demo is
    /// off. Call it before opening anything, to refuse a demo without its page at once.
    /// - Throws: ``PublicFolderError`` if the demo is on and the folder is missing.
    public func resolvedPublicDirectory() throws -> String? {
        let path = URL(fileURLWithPath: http.publicDirectory).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return path
        }
        if demo { throw PublicFolderError(path: path) }
        return nil
    }
}

/// `--demo` was asked for, but the web demo's folder is not there.
public struct PublicFolderError: Error, CustomStringConvertible {
    /// The absolute path that was looked for.
    public let path: String

    public var description: String {
        "The web demo's folder '\(path)' does not exist. Run typewire from the repository's root (where Public/ is) "
            + "or pass --public PATH (TYPEWIRE_PUBLIC)."
    }
}
