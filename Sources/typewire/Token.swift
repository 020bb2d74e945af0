import ArgumentParser
import Foundation
import TypewireServer

/// `typewire token`: mints a token for a user.
struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mint a token (HS256 JWT) for a user.")

    @Option(help: "The user id (the token's sub).")
    var user: String

    @Option(help: "The display name.")
    var name: String?

    @Flag(help: "Mark the user as a bot (role=bot).")
    var bot = false

    @Option(help: "Lifetime in seconds, 1 to 31536000 (a year: servers refuse tokens that live longer).")
    var lifetime: Int64 = 86_400

    @Option(help: "The HS256 secret (TYPEWIRE_JWT_SECRET).")
    var jwtSecret: String?

    func run() async throws {
        guard let secret = jwtSecret ?? ProcessInfo.processInfo.environment["TYPEWIRE_JWT_SECRET"], !secret.isEmpty else {
            throw CommandError("No JWT secret: pass --jwt-secret or set TYPEWIRE_JWT_SECRET.")
        }
        guard !user.isEmpty else { throw ValidationError("--user cannot be empty.") }
        guard (1...TokenRules.defaultMaxLifetime.components.seconds).contains(lifetime) else {
            throw ValidationError("--lifetime must be 1 to \(TokenRules.defaultMaxLifetime.components.seconds) seconds (a year).")
        }
        let authority = try await TokenAuthority(secret: secret)
        print(try await authority.sign(Identity(userID: user, name: name, isBot: bot), lifetime: .seconds(lifetime)))
    }
}
