import Foundation
import TypewireTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TestServer {
    /// Calls the REST API as a user and returns the status and the body.
    func request(
        _ method: String, _ path: String, as user: String?, json: String? = nil
    ) async throws -> (status: Int, body: String) {
        let bearer = if let user { try await token(user) } else { String?.none }
        let answer = try await http(method, path, bearer: bearer, json: json)
        return (answer.status, answer.body)
    }

    /// The value of a counter or gauge in `/metrics` (0 if absent), as ``ServerProcess/metric(_:)`` reads a node's.
    func metric(_ name: String) async throws -> Double {
        let metrics = try await request("GET", "/metrics", as: nil).body
        let line = metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// Calls the REST API as a user and returns the status, the body and the headers.
    func requestWithHeaders(
        _ method: String, _ path: String, as user: String, json: String? = nil
    ) async throws -> (status: Int, body: String, headers: [AnyHashable: Any]) {
        try await http(method, path, bearer: try await token(user), json: json)
    }

    /// Calls the server API (`/v1/server/…`) with a key and returns the status, the headers and the body.
    func serverRequest(
        _ method: String, _ path: String, key: String?, json: String? = nil
    ) async throws -> (status: Int, body: String, headers: [AnyHashable: Any]) {
        try await http(method, "/v1/server\(path)", bearer: key, json: json)
    }

    private func http(
        _ method: String, _ path: String, bearer: String?, json: String?
    ) async throws -> (status: Int, body: String, headers: [AnyHashable: Any]) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, String(decoding: data, as: UTF8.self), http?.allHeaderFields ?? [:])
    }
}
