import Foundation
import Testing

@testable import TypewireServer

@Suite struct WebhookSignatureTests {
    static let secret = "whsec-test-0123456789abcdef0123456789"
    static let body = #"{"id":"evt_1"}"#

    @Test func theSignatureIsHMACSHA256OverTimestampDotBodyInHex() {
        // The vector was computed apart, with Python's hmac module:
        // hmac.new(secret, b'1764201234.{"id":"evt_1"}', hashlib.sha256).hexdigest()
        let signature = WebhookSignature(body: Array(Self.body.utf8), timestamp: 1_764_201_234, secret: Self.secret)
        #expect(signature.headerValue == "t=1764201234,v1=678fa975281d35dde6fad64d0f50302d21b70bc97b43cbc61800130527b3f613")
    }

    @Test func aReceiverAcceptsWhatWasSignedWithinTheWindowAndNothingElse() {
        let header = WebhookSignature(body: Array(Self.body.utf8), timestamp: 1_000_000, secret: Self.secret).headerValue
        let body = Array(Self.body.utf8)
        #expect(WebhookSignature.isValid(headerValue: header, body: body, secret: Self.secret, now: 1_000_000))
        #expect(WebhookSignature.isValid(headerValue: header, body: body, secret: Self.secret, now: 1_000_300), "at the window's end")
        #expect(
            !WebhookSignature.isValid(headerValue: header, body: body, secret: Self.secret, now: 1_000_301), "a replay after the window")
        #expect(!WebhookSignature.isValid(headerValue: header, body: body, secret: Self.secret, now: 999_699), "a clock far behind")
        #expect(!WebhookSignature.isValid(headerValue: header, body: Array(#"{"id":"evt_2"}"#.utf8), secret: Self.secret, now: 1_000_000))
        #expect(!WebhookSignature.isValid(headerValue: header, body: body, secret: Self.secret + "x", now: 1_000_000))
        let shifted = header.replacingOccurrences(of: "t=1000000", with: "t=1000001")
        #expect(!WebhookSignature.isValid(headerValue: shifted, body: body, secret: Self.secret, now: 1_000_000), "the time is signed too")
    }

    @Test func headersThatAreNotASignatureAreRefused() {
        let body = Array(Self.body.utf8)
        for header in ["", "t=1", "v1=00", "t=x,v1=00", "t=1000000,v1=zz", "t=1000000,v1=abc"] {
            #expect(!WebhookSignature.isValid(headerValue: header, body: body, secret: Self.secret, now: 1_000_000), "\(header)")
        }
        #expect(WebhookSignature(headerValue: "t=5, v0=aa,v1=bb")?.signature == "bb", "other schemes' fields are skipped")
    }

    @Test func timestampsAtIntegerExtremesAreRefusedWithoutTrapping() {
        let body = Array(Self.body.utf8)
        for (timestamp, now) in [(Int64.min, Int64(1_000_000)), (.max, -1), (.min, .max), (.max, .min), (.min + 1, 0), (.max, .max - 301)] {
            let header = WebhookSignature(body: body, timestamp: timestamp, secret: Self.secret).headerValue
            #expect(!WebhookSignature.isValid(headerValue: header, body: body, secret: Self.secret, now: now), "t=\(timestamp), now \(now)")
        }
        let header = WebhookSignature(body: body, timestamp: .max, secret: Self.secret).headerValue
        #expect(WebhookSignature.isValid(headerValue: header, body: body, secret: Self.secret, now: .max - 300), "in range at the top")
    }
}
