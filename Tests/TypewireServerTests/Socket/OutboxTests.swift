import Synchronization
import Testing
@testable import TypewireServer

@Suite("Outbox: a socket's queue, bounded in bytes")
struct OutboxTests {
    @Test func framesFitUntilTheByteLimitThenTheQueueEndsAndTheHandlerRunsOnce() async {
        let (queue, continuation) = AsyncStream.makeStream(of: String.self)
        let outbox = Outbox(frames: continuation, byteLimit: 10)
        let (overflows, overflowed) = AsyncStream.makeStream(of: Void.self)
        outbox.onOverflow { overflowed.yield() }
        outbox.enqueue("12345")
        outbox.enqueue("1234")
        #expect(outbox.queuedBytes == 9)
        outbox.enqueue("12")  // 11 bytes: does not fit
        outbox.enqueue("1")  // the queue has ended: dropped, no second overflow
        var frames: [String] = []
        for await frame in queue { frames.append(frame) }
        #expect(frames == ["12345", "1234"])
        var iterator = overflows.makeAsyncIterator()
        await iterator.next()
        overflowed.finish()
        #expect(await iterator.next() == nil, "the handler ran once")
    }

    @Test func writtenFramesMakeRoom() async {
        let (queue, continuation) = AsyncStream.makeStream(of: String.self)
        let outbox = Outbox(frames: continuation, byteLimit: 8)
        outbox.enqueue("12345678")
        outbox.written("12345678")
        outbox.enqueue("abcdefgh")  // fits again
        outbox.finish()
        var frames: [String] = []
        for await frame in queue { frames.append(frame) }
        #expect(frames == ["12345678", "abcdefgh"])
        #expect(outbox.queuedBytes == 8)
    }

    @Test func bytesAreCountedNotCharacters() {
        let (_, continuation) = AsyncStream.makeStream(of: String.self)
        let outbox = Outbox(frames: continuation, byteLimit: 100)
        outbox.enqueue("ё")
        #expect(outbox.queuedBytes == 2)
    }
}
