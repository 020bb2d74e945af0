import TypewireClient
import TypewireUI

/// One client for the app, as the README builds it.
func makeClient(token: @escaping @Sendable () async throws -> String) -> TypewireClient {
    TypewireClient(url: "wss://typing.example.com/v1/socket", token: token)
}
