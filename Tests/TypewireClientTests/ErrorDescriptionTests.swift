import Foundation
import Testing
import TypewireCore

@testable import TypewireClient

/// What an app shows for the SDK's errors: their message, not "The operation couldn't be completed".
@Suite("Errors an app can show")
struct ErrorDescriptionTests {
    @Test func aClientErrorDescribesItselfWithItsMessage() {
        let errors: [any Error] = [
            TypewireClientError.signedOut, TypewireClientError.messagesDisabled, TypewireClientError.closed("direct-alice-bob"),
            TypewireClientError(reason: .server(.tooLarge), message: "The message is over 4 000 characters."),
        ]
        for error in errors {
            let client = error as! TypewireClientError
            #expect(error.localizedDescription == client.message)
        }
    }
}
