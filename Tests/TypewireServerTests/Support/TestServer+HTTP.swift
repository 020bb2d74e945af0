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
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        if let user { request.setValue("Bearer \(try await token(user))", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}

extension TestServer {
    /// Calls the server API (`/v1/server/…`) with a key and returns the status, the headers and the body.
    func serverRequest(
        _ method: String, _ path: String, key: String?, json: String? = nil
    ) async throws -> (status: Int, body: String, headers: [AnyHashable: Any]) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/server\(path)")!)
        request.httpMethod = method
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, String(decoding: data, as: UTF8.self), http?.allHeaderFields ?? [:])
    }
}
