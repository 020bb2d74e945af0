import Testing
import TypewireClient
import TypewireCore
import TypewireUI

/// What VoiceOver hears: who starts, once, and not more than once every 5 s.
@Suite("TypingAnnouncer")
struct TypingAnnouncerTests {
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int64(seconds * 1_000)) }

    func state(_ typers: [(String, MemberActivity)]) -> TypingState {
        let list = typers.map { Typer(userID: $0.0.lowercased(), name: $0.0, activity: $0.1) }
        let text = TypingText()
        return TypingState(
            typers: list, text: text.text(for: list, total: list.count),
            accessibilityText: text.accessibilityText(for: list, total: list.count))
    }

    @Test func someoneWhoStartsIsAnnouncedOnceAndNotAtEveryRefreshOrStop() {
        var announcer = TypingAnnouncer<ContinuousClock.Instant>()
        #expect(announcer.stateChanged(state([("Alice", .typing)]), now: at(0)) == "Alice is typing")
        #expect(announcer.stateChanged(state([("Alice", .typing)]), now: at(2)) == nil, "a refresh")
        #expect(announcer.stateChanged(state([]), now: at(3)) == nil, "a stop")
        #expect(announcer.nextDeadline == nil)
        #expect(announcer.stateChanged(state([("Alice", .typing)]), now: at(9)) == "Alice is typing", "she started again")
    }

    @Test func aBotIsAnnouncedThinkingOnceNotAgainForItsToolOrItsReply() {
        var announcer = TypingAnnouncer<ContinuousClock.Instant>()
        #expect(announcer.stateChanged(state([("Clawd", .thinking)]), now: at(0)) == "Clawd is thinking")
        #expect(announcer.stateChanged(state([("Clawd", .toolUse("web_search"))]), now: at(6)) == nil)
        #expect(announcer.stateChanged(state([("Clawd", .typing)]), now: at(12)) == nil)
    }

    @Test func aBusyGroupIsAnnouncedAtMostOnceEveryFiveSeconds() {
        var announcer = TypingAnnouncer<ContinuousClock.Instant>()
        #expect(announcer.stateChanged(state([("Alice", .typing)]), now: at(0)) == "Alice is typing")
        #expect(announcer.stateChanged(state([("Alice", .typing), ("Bob", .typing)]), now: at(1)) == nil)
        #expect(announcer.stateChanged(state([("Alice", .typing), ("Bob", .typing), ("Carol", .typing)]), now: at(2)) == nil)
        #expect(announcer.nextDeadline == at(5))
        let busy = state([("Alice", .typing), ("Bob", .typing), ("Carol", .typing)])
        #expect(announcer.tick(busy, now: at(4.9)) == nil, "before the deadline")
        #expect(announcer.tick(busy, now: at(5)) == "Alice, Bob, and Carol are typing", "those who started, together")
        #expect(announcer.nextDeadline == nil && announcer.tick(busy, now: at(20)) == nil)
    }

    @Test func thoseWhoStartedAndStoppedWithinTheIntervalAreNotAnnouncedLate() {
        var announcer = TypingAnnouncer<ContinuousClock.Instant>()
        _ = announcer.stateChanged(state([("Alice", .typing)]), now: at(0))
        #expect(announcer.stateChanged(state([("Alice", .typing), ("Bob", .typing)]), now: at(1)) == nil)
        #expect(announcer.stateChanged(state([("Alice", .typing)]), now: at(2)) == nil, "Bob stopped")
        #expect(announcer.nextDeadline == nil && announcer.tick(state([("Alice", .typing)]), now: at(5)) == nil)
    }
}
