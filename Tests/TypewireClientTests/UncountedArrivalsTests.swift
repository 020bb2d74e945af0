import Testing
import TypewireCore

@testable import TypewireClient

@Suite("UncountedArrivals: the messages a subscription's snapshot did not count")
struct UncountedArrivalsTests {
    static func message(_ id: String) -> ChatMessage {
        ChatMessage(conversation: "c", id: id, sender: "bob", senderName: nil, text: id, sentAt: 0)
    }

    @Test func withNoSubscribeWaitingNothingIsNoted() {
        var arrivals = UncountedArrivals()
        arrivals.arrived(Self.message("1"))
        #expect(arrivals.isEmpty)
        #expect(arrivals.answered(holding: []).isEmpty)
    }

    @Test func anAnswerGivesBackWhatArrivedSinceItsSubscribeAndIsNotInItsSnapshot() {
        var arrivals = UncountedArrivals()
        arrivals.subscribeSent()
        arrivals.arrived(Self.message("1"))
        arrivals.arrived(Self.message("2"))
        #expect(arrivals.answered(holding: ["1"]).map(\.id) == ["2"])
        #expect(arrivals.isEmpty)
        arrivals.arrived(Self.message("3"))  // after the answer: counted as it came, nothing to give back
        arrivals.subscribeSent()
        #expect(arrivals.answered(holding: []).isEmpty)
    }

    @Test func answersComeInTheOrderOfTheSubscribes() {
        var arrivals = UncountedArrivals()
        arrivals.subscribeSent()
        arrivals.arrived(Self.message("1"))
        arrivals.subscribeSent()
        arrivals.arrived(Self.message("2"))
        #expect(arrivals.answered(holding: []).map(\.id) == ["1", "2"], "the first answer was read before both")
        #expect(arrivals.answered(holding: ["1"]).map(\.id) == ["2"], "the second went out after 1 arrived")
        #expect(arrivals.isEmpty)
    }

    @Test func atMostTheCapacityIsKept() {
        var arrivals = UncountedArrivals()
        arrivals.subscribeSent()
        for number in 1...(UncountedArrivals.capacity + 50) { arrivals.arrived(Self.message("\(number)")) }
        let missed = arrivals.answered(holding: [])
        #expect(missed.count == UncountedArrivals.capacity && missed.first?.id == "51")
    }
}
