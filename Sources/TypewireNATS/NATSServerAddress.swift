/// One NATS server to connect to, with the credentials to present: `nats://host:port`,
/// `nats://user:password@host:port` or `nats://token@host:port` (4222 when no port is given); `tls://` for
/// a connection that must be TLS (a server that requires TLS gets it with `nats://` too).
public struct NATSServerAddress: Hashable, Sendable, CustomStringConvertible {
    /// The credentials a URL carries.
    public enum Credentials: Hashable, Sendable {
        case none
        case userAndPassword(user: String, password: String)
        case token(String)
    }

    public var host: String
    public var port: Int
    public var credentials: Credentials
    /// Whether the connection must be TLS (`tls://`): a server that does not offer it is refused.
    public var requiresTLS: Bool

    /// An address.
    public init(host: String, port: Int = 4222, credentials: Credentials = .none, requiresTLS: Bool = false) {
        self.host = host
        self.port = port
        self.credentials = credentials
        self.requiresTLS = requiresTLS
    }

    /// Why a NATS URL was refused.
    public struct InvalidURL: Error, Equatable, CustomStringConvertible {
        public var url: String
        public var reason: String
        public var description: String { "Invalid NATS URL '\(url)': \(reason)." }
    }

    /// Parses a URL; the scheme may be left out.
    /// - Throws: ``InvalidURL`` for another scheme, a missing host or a bad port.
    public init(url: String) throws {
        var rest = Substring(url.trimmingCharacters(in: [" "]))
        requiresTLS = false
        if let scheme = rest.range(of: "://") {
            let name = rest[..<scheme.lowerBound].lowercased()
            guard name == "nats" || name == "tls" else { throw InvalidURL(url: url, reason: "the scheme is nats:// or tls://") }
            requiresTLS = name == "tls"
            rest = rest[scheme.upperBound...]
        }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        credentials = .none
        if let at = rest.lastIndex(of: "@") {
            let secret = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = secret.firstIndex(of: ":") {
                credentials = .userAndPassword(
                    user: Self.decoded(secret[..<colon]), password: Self.decoded(secret[secret.index(after: colon)...]))
            } else {
                credentials = .token(Self.decoded(secret))
            }
        }
        var portText: Substring?
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {  // [IPv6]:port
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() }
        } else if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
        } else {
            host = String(rest)
        }
        guard !host.isEmpty else { throw InvalidURL(url: url, reason: "no host") }
        if let portText {
            guard let port = Int(portText), (1...65_535).contains(port) else { throw InvalidURL(url: url, reason: "bad port") }
            self.port = port
        } else {
            port = 4222
        }
    }

    /// A comma-separated list of URLs (`--nats-url`).
    public static func list(_ urls: String) throws -> [NATSServerAddress] {
        let addresses = try urls.split(separator: ",").map { try NATSServerAddress(url: String($0)) }
        guard !addresses.isEmpty else { throw InvalidURL(url: urls, reason: "no server") }
        return addresses
    }

    /// The same server with another's credentials and TLS (a server learnt from `INFO` is reached as the
    /// first URL says).
    func reached(like other: NATSServerAddress) -> NATSServerAddress {
        NATSServerAddress(host: host, port: port, credentials: other.credentials, requiresTLS: other.requiresTLS)
    }

    /// `host:port`, without credentials (for logs).
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private static func decoded(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }
}
