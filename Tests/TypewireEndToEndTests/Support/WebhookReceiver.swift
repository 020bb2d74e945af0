import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import Testing
import TypewireServer
import TypewireTesting

/// An app's backend for the webhook tests: a real HTTP server on loopback that records every delivery and
/// answers with the status its script gives (200 unless told otherwise).
final class WebhookReceiver: Sendable {
    /// One request as the receiver got it.
    struct Delivery: Sendable {
        var headers: [String: String]
        var body: String
        var status: Int

        /// The event document.
        var document: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:]
        }
        var type: String? { document["type"] as? String }
        var id: String? { document["id"] as? String }
        var data: [String: Any] { document["data"] as? [String: Any] ?? [:] }
    }

    private let state = NIOLockedValueBox<(deliveries: [Delivery], answer: @Sendable (Int, Delivery) -> Int)>(([], { _, _ in 200 }))

    /// Answers the n-th request (0-based) with the status `answer` gives.
    func answer(with answer: @escaping @Sendable (Int) -> Int) {
        state.withLockedValue { $0.answer = { index, _ in answer(index) } }
    }

    /// Answers each request with the status `answer` gives for its content (its `status` is not yet set).
    func answerByContent(with answer: @escaping @Sendable (Delivery) -> Int) {
        state.withLockedValue { $0.answer = { _, delivery in answer(delivery) } }
    }

    /// Answers every request with a redirect (307) to `url`.
    func redirect(to url: String) {
        location.withLockedValue { $0 = url }
        answer { _ in 307 }
    }

    private let location = NIOLockedValueBox<String?>(nil)

    /// Every request so far.
    var deliveries: [Delivery] { state.withLockedValue { $0.deliveries } }

    /// The requests the receiver took (2xx), each event once (by id).
    var takenEvents: [Delivery] {
        var seen = Set<String>()
        return deliveries.filter { $0.status / 100 == 2 && seen.insert($0.id ?? "").inserted }
    }

    /// Waits until a taken event matches.
    func event(
        _ type: String, within timeout: Duration = livenessBound, sourceLocation: SourceLocation = #_sourceLocation,
        where matches: (Delivery) -> Bool = { _ in true }
    ) async throws -> Delivery {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = takenEvents.first(where: { $0.type == type && matches($0) }) { return found }
            try await Task.sleep(for: .milliseconds(20))
        }
        let seen = deliveries.map { "\($0.status) \($0.type ?? "?")" }
        Issue.record("no \(type) event within \(timeout); received: \(seen)", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// Serves at `http://127.0.0.1:PORT/hook` for the body's duration.
    func serve(_ body: (_ url: String) async throws -> Void) async throws {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName.lowercased()] = field.value }
            let status = self.state.withLockedValue { state -> Int in
                var delivery = Delivery(headers: headers, body: String(buffer: bytes), status: 0)
                delivery.status = state.answer(state.deliveries.count, delivery)
                state.deliveries.append(delivery)
                return delivery.status
            }
            var response = Response(status: .init(code: status))
            if let location = self.location.withLockedValue({ $0 }) { response.headers[.location] = location }
            return response
        }
        try await serveOnLoopback(router, label: "typewire.test.webhooks") { port in try await body("http://127.0.0.1:\(port)/hook") }
    }
}
