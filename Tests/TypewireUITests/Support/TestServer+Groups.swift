import Foundation
import Testing
import TypewireTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TestServer {
    /// A group Alice creates through REST with these other members; returns its id.
    func makeGroup(title: String, members: [String]) async throws -> String {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/conversations")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(try await token("alice"))", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["kind": "group", "title": title, "members": members])
        let (data, _) = try await URLSession.shared.data(for: request)
        let created = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(created["id"] as? String)
    }
}
