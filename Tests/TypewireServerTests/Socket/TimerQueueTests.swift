import NIOCore
import NIOEmbedded
import Testing

@testable import TypewireServer

@Suite("TimerQueue: a loop's socket timers, cancelled without scanning the loop's tasks")
struct TimerQueueTests {
    @Test func timersFireAtTheirDeadlinesInOrderWhateverOrderTheyWereArmedIn() {
        let loop = EmbeddedEventLoop()
        let timers = TimerQueue(eventLoop: loop)
        var fired: [String] = []
        timers.schedule(in: .seconds(3)) { fired.append("c") }
        timers.schedule(in: .seconds(1)) { fired.append("a") }
        timers.schedule(in: .seconds(2)) { fired.append("b") }
        loop.advanceTime(by: .milliseconds(999))
        #expect(fired.isEmpty, "a timer fired before its deadline")
        loop.advanceTime(by: .milliseconds(1))
        #expect(fired == ["a"])
        loop.advanceTime(by: .seconds(2))
        #expect(fired == ["a", "b", "c"])
        #expect(timers.count == 0)
    }

    @Test func aCancelledTimerNeverRunsAndTheOthersStillDo() {
        let loop = EmbeddedEventLoop()
        let timers = TimerQueue(eventLoop: loop)
        var fired: [String] = []
        let first = timers.schedule(in: .seconds(1)) { fired.append("first") }
        timers.schedule(in: .seconds(2)) { fired.append("second") }
        timers.cancel(first)
        timers.cancel(first)  // twice is harmless
        loop.advanceTime(by: .seconds(5))
        #expect(fired == ["second"])
    }

    @Test func anActionMayCancelATimerDueAtTheSameTimeOrArmTheNext() {
        let loop = EmbeddedEventLoop()
        let timers = TimerQueue(eventLoop: loop)
        var fired: [String] = []
        var later: TimerQueue.Timer?
        timers.schedule(in: .seconds(1)) {
            fired.append("first")
            if let later { timers.cancel(later) }
            timers.schedule(in: .seconds(1)) { fired.append("rearmed") }
        }
        later = timers.schedule(in: .seconds(1)) { fired.append("cancelled by the first") }
        loop.advanceTime(by: .seconds(1))
        #expect(fired == ["first"])
        loop.advanceTime(by: .seconds(1))
        #expect(fired == ["first", "rearmed"])
    }

    @Test func aTimerArmedEarlierThanTheArmedOneFiresAtItsOwnTime() {
        let loop = EmbeddedEventLoop()
        let timers = TimerQueue(eventLoop: loop)
        var fired: [String] = []
        timers.schedule(in: .seconds(10)) { fired.append("late") }
        loop.advanceTime(by: .seconds(1))
        timers.schedule(in: .seconds(1)) { fired.append("early") }
        loop.advanceTime(by: .seconds(1))
        #expect(fired == ["early"], "the earlier timer waited for the one armed first")
        loop.advanceTime(by: .seconds(8))
        #expect(fired == ["early", "late"])
    }

    /// Sockets that come and go, each arming a timer of an hour (a token's expiry) and cancelling it: the
    /// cancelled entries must not pile up until their hour has passed.
    @Test func cancelledTimersDoNotHoldMemoryUntilTheirDeadline() {
        let loop = EmbeddedEventLoop()
        let timers = TimerQueue(eventLoop: loop)
        let live = (0..<100).map { _ in timers.schedule(in: .hours(1)) {} }
        for _ in 0..<10_000 {
            timers.cancel(timers.schedule(in: .hours(1)) {})
        }
        #expect(timers.count == live.count)
        #expect(timers.heldEntries <= 2 * live.count + 65, "cancelled entries piled up: \(timers.heldEntries) held")
    }

    @Test func eachLoopHasOneQueue() {
        let (first, second) = (EmbeddedEventLoop(), EmbeddedEventLoop())
        let queues = TimerQueues()
        #expect(queues.queue(for: first) === queues.queue(for: first))
        #expect(queues.queue(for: first) !== queues.queue(for: second))
    }
}
