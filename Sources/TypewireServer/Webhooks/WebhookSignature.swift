import Crypto
import Foundation

/// The signature each webhook delivery carries, Stripe's scheme: the header
///
/// ```
/// Typewire-Signature: t=1764201234,v1=5257a869…
/// ```
///
/// holds the time of the attempt (seconds since 1970) and HMAC-SHA256, keyed by `--webhook-secret`, over
/// `TIMESTAMP.BODY`, in lowercase hex. A receiver recomputes it over the raw body, compares in constant time
/// and refuses a timestamp older than its replay window (``defaultTolerance``): a delivery recorded on the
/// way cannot be replayed later, and a body changed on the way does not verify.
public struct WebhookSignature: Sendable, Hashable {
    /// The header that carries the signature.
    public static let headerName = "Typewire-Signature"
    /// How old a signed delivery a receiver should accept, the replay window docs/PROTOCOL.md documents.
    public static let defaultTolerance: Duration = .seconds(300)

    /// The time the delivery was signed at (seconds since 1970).
    public var timestamp: Int64
    /// The signature, lowercase hex.
    public var signature: String

    /// Signs a body at a time.
    public init(body: some DataProtocol, timestamp: Int64, secret: String) {
        self.timestamp = timestamp
        signature = Self.mac(body: body, timestamp: timestamp, secret: secret)
    }

    private init(timestamp: Int64, signature: String) {
        self.timestamp = timestamp
        self.signature = signature
    }

    /// The header's value: `t=TIMESTAMP,v1=SIGNATURE`.
    public var headerValue: String { "t=\(timestamp),v1=\(signature)" }

    /// Reads a header's value; nil if it is not `t=…,v1=…` (other schemes' fields are skipped).
    public init?(headerValue: String) {
        var timestamp: Int64?
        var signature: String?
        for field in headerValue.split(separator: ",") {
            let parts = field.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            switch parts[0].trimmingCharacters(in: .whitespaces) {
            case "t": timestamp = Int64(parts[1])
            case "v1": signature = String(parts[1])
            default: continue
            }
        }
        guard let timestamp, let signature else { return nil }
        self.init(timestamp: timestamp, signature: signature)
    }

    /// Whether `headerValue` signs `body` with `secret` and is no older (nor further ahead) than
    /// `tolerance` at `now` (seconds since 1970): what a receiver checks before trusting a delivery.
    public static func isValid(
        headerValue: String, body: some DataProtocol, secret: String, now: Int64, tolerance: Duration = defaultTolerance
    ) -> Bool {
        // The difference of two Int64s can overflow, and abs(Int64.min) traps: a header's `t` is anyone's.
        guard let given = WebhookSignature(headerValue: headerValue),
            case (let age, false) = now.subtractingReportingOverflow(given.timestamp), age != .min,
            abs(age) <= tolerance.components.seconds, let code = Hex.decode(given.signature)
        else { return false }
        var message = Data("\(given.timestamp).".utf8)
        message.append(contentsOf: body)
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: SymmetricKey(data: Data(secret.utf8)))
    }

    private static func mac(body: some DataProtocol, timestamp: Int64, secret: String) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Data(secret.utf8)))
        hmac.update(data: Data("\(timestamp).".utf8))
        hmac.update(data: body)
        return Hex.encode(hmac.finalize())
    }
}
