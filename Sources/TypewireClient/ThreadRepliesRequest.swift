import Foundation
import TypewireCore

/// The server's REST request for a thread's recent replies (`GET /v1/conversations/:id/messages?thread=`):
/// under ``TypewireClient/Configuration/restURL`` when it is set, else found from the socket's URL (the same
/// host and port, `http` for `ws` and `https` for `wss`, and the path beside the socket's: `/v1/socket`
/// gives `/v1/conversations/…`).
struct ThreadRepliesRequest: Sendable {
    /// How many replies a thread's handle gets when it opens (and after a reconnect): as many as
    /// `subscribed` brings of the main timeline.
    static let limit = 50

    /// The request's address.
    let url: URL
    /// Its header fields: the socket's token, and JSON asked for.
    let headers: [String: String]
    /// The most bytes of a page read: more than `limit` replies of the longest message take, escaped.
    static let maxBytes = 16 << 20

    /// The REST scheme for a socket URL's scheme, and for a REST URL's.
    private static let socketSchemes = ["ws": "http", "wss": "https", "http": "http", "https": "https"]
    private static let restSchemes = ["http": "http", "https": "https"]

    /// The request for a thread's replies, or nil if `restURL` is set and is not an `http` or `https` URL,
    /// or it is nil and the socket's URL is not a `ws`, `wss`, `http` or `https` URL.
    init?(socketURL: String, restURL: String? = nil, conversation: String, thread: String, token: String) {
        guard var components = URLComponents(string: restURL ?? socketURL), let scheme = components.scheme?.lowercased(),
            let restScheme = (restURL == nil ? Self.socketSchemes : Self.restSchemes)[scheme]
        else { return nil }
        components.scheme = restScheme
        let path = components.percentEncodedPath
        let base: String
        if restURL != nil {
            base = path.hasSuffix("/") ? path : path + "/"
        } else {
            base = path.hasSuffix("/socket") ? String(path.dropLast("socket".count)) : "/v1/"
        }
        // One path segment: a "/" in an id is encoded too (the server percent-decodes the segment).
        var segment = CharacterSet.urlPathAllowed
        segment.remove("/")
        guard let id = conversation.addingPercentEncoding(withAllowedCharacters: segment) else { return nil }
        components.percentEncodedPath = base + "conversations/" + id + "/messages"
        components.queryItems = [URLQueryItem(name: "thread", value: thread), URLQueryItem(name: "limit", value: "\(Self.limit)")]
        guard let url = components.url else { return nil }
        self.url = url
        headers = ["Authorization": "Bearer \(token)", "Accept": "application/json"]
    }

    /// The server's answer: `{"messages":[…]}`, oldest first.
    struct Page: Decodable {
        var messages: [ChatMessage]
    }
}
