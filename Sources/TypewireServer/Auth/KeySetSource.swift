import AsyncHTTPClient
import Foundation
import NIOCore

/// Where a JSON Web Key Set comes from: a file, or an address (https; plain http only on loopback, where
/// nobody can change it on the way).
///
/// Reading an address uses AsyncHTTPClient (as the webhooks do), not FoundationNetworking's `URLSession`,
/// which would link the system's libcurl into the server; the body is read up to ``maxBytes``, no further.
public enum KeySetSource: Sendable, Hashable, CustomStringConvertible {
    case file(String)
    case address(URL)

    /// The most bytes of a key set read; a provider's set is a few KiB.
    static let maxBytes = 1 << 20
    /// How long a read of an address may take, in seconds.
    static let timeout: TimeInterval = 10

    /// The source `--jwks` names: an `https://` or loopback `http://` address, or else a file path.
    /// - Throws: ``TokenAuthorityError`` for a plain-http address off loopback, or one that is not an address.
    public init(parsing text: String) throws(TokenAuthorityError) {
        guard text.hasPrefix("http://") || text.hasPrefix("https://") else {
            self = .file(text)
            return
        }
        guard let url = URL(string: text), let host = url.host, !host.isEmpty else { throw .badKeySetAddress(text) }
        if url.scheme == "http", !Self.isLoopback(host) { throw .plainHTTPKeySet(text) }
        self = .address(url)
    }

    public var description: String {
        switch self {
        case .file(let path): path
        case .address(let url): url.absoluteString
        }
    }

    /// Reads the set's bytes.
    /// - Throws: ``TokenAuthorityError`` saying what went wrong and where.
    func read() async throws(TokenAuthorityError) -> Data {
        let data: Data
        switch self {
        case .file(let path):
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            guard size <= Self.maxBytes else { throw .keySetTooLarge(description) }
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw .keySetUnreadable(description, "no readable file there")
            }
            data = contents
        case .address(let url):
            data = try await Self.fetch(url, description: description)
        }
        guard data.count <= Self.maxBytes else { throw .keySetTooLarge(description) }
        return data
    }

    /// Reads an address's set: a 200 answer of at most ``maxBytes``.
    private static func fetch(_ url: URL, description: String) async throws(TokenAuthorityError) -> Data {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.shared.execute(request, timeout: .seconds(Int64(timeout)))
        } catch {
            throw .keySetUnreadable(description, "\(error)")
        }
        guard response.status == .ok else { throw .keySetUnreadable(description, "HTTP status \(response.status.code)") }
        do {
            return Data(try await response.body.collect(upTo: maxBytes).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw .keySetTooLarge(description)
        } catch {
            throw .keySetUnreadable(description, "\(error)")
        }
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
