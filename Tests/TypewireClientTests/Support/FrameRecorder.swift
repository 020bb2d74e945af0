import Foundation
import Logging
import TypewireCore
import WSClient

/// A plain WebSocket that says hello, subscribes to one conversation and records every server frame
/// in the order it arrives: the receiver's view, where the order of typing and messages is visible.
final class FrameRecorder: Sendable {
    private actor Frames {
        var all: [ServerFrame] = []
        func append(_ frame: ServerFrame) { all.append(frame) }
    }

    private let frames = Frames()
    private let task: Task<Void, any Error>

    /// Connects as the token's user and subscribes to `conversation`.
    init(url: String, token: String, conversation: String) {
        let frames = frames
        task = Task {
            var logger = Logger(label: "typewire.test.recorder")
            logger.logLevel = .critical
            _ = try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 20), logger: logger) {
                inbound, outbound, _ in
                try await outbound.write(.text(String(decoding: FrameCodec.encode(ClientFrame.hello(.init(token: token))), as: UTF8.self)))
                try await outbound.write(
                    .text(String(decoding: FrameCodec.encode(ClientFrame.subscribe(.init(conversation: conversation))), as: UTF8.self)))
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    guard case .text(let text) = message, let frame = try? FrameCodec.decodeServerFrame(Data(text.utf8)) else { continue }
                    await frames.append(frame)
                }
            }
        }
    }

    /// The frames so far.
    var received: [ServerFrame] {
        get async { await frames.all }
    }

    func close() { task.cancel() }
}
