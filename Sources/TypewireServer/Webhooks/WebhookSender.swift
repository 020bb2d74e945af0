import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// POSTs one delivery to its endpoint (AsyncHTTPClient, its connections pooled per endpoint), signed, and
/// says whether the endpoint took it: a 2xx answer within the timeout. Redirects are not followed (a signed
/// event goes only where it was configured to).
final class WebhookSender: Sendable {
    private let client: HTTPClient
    private let secret: String
    private let timeout: Duration

    /// What one attempt came to.
    enum Outcome: Sendable, Equatable {
        /// The endpoint answered 2xx.
        case delivered
        /// It answered something else (the status), or nothing in time (nil).
        case failed(status: Int?)
    }

    init(secret: String, timeout: Duration, concurrency: Int, eventLoopGroup: any EventLoopGroup) {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .milliseconds(timeout.wholeMilliseconds), read: .milliseconds(timeout.wholeMilliseconds)))
        configuration.connectionPool.idleTimeout = .seconds(30)
        // Every attempt under way may have a connection of its own (a slow receiver holds each one until it answers).
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = concurrency
        // A refused connection fails the attempt at once: the retry policy decides when to try again, and an
        // attempt to a receiver that is down does not hold its slot until the timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        self.secret = secret
        self.timeout = timeout
    }

    /// Ends the client's connections.
    func shutdown() async {
        try? await client.shutdown()
    }

    /// The request of one attempt: the event's JSON, signed at `now` (milliseconds since 1970).
    func request(for delivery: WebhookDelivery, now: Int64) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: delivery.endpoint)
        request.method = .POST
        let signature = WebhookSignature(body: Array(delivery.body.utf8), timestamp: now / 1_000, secret: secret)
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Typewire-Webhooks/1")
        request.headers.add(name: "Typewire-Event-Id", value: delivery.eventID)
        request.headers.add(name: "Typewire-Event-Type", value: delivery.type.rawValue)
        request.headers.add(name: "Typewire-Delivery-Attempt", value: String(delivery.attempts + 1))
        request.headers.add(name: WebhookSignature.headerName, value: signature.headerValue)
        request.body = .bytes(ByteBuffer(string: delivery.body))
        return request
    }

    /// Makes one attempt.
    func send(_ delivery: WebhookDelivery, now: Int64) async -> Outcome {
        do {
            let response = try await client.execute(
                request(for: delivery, now: now), timeout: .milliseconds(timeout.wholeMilliseconds))
            // The answer's body is read (up to 64 KiB) so that the connection can carry the next delivery.
            _ = try? await response.body.collect(upTo: 64 * 1024)
            return (200..<300).contains(Int(response.status.code)) ? .delivered : .failed(status: Int(response.status.code))
        } catch {
            return .failed(status: nil)
        }
    }
}
