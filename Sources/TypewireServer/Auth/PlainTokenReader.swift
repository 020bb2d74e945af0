import ExtrasBase64
import Foundation
import JWTKit
import TypewireCore

/// Reads a token without `JSONDecoder` when its header and claims are in the plain form, as the tokens an
/// app's backend signs are: flat objects, each key at most once, whose values are strings without escapes
/// (``PlainJSONCursor``), and in the claims also integers and booleans, with the claims the server requires
/// of the right types (`sub` a string, `exp` an integer, and if present `nbf` an integer, `iss` and `aud`
/// strings). jwt-kit's
/// parser read each token's JSON with `JSONDecoder`, about 4 % of the server's CPU while sockets connect
/// (docs/BENCHMARKS.md, "Tokens read without JSONDecoder"); no JSON library among the project's packages is
/// faster than Foundation's.
///
/// Anything else gives nil and goes to jwt-kit's parser (``UncheckedToken``), which decides and words every
/// error: this path changes no answer, it only reads the tokens it can faster. It splits and decodes the
/// parts as jwt-kit does (three parts, base64url without padding by swift-extras-base64, the header and
/// claims valid UTF-8).
enum PlainTokenReader {
    /// What a plain token holds: the header fields that choose how it is verified, and its claims with the
    /// signature and the bytes it covers.
    struct Read {
        var algorithm: String?
        var keyID: String?
        var claims: TokenClaims
        var signature: Data
        /// The token up to its second period (RFC 7515, 5.2).
        var signingInput: ArraySlice<UInt8>
    }

    /// The token's header and claims, if both are plain; nil for jwt-kit's parser to read.
    static func read(_ token: [UInt8]) -> Read? {
        let period = UInt8(ascii: ".")
        guard let first = token.firstIndex(of: period), let second = token[(first + 1)...].firstIndex(of: period),
            !token[(second + 1)...].contains(period),
            let header = base64URLDecoded(token[..<first]).flatMap(fields(of:)),
            let payload = base64URLDecoded(token[(first + 1)..<second]).flatMap(fields(of:)),
            let signature = base64URLDecoded(token[(second + 1)...]),
            let claims = claims(from: payload)
        else { return nil }
        var read = Read(claims: claims, signature: Data(signature), signingInput: token[..<second])
        for (name, value) in header {
            guard case .string(let text) = value else { return nil }  // a header's fields are strings
            if name == "alg" { read.algorithm = text }
            if name == "kid" { read.keyID = text }
        }
        return read
    }

    private static func base64URLDecoded(_ part: ArraySlice<UInt8>) -> [UInt8]? {
        try? Base64.decode(bytes: part.span, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    /// The fields of a flat JSON object in the plain form, if `json` is one and is valid UTF-8.
    private static func fields(of json: [UInt8]) -> [String: PlainJSONCursor.Value]? {
        guard var text = String(validating: json, as: UTF8.self) else { return nil }
        return text.withUTF8 { bytes -> [String: PlainJSONCursor.Value]? in
            var cursor = PlainJSONCursor(bytes: bytes)
            var fields: [String: PlainJSONCursor.Value] = [:]
            guard cursor.take(UInt8(ascii: "{")) else { return nil }
            if cursor.take(UInt8(ascii: "}")) { return cursor.atEnd ? fields : nil }
            repeat {
                guard let key = cursor.string(), fields[key] == nil, cursor.take(UInt8(ascii: ":")), let value = cursor.value() else {
                    return nil
                }
                fields[key] = value
            } while cursor.take(UInt8(ascii: ","))
            guard cursor.take(UInt8(ascii: "}")), cursor.atEnd else { return nil }
            return fields
        }
    }

    /// The claims as ``TokenClaims/init(from:)`` reads them, if the registered ones have the types it requires.
    private static func claims(from fields: [String: PlainJSONCursor.Value]) -> TokenClaims? {
        guard case .string(let subject) = fields["sub"], case .integer(let expiration) = fields["exp"] else { return nil }
        var claims = TokenClaims(
            subject: SubjectClaim(value: subject), expiration: ExpirationClaim(value: Date(timeIntervalSince1970: Double(expiration))))
        switch fields["nbf"] {
        case nil: break
        case .integer(let notBefore): claims.notBefore = NotBeforeClaim(value: Date(timeIntervalSince1970: Double(notBefore)))
        default: return nil
        }
        switch fields["iss"] {
        case nil: break
        case .string(let issuer): claims.issuer = IssuerClaim(value: issuer)
        default: return nil
        }
        switch fields["aud"] {
        case nil: break
        case .string(let audience): claims.audience = AudienceClaim(value: [audience])
        default: return nil
        }
        for (name, value) in fields where !TokenClaims.registered.contains(name) {
            switch value {
            case .string(let text): claims.strings[name] = text
            case .boolean(let flag): claims.flags[name] = flag
            case .integer: break  // neither a string nor a flag: not kept, as JSONDecoder's path keeps none
            }
        }
        return claims
    }
}
