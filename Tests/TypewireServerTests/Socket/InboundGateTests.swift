import Testing
import TypewireCore

@testable import TypewireServer

@Suite("InboundGate: one socket's budgets")
struct InboundGateTests {
    static let configuration = budgets(abuseThreshold: 5, frames: RateBudget(rate: 1, burst: 3)) {
        $0.activity = RateBudget(rate: 1, burst: 2)
        $0.messages = RateBudget(rate: 1, burst: 1)
        $0.subscribes = RateBudget(rate: 1, burst: 1)
    }

    /// The default budgets with these changes.
    static func budgets(
        abuseThreshold: Int, frames: RateBudget, _ change: (inout ServerConfiguration.Budgets) -> Void = { _ in }
    ) -> ServerConfiguration.Budgets {
        var budgets = ServerConfiguration.Budgets()
        budgets.abuseThreshold = abuseThreshold
        budgets.frames = frames
        change(&budgets)
        return budgets
    }
    static let stop = ClientFrame.activity(.init(conversation: "c", activity: .none))
    static let typing = ClientFrame.activity(.init(conversation: "c", activity: .typing))

    @Test func framesWithNoBudgetOfTheirOwnPassTheFrameBudgetThenAreDroppedThenClose() {
        var gate = InboundGate(Self.configuration)
        let frames: [ClientFrame] = [Self.stop, .unsubscribe(.init(conversation: "c")), .hello(.init(token: "t"))]
        let decisions = (0..<9).map { gate.check(frames[$0 % 3], now: 0) }
        #expect(
            decisions == [
                .pass, .pass, .pass,
                .drop(notify: true), .drop(notify: false), .drop(notify: false), .drop(notify: false),
                .close(reason: "too many frames"), .close(reason: "too many frames"),
            ])
    }

    @Test func pingsPongsAndFragmentsSpendTheFrameBudgetAndAFloodOfThemCloses() {
        var gate = InboundGate(Self.configuration)
        let decisions = (0..<9).map { _ in gate.checkControl(now: 0) }
        #expect(
            decisions == [
                .pass, .pass, .pass,
                .drop(notify: false), .drop(notify: false), .drop(notify: false), .drop(notify: false),
                .close(reason: "too many frames"), .close(reason: "too many frames"),
            ])
        var shared = InboundGate(Self.configuration)
        #expect(shared.checkControl(now: 0) == .pass)
        #expect(shared.check(Self.stop, now: 0) == .pass)
        #expect(shared.checkControl(now: 0) == .pass)
        #expect(shared.check(Self.stop, now: 0) == .drop(notify: true), "one budget for control frames and data frames")
    }

    @Test func theClientIsToldOfDropsAtMostOnceASecond() {
        var gate = InboundGate(Self.budgets(abuseThreshold: 1_000, frames: RateBudget(rate: 0.001, burst: 1)))
        _ = gate.check(Self.stop, now: 0)
        #expect(gate.check(Self.stop, now: 10) == .drop(notify: true))
        #expect(gate.check(Self.stop, now: 999) == .drop(notify: false))
        #expect(gate.check(Self.stop, now: 1_010) == .drop(notify: true))
    }

    @Test func activityHasItsOwnBudgetThenTakesFromTheFrameBudget() {
        var gate = InboundGate(Self.configuration)
        #expect(gate.check(Self.typing, now: 0) == .pass)
        #expect(gate.check(Self.typing, now: 0) == .pass)
        #expect(gate.check(Self.typing, now: 0) == .drop(notify: true))
        #expect(gate.check(Self.stop, now: 0) == .pass, "an activity dropped by its own budget took nothing from the frame budget")
        #expect(gate.check(Self.stop, now: 0) == .drop(notify: true), "two starts and a stop spent the frame budget of 3")
    }

    @Test func messagesAndSubscribesPastTheirBudgetsAreRefusedOneByOneWithTheirRef() {
        var gate = InboundGate(Self.configuration)
        let send = ClientFrame.send(.init(conversation: "c", clientMessageId: "m1", text: "hi"))
        #expect(gate.check(send, now: 0) == .pass)
        guard case .refuse(let refusal) = gate.check(send, now: 0) else {
            Issue.record("a second message within the burst of 1 was not refused")
            return
        }
        #expect(refusal.code == .rateLimited && refusal.ref == "m1")
        let subscribe = ClientFrame.subscribe(.init(conversation: "group"))
        #expect(gate.check(subscribe, now: 0) == .pass)
        guard case .refuse(let refused) = gate.check(subscribe, now: 0) else {
            Issue.record("a second subscribe within the burst of 1 was not refused")
            return
        }
        #expect(refused.ref == "group")
        for _ in 0..<10 { _ = gate.check(subscribe, now: 0) }
        #expect(gate.check(Self.stop, now: 0) == .pass, "refusals answered one by one never close the socket nor spend the frame budget")
    }

    @Test func aFloodIsClosedWhileAClientALittleOverItsBudgetOnlyLosesTheExcess() {
        // A budget of 100 a second refills a token every 10 ms: a flood is never refused 500 times in a row,
        // but drops 500 within a second.
        var flooded = InboundGate(Self.budgets(abuseThreshold: 500, frames: RateBudget(rate: 100, burst: 400)))
        var closedAt: Int?
        for index in 0..<20_000 where closedAt == nil {
            if case .close = flooded.check(Self.stop, now: Int64(index / 10)) { closedAt = index }  // 10 000 a second
        }
        #expect(
            closedAt != nil && closedAt! < 1_500, "closed after the burst and 500 drops within a second: \(String(describing: closedAt))")
        var eager = InboundGate(Self.budgets(abuseThreshold: 500, frames: RateBudget(rate: 100, burst: 400)))
        var drops = 0
        for index in 0..<12_000 {  // 120 a second for 100 s
            switch eager.check(Self.stop, now: Int64(index) * 1_000 / 120) {
            case .close: Issue.record("a client 20 % over its budget was closed")
            case .drop: drops += 1
            default: break
            }
        }
        #expect(drops > 1_000, "the excess was dropped: \(drops)")
    }
}
