import Foundation
import JWTKit
import Testing
import TypewireCore

@testable import TypewireServer

/// ``PlainTokenReader`` reads the plain tokens as jwt-kit's parser does, and leaves every other to it.
@Suite("PlainTokenReader: plain tokens read without JSONDecoder, the rest left to jwt-kit")
struct PlainTokenReaderTests {
    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A token of this header and these claims, as written, with a signature of arbitrary bytes (the reader
    /// does not check it).
    static func token(header: String = #"{"alg":"HS256","typ":"JWT"}"#, claims: String, signature: [UInt8] = [1, 2, 3, 250]) -> String {
        [base64URL(header.utf8), base64URL(claims.utf8), base64URL(signature)].joined(separator: ".")
    }

    /// What jwt-kit's parser reads from the token, in the reader's terms.
    static func readByJWTKit(_ token: String) throws -> PlainTokenReader.Read {
        let parsed = try DefaultJWTParser().parse(Array(token.utf8), as: TokenClaims.self)
        let signingInput = Array(token.split(separator: ".")[0...1].joined(separator: ".").utf8)
        return .init(
            algorithm: parsed.header.alg, keyID: parsed.header.kid, claims: parsed.payload, signature: parsed.signature,
            signingInput: signingInput[...])
    }

    static func expectSame(_ token: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let plain = try #require(PlainTokenReader.read(Array(token.utf8)), "a plain token went to jwt-kit", sourceLocation: sourceLocation)
        let expected = try readByJWTKit(token)
        #expect(plain.algorithm == expected.algorithm, sourceLocation: sourceLocation)
        #expect(plain.keyID == expected.keyID, sourceLocation: sourceLocation)
        #expect(plain.signature == expected.signature, sourceLocation: sourceLocation)
        let (got, want) = (plain.claims, expected.claims)
        #expect(got.subject == want.subject, sourceLocation: sourceLocation)
        #expect(got.expiration == want.expiration, sourceLocation: sourceLocation)
        #expect(got.notBefore == want.notBefore, sourceLocation: sourceLocation)
        #expect(got.issuer == want.issuer, sourceLocation: sourceLocation)
        #expect(got.audience == want.audience, sourceLocation: sourceLocation)
        #expect(got.strings == want.strings, sourceLocation: sourceLocation)
        #expect(got.flags == want.flags, sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        #"{"sub":"ada","exp":1764307260}"#,
        #"{"exp":1764307260,"sub":"ada","name":"Ada Lovelace","role":"bot","bot":true,"admin":false,"iat":1764300000}"#,
        #" { "sub" : "école 💬" , "exp" : 4102444800 , "nbf" : -5 , "iss" : "https:example" , "aud" : "typewire" } "#,
        "{\n\t\"sub\":\"ada\",\r\n\"exp\":0,\"empty\":\"\"}\n",
        #"{"sub":"","exp":999999999999999}"#,
    ])
    func readsAPlainTokenAsJWTKitDoes(claims: String) throws {
        try Self.expectSame(Self.token(claims: claims))
        try Self.expectSame(Self.token(header: #"{"kid":"key-1","alg":"RS256"}"#, claims: claims, signature: []))
    }

    @Test func readsRandomPlainTokensAsJWTKitDoes() throws {
        var random = SplitMix64(seed: 31)
        let texts = ["ada", "Ada Lovelace", "école", "💬 chat", "a  b c", "", "x-y_z.1", "日本語"]
        let spaces = ["", " ", "\n", "\t ", "\r\n"]
        for _ in 0..<500 {
            var fields = [
                #""sub":"\#(texts.randomElement(using: &random)!)""#,
                #""exp":\#(Int64.random(in: -1_000...9_999_999_999, using: &random))"#,
            ]
            if Bool.random(using: &random) { fields.append(#""nbf":\#(Int64.random(in: 0...2_000_000_000, using: &random))"#) }
            if Bool.random(using: &random) { fields.append(#""iss":"\#(texts.randomElement(using: &random)!)""#) }
            if Bool.random(using: &random) { fields.append(#""aud":"\#(texts.randomElement(using: &random)!)""#) }
            for index in 0..<Int.random(in: 0...4, using: &random) {
                let value: String
                switch Int.random(in: 0..<3, using: &random) {
                case 0: value = #""\#(texts.randomElement(using: &random)!)""#
                case 1: value = Bool.random(using: &random) ? "true" : "false"
                default: value = String(Int64.random(in: -99_999...99_999, using: &random))
                }
                fields.append(#""claim\#(index)":\#(value)"#)
            }
            fields.shuffle(using: &random)
            let space = { (random: inout SplitMix64) in spaces.randomElement(using: &random)! }
            let claims =
                space(&random) + "{"
                + fields.map { $0.replacingOccurrences(of: ":", with: space(&random) + ":" + space(&random)) }
                .joined(separator: space(&random) + ",") + "}" + space(&random)
            let signature = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            try Self.expectSame(Self.token(claims: claims, signature: signature))
        }
    }

    /// Tokens jwt-kit reads (or refuses) that are not plain: none is read here, so none is answered differently.
    @Test(arguments: [
        Self.token(claims: #"{"sub":"ada","exp":1764307260.5}"#),  // a fraction
        Self.token(claims: #"{"sub":"ada","exp":1.7e9}"#),  // an exponent
        Self.token(claims: #"{"sub":"ada","exp":1764307260123456}"#),  // 16 digits
        Self.token(claims: #"{"sub":"ada","exp":01764307260}"#),  // a leading zero: not JSON
        Self.token(claims: #"{"sub":"ada","exp":"1764307260"}"#),  // a string
        Self.token(claims: #"{"exp":1764307260}"#),  // no subject
        Self.token(claims: #"{"sub":"ada"}"#),  // no expiry
        Self.token(claims: #"{"sub":7,"exp":1764307260}"#),
        Self.token(claims: #"{"sub":"ada","exp":1764307260,"nbf":"soon"}"#),
        Self.token(claims: #"{"sub":"ada","exp":1764307260,"iss":true}"#),
        Self.token(claims: #"{"sub":"ada","exp":1764307260,"aud":["a","b"]}"#),  // an array
        Self.token(claims: #"{"sub":"ada","exp":1764307260,"name":null}"#),
        Self.token(claims: #"{"sub":"ada","exp":1764307260,"profile":{"name":"Ada"}}"#),
        Self.token(claims: #"{"sub":"ada","exp":1764307260,"iss":"https:\/\/example"}"#),  // an escape, as JSONEncoder writes
        Self.token(claims: #"{"sub":"ada","sub":"mallory","exp":1764307260}"#),  // a repeated key
        Self.token(claims: #"{"sub":"ada","exp":1764307260,"bot":trueish}"#),
        Self.token(claims: #"{"sub":"ada","exp":1764307260,}"#),
        Self.token(claims: #"{"sub":"ada","exp":1764307260} {}"#),
        Self.token(claims: #"["ada"]"#),
        Self.token(header: #"{"alg":"HS256","x5c":["a"]}"#, claims: #"{"sub":"ada","exp":1764307260}"#),
        Self.token(header: #"{"alg":"HS256","b64":false}"#, claims: #"{"sub":"ada","exp":1764307260}"#),
        Self.token(claims: #"{"sub":"ada","exp":1764307260}"#) + ".x",  // four parts
        [base64URL(#"{"alg":"HS256"}"#.utf8), base64URL([0x7B, 0x22, 0x73, 0xFF, 0x22, 0x7D]), "c2ln"].joined(separator: "."),  // not UTF-8
        "not a token",
    ])
    func leavesAnyOtherTokenToJWTKit(token: String) {
        #expect(PlainTokenReader.read(Array(token.utf8)) == nil)
    }

    @Test func theServersOwnTokensArePlain() async throws {
        let authority = try await TokenAuthority(secret: TokenAuthorityTests.secret)
        for identity in [
            Identity(userID: "ada", name: "Ada"), Identity(userID: "clawd", name: "Clawd", isBot: true), Identity(userID: "bo", name: nil),
        ] {
            let token = try await authority.sign(identity, lifetime: .seconds(3_600))
            try Self.expectSame(token)
            #expect(await authority.verify(token) == identity)
        }
    }

    /// The parts are decoded as jwt-kit decodes them (swift-extras-base64, the same options): what one takes,
    /// the other does.
    @Test func theSignatureIsDecodedAsJWTKitDecodesIt() throws {
        let signed = Self.token(claims: #"{"sub":"ada","exp":1764307260}"#).split(separator: ".")[0...1].joined(separator: ".")
        var taken = 0
        let signatures = ["AQID-g=", "AQID-g==", "AQID+g", "AQID/g", "AQI", "A", "AQID-g.", ""]
        for signature in signatures {
            let variant = signed + "." + signature
            if (try? Self.readByJWTKit(variant)) != nil {
                try Self.expectSame(variant)
                taken += 1
            } else {
                #expect(PlainTokenReader.read(Array(variant.utf8)) == nil, "\(signature)")
            }
        }
        #expect(taken > 0 && taken < signatures.count, "both kinds were tried")
    }

    @Test func anUncheckedTokenIsTheSameWhicheverReadsIt() throws {
        let plain = Self.token(claims: #"{"sub":"ada","exp":4102444800,"iss":"https:example","name":"Ada"}"#)
        // The same claims with an escape in the issuer: jwt-kit's parser reads these.
        let escaped = Self.token(claims: #"{"sub":"ada","exp":4102444800,"iss":"https\u003Aexample","name":"Ada"}"#)
        #expect(PlainTokenReader.read(Array(escaped.utf8)) == nil)
        let (fast, slow) = (try #require(UncheckedToken(of: plain)), try #require(UncheckedToken(of: escaped)))
        #expect(fast.algorithm == slow.algorithm && fast.keyID == slow.keyID)
        #expect(fast.subject == "ada" && fast.subject == slow.subject)
        #expect(fast.issuer == "https:example" && fast.issuer == slow.issuer)
        #expect(fast.expiresAt == 4_102_444_800 && fast.expiresAt == slow.expiresAt)
        let (fastSigned, slowSigned) = (try #require(fast.signed), try #require(slow.signed))
        #expect(fastSigned.claims.strings == ["name": "Ada"] && fastSigned.claims.strings == slowSigned.claims.strings)
        #expect(fastSigned.signature == slowSigned.signature)
        #expect(fastSigned.signingInput.elementsEqual(plain.split(separator: ".")[0...1].joined(separator: ".").utf8))
    }
}
