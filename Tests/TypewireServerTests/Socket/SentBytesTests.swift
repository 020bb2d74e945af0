import Testing

@testable import TypewireServer

@Suite("SentBytes: the memory a socket's unsent frames hold")
struct SentBytesTests {
    static let frame = OutboundFrame(text: String(repeating: "x", count: 98))  // 100 bytes on the wire
    static var cost: Int { 100 + SentBytes.overheadPerWrite }

    @Test func aFrameCostsItsBytesAndTheWriteBesideThem() {
        let pong = OutboundFrame(control: .pong, payload: .init())
        #expect(SentBytes.cost(of: pong) == 2 + SentBytes.overheadPerWrite, "a 2-byte pong is charged what its write holds")
        var sent = SentBytes(limit: 2 * Self.cost)
        #expect(sent.fits(Self.frame))
        sent.wrote(Self.frame)
        sent.wrote(Self.frame)
        #expect(sent.held == 2 * Self.cost)
        #expect(!sent.fits(Self.frame), "a third would pass the bound")
    }

    @Test func aFlushThatLeavesNothingBehindReleasesEverything() {
        var sent = SentBytes(limit: 1_000)
        sent.wrote(Self.frame)
        #expect(sent.flushed(leaving: 0) == nil, "no mark needed")
        #expect(sent.held == 0 && !sent.isBehind)
    }

    @Test func bytesLeftBehindAreHeldUntilTheMarkAfterThemComesThrough() {
        var sent = SentBytes(limit: 10_000)
        sent.wrote(Self.frame)
        let mark = sent.flushed(leaving: 100)
        #expect(mark == Self.cost && sent.isBehind)
        sent.wrote(Self.frame)
        #expect(sent.flushed(leaving: 200) == nil, "one mark at a time")
        #expect(sent.held == 2 * Self.cost)
        sent.left(upTo: mark!)
        #expect(sent.held == Self.cost && !sent.isBehind, "what came after the mark is still held")
        #expect(sent.flushed(leaving: 100) == 2 * Self.cost, "the next flush that leaves bytes sends the next mark")
        #expect(sent.flushed(leaving: 0) == nil)
        #expect(sent.held == 0)
    }

    @Test func aPeerThatReadsNothingReachesTheBoundHoweverSmallItsFrames() {
        var sent = SentBytes(limit: 4 * 1_024 * 1_024)
        let pong = OutboundFrame(control: .pong, payload: .init())
        var written = 0
        while sent.fits(pong) {
            sent.wrote(pong)
            _ = sent.flushed(leaving: 2 * (written + 1))
            written += 1
        }
        #expect(
            written == 4 * 1_024 * 1_024 / (2 + SentBytes.overheadPerWrite),
            "\(written) pongs: bounded by their memory, not by their 2 bytes each")
    }
}
