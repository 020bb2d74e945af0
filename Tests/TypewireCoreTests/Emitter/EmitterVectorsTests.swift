import Testing
import TypewireCore

/// TypingEmitter against every vector of TestVectors/emitter.json, the table the web demo's port is held to
/// too (Tests/JavaScript/emitter-vectors.test.mjs).
@Suite("TypingEmitter: the shared vectors")
struct EmitterVectorsTests {
    struct Vector: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var refreshInterval: Int64
        var idleTimeout: Int64
        var steps: [Step]
        var testDescription: String { name }
    }

    struct Step: Decodable, Sendable {
        var at: Int64
        var input: String
        var text: String?
        var frame: String?
        var nextDeadline: Expected<Int64>

        enum CodingKeys: String, CodingKey { case at, input, text, frame, nextDeadline }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            at = try container.decode(Int64.self, forKey: .at)
            input = try container.decode(String.self, forKey: .input)
            text = try container.decodeIfPresent(String.self, forKey: .text)
            frame = try container.decodeIfPresent(String.self, forKey: .frame)
            nextDeadline = try Expected(.nextDeadline, in: container)
        }
    }

    typealias Emitter = TypingEmitter<VectorTime.Instant>

    static func input(_ step: Step) -> Emitter.Input? {
        switch step.input {
        case "textChanged": .textChanged(step.text ?? "")
        case "messageSent": .messageSent
        case "inputCleared": .inputCleared
        case "leftConversation": .leftConversation
        case "wentToBackground": .wentToBackground
        case "connectionLost": .connectionLost
        case "connectionRestored": .connectionRestored
        default: nil
        }
    }

    static func name(_ frame: Emitter.Frame?) -> String? {
        switch frame {
        case .start: "start"
        case .refresh: "refresh"
        case .stop: "stop"
        case nil: nil
        }
    }

    @Test func theTableHasVectors() {
        #expect(testVectors("emitter.json", as: Vector.self).count >= 8)
    }

    @Test(arguments: testVectors("emitter.json", as: Vector.self))
    func vector(_ vector: Vector) throws {
        let time = VectorTime()
        var emitter = Emitter(
            configuration: .init(refreshInterval: .milliseconds(vector.refreshInterval), idleTimeout: .milliseconds(vector.idleTimeout)))
        for (index, step) in vector.steps.enumerated() {
            let now = time.instant(step.at)
            let frame: Emitter.Frame?
            if step.input == "tick" {
                frame = emitter.tick(now: now)
            } else {
                frame = emitter.handle(try #require(Self.input(step), "step \(index): no input '\(step.input)'"), now: now)
            }
            #expect(Self.name(frame) == step.frame, "step \(index) at \(step.at) ms: \(step.input)")
            let deadline = time.milliseconds(emitter.nextDeadline)
            #expect(step.nextDeadline.holds(for: deadline), "step \(index) at \(step.at) ms: next deadline \(String(describing: deadline))")
        }
    }
}
