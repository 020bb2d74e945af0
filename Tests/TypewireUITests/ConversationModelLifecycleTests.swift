import Foundation
import Testing
import TypewireCore
import TypewireTesting
import TypewireUI

@testable import TypewireClient

/// A screen's lifecycle calls in any order (SwiftUI starts each in a task of its own, so they overlap):
/// the model ends as the last of them asks, with no subscription more or less.
@Suite("ConversationModel lifecycle", .timeLimit(.minutes(1)))
@MainActor
struct ConversationModelLifecycleTests {
    enum Call: CaseIterable {
        case appear, disappear, enterBackground, enterForeground

        func perform(on model: ConversationModel) async {
            switch self {
            case .appear: await model.appear()
            case .disappear: await model.disappear()
            case .enterBackground: await model.enterBackground()
            case .enterForeground: await model.enterForeground()
            }
        }
    }

    /// The calls in the order they reached the model (appended in the same main-actor step as the call's
    /// start, before its first suspension).
    @MainActor final class Calls {
        var order: [Call] = []

        /// Whether the conversation should be open after them: on screen (more appears than disappears,
        /// counted in order, a disappear with none open ignored) and not in the background (the last of
        /// the two was not the background).
        var wantOpen: Bool {
            let appearances = order.reduce(0) { count, call in
                switch call {
                case .appear: count + 1
                case .disappear: max(0, count - 1)
                case .enterBackground, .enterForeground: count
                }
            }
            let app = order.last { $0 == .enterBackground || $0 == .enterForeground }
            return appearances > 0 && app != .enterBackground
        }
    }

    @Test func aThousandRandomInterleavingsEndWithTheSubscriptionsTheLastCallsImply() async throws {
        // A client that never connects: the handles and composers it keeps are what a screen opened.
        let client = TypewireClient(url: "ws://127.0.0.1:9/v1/socket") { "never asked" }
        var random = SplitMix64(seed: 30)
        var opened = 0
        for round in 0..<1_000 {
            let model = ConversationModel(client: client, conversationID: "conversation-\(round)")
            let calls = Calls()
            var tasks: [Task<Void, Never>] = []
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let call = Call.allCases.randomElement(using: &random)!
                tasks.append(
                    Task { @MainActor in
                        calls.order.append(call)
                        await call.perform(on: model)
                    })
                for _ in 0..<Int.random(in: 0...2, using: &random) { await Task.yield() }
            }
            for task in tasks { await task.value }
            let counts = await client.liveCounts
            let open = calls.wantOpen ? 1 : 0
            opened += open
            #expect(model.isOpen == calls.wantOpen, "round \(round): \(calls.order)")
            #expect(counts.conversations == open && counts.composers == open, "round \(round): \(calls.order) left \(counts)")
            for _ in calls.order { await model.disappear() }  // as many as it could have appeared: closed
        }
        #expect((100...900).contains(opened), "the rounds ended open \(opened) times of 1 000: the mix tests both ends")
        #expect(await client.liveCounts == LiveCounts())
    }

    @Test func aModelReleasedWhileOpenClosesItsSubscription() async throws {
        let client = TypewireClient(url: "ws://127.0.0.1:9/v1/socket") { "never asked" }
        var model: ConversationModel? = ConversationModel(client: client, conversationID: "direct-alice-bob")
        await model?.appear()
        #expect(await client.liveCounts.conversations == 1)
        model = nil
        try await eventually { await client.liveCounts == LiveCounts() }
    }
}
