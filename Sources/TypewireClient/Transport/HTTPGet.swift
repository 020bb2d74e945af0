import Foundation

#if canImport(Network)
    // URLSession, with the platform's HTTP stack.
#else
    import AsyncHTTPClient
    import NIOCore
#endif

/// One `GET` of the server's REST API, answered with its status and body: URLSession on Apple platforms,
/// AsyncHTTPClient elsewhere. Off Apple platforms URLSession is FoundationNetworking, built on the system's
/// libcurl: without it a binary with the SDK in it (`typewire` among them) links no libcurl, and runs on a
/// host that has none.
enum HTTPGet {
    /// How long a request may take.
    static let timeout = Duration.seconds(60)

    /// Sends the request.
    /// - Parameters:
    ///   - headers: Header fields, by name.
    ///   - maxBytes: The most bytes of body read; a longer one is an error.
    /// - Throws: The HTTP stack's error (no connection, a timeout, a body over `maxBytes`).
    static func fetch(_ url: URL, headers: [String: String], maxBytes: Int) async throws -> (status: Int, body: Data) {
        #if canImport(Network)
            var request = URLRequest(url: url, timeoutInterval: TimeInterval(timeout.components.seconds))
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let (data, response) = try await URLSession.shared.data(for: request)
            guard data.count <= maxBytes else { throw URLError(.dataLengthExceedsMaximum) }
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        #else
            var request = HTTPClientRequest(url: url.absoluteString)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(timeout.components.seconds))
            let body = try await response.body.collect(upTo: maxBytes)
            return (Int(response.status.code), Data(body.readableBytesView))
        #endif
    }
}
