import Testing

@testable import TypewireBench

/// Which sockets a run counts, and the frame rate a step of deliveries asks for.
@Suite("The bench's socket plan")
struct SocketPlanTests {
    func options(conversations: Int, members: Int, typers: Int) -> BenchOptions {
        BenchOptions(
            connections: conversations * members, conversations: conversations, members: members, rate: 100, messageEvery: 10,
            typers: typers, warmup: 1, duration: 1, connectConcurrency: 10, sourceAddresses: 1, threads: 1, scenario: .tail, idle: false)
    }

    @Test func everyMemberButTheSenderCountsTheUpdatesOfItsConversationOnOneNode() {
        let options = options(conversations: 100, members: 11, typers: 1)
        #expect(SocketPlan(options: options).recipients.allSatisfy { $0 == 10 }, "the sender is not sent its own change")
        #expect(options.rate(forDeliveries: 10_000) == 1_000)
    }

    @Test func withThePublishersOnAnotherNodeOnlyTheSubscribersCount() {
        var options = options(conversations: 1_000, members: 2, typers: 1)
        options.publishersApart = true
        let plan = SocketPlan(options: options)
        #expect(plan.recipients.allSatisfy { $0 == 1 }, "only the subscriber on the other node counts")
        #expect(plan.sockets.filter(\.isTyper).count == 1_000)
        #expect(options.rate(forDeliveries: 5_000) == 5_000, "one update, one delivery")
    }
}
