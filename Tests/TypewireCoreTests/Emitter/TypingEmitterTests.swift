import Clocks
import Testing
import TypewireCore

@Suite("TypingEmitter: the sender's rules", .timeLimit(.minutes(1)))
final class TypingEmitterTests {
    typealias Emitter = TypingEmitter<TestClock<Duration>.Instant>

    let clock = TestClock()
    var emitter = Emitter(configuration: .init(refreshInterval: .seconds(3), idleTimeout: .seconds(3)))

    /// Feeds one input at the clock's current instant.
    func send(_ input: Emitter.Input) -> Emitter.Frame? {
        emitter.handle(input, now: clock.now)
    }

    /// Advances the clock and runs the shell's deadline check, as the real shell does when the deadline passes.
    func wait(_ duration: Duration) async -> [Emitter.Frame] {
        let end = clock.now.advanced(by: duration)
        var frames: [Emitter.Frame] = []
        while let deadline = emitter.nextDeadline, deadline <= end {
            await clock.advance(to: max(deadline, clock.now))
            if let frame = emitter.tick(now: clock.now) {
                frames.append(frame)
            } else if emitter.nextDeadline == deadline {
                Issue.record("the deadline passed but tick(now:) did nothing: the shell would spin")
                break
            }
        }
        await clock.advance(to: end)
        return frames
    }

    @Test func firstNonEmptyChangeStartsAtOnce() {
        let test = self
        #expect(test.send(.textChanged("H")) == .start)
        #expect(test.emitter.isAnnounced)
    }

    @Test func whitespaceOnlyTextCountsAsEmpty() async {
        let test = self
        #expect(test.send(.textChanged("   ")) == nil)
        #expect(test.send(.textChanged("\n\t\u{00A0}")) == nil)
        #expect(test.emitter.nextDeadline == nil)
        #expect(test.send(.textChanged(" a")) == .start)
        _ = await test.wait(.milliseconds(100))
        #expect(test.send(.textChanged("  ")) == .stop, "text reduced to whitespace stops at once")
    }

    @Test func atMostOneRefreshPerInterval() async {
        let test = self
        var frames: [Emitter.Frame] = []
        var text = ""
        // Type a key every 100 ms for 10 s.
        for _ in 0..<100 {
            text += "x"
            if let frame = test.send(.textChanged(text)) { frames.append(frame) }
            frames += await test.wait(.milliseconds(100))
        }
        #expect(frames.first == .start)
        #expect(frames.filter { $0 == .refresh }.count == 3, "refreshes at 3, 6 and 9 s")
        #expect(!frames.contains(.stop))
    }

    @Test func refreshesKeepGoingWhileKeysPauseWithinTheIdleTimeout() async {
        let test = self
        test.emitter = Emitter(configuration: .init(refreshInterval: .seconds(1), idleTimeout: .seconds(3)))
        #expect(test.send(.textChanged("a")) == .start)
        #expect(await test.wait(.milliseconds(2_999)) == [.refresh, .refresh])
        #expect(await test.wait(.milliseconds(1)) == [.stop], "the idle stop wins over the refresh due at 3 s")
    }

    @Test func tickingEarlyOrOftenIsHarmless() async {
        let test = self
        var frames: [Emitter.Frame] = []
        var text = ""
        // A shell that ticks every 100 ms instead of at the deadline, while a key comes every 200 ms.
        for step in 0..<100 {
            if step.isMultiple(of: 2) {
                text += "x"
                if let frame = test.send(.textChanged(text)) { frames.append(frame) }
            }
            if let frame = test.emitter.tick(now: test.clock.now) { frames.append(frame) }
            await test.clock.advance(by: .milliseconds(100))
        }
        #expect(frames == [.start, .refresh, .refresh, .refresh], "refreshes at 3, 6 and 9 s only")
    }

    @Test func keystrokesDoNotAddFrames() async {
        let test = self
        #expect(test.send(.textChanged("a")) == .start)
        for length in 2...50 {
            #expect(test.send(.textChanged(String(repeating: "a", count: length))) == nil)
        }
    }

    @Test func keystrokeInsideTheIntervalIsRefreshedWhenTheIntervalEnds() async {
        let test = self
        #expect(test.send(.textChanged("a")) == .start)
        _ = await test.wait(.seconds(2))
        #expect(test.send(.textChanged("ab")) == nil, "throttled")
        // The refresh goes out at 3 s, not at the next keystroke.
        #expect(test.emitter.nextDeadline == test.clock.now.advanced(by: .seconds(1)))
        let frames = await test.wait(.seconds(1))
        #expect(frames == [.refresh])
    }

    @Test func noKeystrokeForTheIdleTimeoutStops() async {
        let test = self
        #expect(test.send(.textChanged("a")) == .start)
        #expect(await test.wait(.milliseconds(2_999)) == [])
        #expect(await test.wait(.milliseconds(1)) == [.stop])
        #expect(!test.emitter.isAnnounced)
        #expect(test.emitter.nextDeadline == nil)
    }

    @Test func idleTimeoutCountsFromTheLastKeystroke() async {
        let test = self
        _ = test.send(.textChanged("a"))
        _ = await test.wait(.seconds(2))
        _ = test.send(.textChanged("ab"))
        #expect(await test.wait(.milliseconds(2_900)) == [.refresh], "no stop 4.9 s after the start")
        #expect(await test.wait(.milliseconds(100)) == [.stop])
    }

    @Test(arguments: [
        TypingEmitter<TestClock<Duration>.Instant>.Input.messageSent, .inputCleared, .leftConversation, .wentToBackground,
    ])
    func endingEventsStopAtOnce(event: Emitter.Input) async {
        let test = self
        _ = test.send(.textChanged("hello"))
        _ = await test.wait(.milliseconds(500))
        #expect(test.send(event) == .stop)
        #expect(test.emitter.nextDeadline == nil)
        #expect(await test.wait(.seconds(10)) == [], "nothing follows the stop")
    }

    @Test(arguments: [
        TypingEmitter<TestClock<Duration>.Instant>.Input.messageSent, .inputCleared, .leftConversation, .wentToBackground,
    ])
    func endingEventsSendNothingWithoutAStart(event: Emitter.Input) async {
        let test = self
        #expect(test.send(event) == nil)
        _ = test.send(.textChanged("a"))
        _ = await test.wait(.seconds(4))  // idle stop already sent
        #expect(test.send(event) == nil)
    }

    @Test func nextKeystrokeAfterAStopStartsAgainAtOnce() async {
        let test = self
        _ = test.send(.textChanged("a"))
        _ = await test.wait(.milliseconds(500))
        #expect(test.send(.messageSent) == .stop)
        #expect(test.send(.textChanged("b")) == .start, "no throttle after a stop")
        #expect(await test.wait(.seconds(4)) == [.stop])
        #expect(test.send(.textChanged("bc")) == .start, "no throttle after an idle stop")
    }

    @Test func connectionLostSendsNothingAndRestoredRestartsTyping() async {
        let test = self
        _ = test.send(.textChanged("a"))
        #expect(test.send(.connectionLost) == nil)
        #expect(test.send(.textChanged("ab")) == nil, "nothing goes out while offline")
        #expect(test.emitter.nextDeadline == nil)
        _ = await test.wait(.seconds(1))
        #expect(test.send(.connectionRestored) == .start, "the server forgot the state: announce again")
        #expect(await test.wait(.seconds(2)) == [.stop], "idle stop 3 s after the last keystroke")
    }

    @Test func connectionRestoredAfterTypingEndedSendsNothing() async {
        let test = self
        _ = test.send(.textChanged("a"))
        _ = test.send(.connectionLost)
        _ = await test.wait(.seconds(5))
        #expect(test.send(.connectionRestored) == nil)
        _ = test.send(.textChanged("ab"))  // typing resumes
        _ = test.send(.messageSent)
        _ = test.send(.connectionLost)
        #expect(test.send(.connectionRestored) == nil, "a sent draft is not typing")
    }

    @Test func intervalsAreConfiguration() async {
        let test = self
        test.emitter = Emitter(configuration: .init(refreshInterval: .milliseconds(500), idleTimeout: .seconds(1)))
        var frames: [Emitter.Frame] = []
        for index in 0..<10 {
            if let frame = test.send(.textChanged(String(repeating: "x", count: index + 1))) { frames.append(frame) }
            frames += await test.wait(.milliseconds(100))
        }
        frames += await test.wait(.seconds(2))
        // Start at 0, refreshes at 0.5, 1.0 and 1.5 (the last key at 0.9 still counts), stop at 1.9.
        #expect(frames == [.start, .refresh, .refresh, .refresh, .stop])
    }

    @Test func frameActivities() {
        #expect(Emitter.Frame.start.activity == .typing)
        #expect(Emitter.Frame.refresh.activity == .typing)
        #expect(Emitter.Frame.stop.activity == .none)
    }
}
