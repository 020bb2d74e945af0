import NIOCore

extension NATSClient {
    /// The servers, timing and bounds of a client.
    public struct Configuration: Sendable {
        /// The servers to connect to, any of which will do; the servers of their cluster are learnt from
        /// `INFO` (`connect_urls`) and reached with the first server's credentials.
        public var servers: [NATSServerAddress]
        /// The name the server shows for this connection.
        public var name: String?
        /// How often the client pings a quiet server. Default 5 s.
        public var pingInterval: Duration
        /// Pings without an answer after which the connection counts as dead and another server is tried.
        /// Default 2.
        public var maxPingsOutstanding: Int
        /// How long connecting and the handshake may take on one server. Default 2 s.
        public var connectTimeout: Duration
        /// The wait after every known server failed once, doubled each round up to ``maxReconnectWait``
        /// (with jitter). Default 50 ms.
        public var reconnectWait: Duration
        /// The longest wait between rounds. Default 2 s.
        public var maxReconnectWait: Duration
        /// The most bytes of publications held while no server is connected or the server reads slowly;
        /// past it a publication is dropped and counted. Default 8 MiB.
        public var maxPendingBytes: Int
        /// The most received messages waiting for the reader of ``NATSClient/messages``; past it a message
        /// is dropped and counted. Default 65 536.
        public var maxWaitingMessages: Int
        /// A PEM file of the certificate authorities a TLS server's certificate must chain to; nil: the
        /// system's. Used for `tls://` servers and for any server whose `INFO` requires TLS.
        public var tlsTrustRoots: String?

        /// A configuration with the defaults above.
        public init(
            servers: [NATSServerAddress], name: String? = nil, pingInterval: Duration = .seconds(5), maxPingsOutstanding: Int = 2,
            connectTimeout: Duration = .seconds(2), reconnectWait: Duration = .milliseconds(50), maxReconnectWait: Duration = .seconds(2),
            maxPendingBytes: Int = 8 * 1024 * 1024, maxWaitingMessages: Int = 65_536, tlsTrustRoots: String? = nil
        ) {
            self.tlsTrustRoots = tlsTrustRoots
            self.servers = servers
            self.name = name
            self.pingInterval = pingInterval
            self.maxPingsOutstanding = maxPingsOutstanding
            self.connectTimeout = connectTimeout
            self.reconnectWait = reconnectWait
            self.maxReconnectWait = maxReconnectWait
            self.maxPendingBytes = maxPendingBytes
            self.maxWaitingMessages = maxWaitingMessages
        }
    }

    /// The connection coming and going.
    public enum ConnectionEvent: Equatable, Sendable {
        /// Connected and subscribed again; `reconnected` after the first time.
        case connected(NATSServerAddress, reconnected: Bool)
        /// The connection was lost (with the reason when the client closed it).
        case disconnected(NATSServerAddress, NATSProtocolError?)
        /// A server could not be connected to, or refused the handshake; the next one is tried.
        case connectFailed(NATSServerAddress, reason: String)
    }

    /// What the client counted since it started.
    public struct Statistics: Equatable, Sendable {
        /// Publications dropped because ``Configuration/maxPendingBytes`` were already held.
        public var publicationsDropped = 0
        /// Received messages dropped because ``Configuration/maxWaitingMessages`` were already waiting.
        public var messagesDropped = 0
        /// Connections made after the first.
        public var reconnects = 0
        /// Bytes of publications waiting to be written now.
        public var pendingBytes = 0
    }

    /// What became of a publication.
    public enum Publication: Equatable, Sendable {
        /// Written, or held until a server takes it.
        case queued
        /// Dropped: the pending bytes are at their bound.
        case dropped
        /// Refused: not a subject the protocol allows, or a payload over the server's limit.
        case invalid
    }
}

extension Duration {
    var timeAmount: TimeAmount {
        .nanoseconds(Int64(components.seconds) * 1_000_000_000 + components.attoseconds / 1_000_000_000)
    }
}
