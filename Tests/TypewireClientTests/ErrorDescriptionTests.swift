import Foundation
import Testing
import TypewireCore

@testable import TypewireClient

/// What an app shows for the SDK's errors: a sentence for a person in the app's language, not "The
/// operation couldn't be completed" nor the server's explanation for developers.
@Suite("Errors an app can show")
struct ErrorDescriptionTests {
    @Test func aClientErrorTellsAPersonWhatHappenedInTheAppsLanguage() {
        let cases: [(TypewireClientError, ErrorText, String)] = [
            (.signedOut, .signedOut, "You're signed out."),
            (.messagesDisabled, .notKept, "Messages can't be sent here."),
            (.closed("direct-alice-bob"), .closed, "The conversation was closed before the message was sent."),
            (.init(reason: .server(.tooLarge), message: "The message is over 4 000 characters."), .tooLong, "This message is too long."),
            (
                .init(reason: .server(.rateLimited), message: "Over 5 a second."), .tooFast,
                "You're sending too fast. Try again in a moment."
            ),
            (.init(reason: .server(.forbidden), message: "A block."), .notAllowed, "You can't send messages in this conversation."),
            (
                .init(reason: .server(.unknownConversation), message: "No member."), .notAllowed,
                "You can't send messages in this conversation."
            ),
            (.init(reason: .tokenProvider, message: "The provider threw."), .signIn, "Couldn't sign in. Try again."),
            (
                .init(reason: .server(.unavailable), message: "The store failed."), .unavailable,
                "The service is unavailable. Try again later."
            ),
            (.init(reason: .server(.turnEnded), message: "Reply r1 is over."), .replyEnded, "This reply has already ended."),
            (.init(reason: .server(.invalidField), message: "A bad id."), .failed, "Something went wrong. Try again."),
        ]
        for (error, kind, english) in cases {
            #expect(ErrorText(error) == kind, "\(error)")
            #expect(kind.text(in: "en") == english)
            #expect((error as any Error).localizedDescription == kind.text, "in the app's language")
            #expect(!(error as any Error).localizedDescription.contains(error.message), "the developer's explanation stays in message")
        }
    }

    @Test func everySentenceIsInEveryBuiltInLanguage() {
        for kind in ErrorText.allCases {
            let english = kind.text(in: "en")
            for locale in TypingLocale.all where locale.identifier != "en" {
                #expect(kind.text(in: locale.identifier) != english, "\(kind) in \(locale)")
            }
            #expect(kind.text(in: "nl") == english, "a language not built in: English")
        }
        #expect(ErrorText.tooLong.text(in: "de-AT") == "Diese Nachricht ist zu lang.", "a region: its language")
        #expect(ErrorText.tooLong.text(in: "ja_JP") == "メッセージが長すぎます。")
    }
}
