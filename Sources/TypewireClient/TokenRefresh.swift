import Foundation

/// When the client hands its live socket a fresh token (`refresh`), so that the server never closes the
/// socket for an expired one: a user whose tokens last an hour (Firebase's) stays connected across them,
/// with no offline blink for the others. Pure functions, tested on their own.
enum TokenRefresh {
    /// The expiry (`exp`) a token claims, read without checking its signature (the server checks it); nil
    /// for a token that is not a JWT or names no expiry.
    static func expiry(of token: String) -> Date? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let exp = (claims["exp"] as? NSNumber)?.doubleValue
        else { return nil }
        return Date(timeIntervalSince1970: exp)
    }

    /// When to refresh a token that expires at `expiry`, seen at `now`: a quarter of its remaining life
    /// ahead of the expiry (at least 1 s, at most 5 minutes), and up to a tenth of that life earlier still
    /// at random (at most 30 s), so that clients whose tokens were issued together do not refresh together.
    /// - Returns: nil for a token with 2 s or less to live: the socket reconnects with a new one instead.
    static func time(expiry: Date, now: Date, using random: inout some RandomNumberGenerator) -> Date? {
        let remaining = expiry.timeIntervalSince(now)
        guard remaining > 2 else { return nil }
        let lead = min(300, max(1, remaining / 4))
        let jitter = Double.random(in: 0...min(30, remaining / 10), using: &random)
        return expiry.addingTimeInterval(-(lead + jitter))
    }

    /// How long to wait, on the device's clock, before offering a fresh token for one that expires at
    /// `expiry`, `serverNow` being the server's time now (the device's clock corrected by the `welcome`'s
    /// `serverTime`: a device 10 minutes slow would otherwise refresh 10 minutes after the expiry). `retry`:
    /// offered again after a provider that failed or gave the same token, a quarter of what is left from
    /// now and a second before the expiry at the latest. nil: too late, the socket reconnects instead.
    static func wait(expiry: Date, serverNow: Date, retry: Bool, using random: inout some RandomNumberGenerator) -> Duration? {
        guard let scheduled = time(expiry: expiry, now: serverNow, using: &random) else { return nil }
        let left = expiry.timeIntervalSince(serverNow)
        let again = min(expiry.addingTimeInterval(-1), serverNow.addingTimeInterval(max(1, left / 4)))
        let due = retry ? again : scheduled
        // At most a year: a token's `exp` is the server's to bound, and `Int64(_:)` of a Double past its range traps.
        return .milliseconds(Int64(min(max(0, due.timeIntervalSince(serverNow)), 365 * 86_400) * 1_000))
    }
}
