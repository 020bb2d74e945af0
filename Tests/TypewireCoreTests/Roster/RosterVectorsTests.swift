import Testing
import TypewireCore

/// TypingRoster against every vector of TestVectors/roster.json, the table the web demo's port is held to too
/// (Tests/JavaScript/roster-vectors.test.mjs).
@Suite("TypingRoster: the shared vectors")
struct RosterVectorsTests {
    struct Vector: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var currentUser: String
        var participants: [String]
        var thread: String?
        var steps: [Step]
        var testDescription: String { name }
    }

    struct Shown: Decodable, Equatable, Sendable {
        var user: String
        var activity: String
    }

    struct Presence: Decodable, Sendable {
        var user: String
        var online: Bool
    }

    struct Step: Decodable, Sendable {
        var at: Int64
        var apply: ActivityUpdate?
        var setOnline: Presence?
        var setParticipants: [String]?
        var removeExpired: Bool?
        var changed: Bool?
        var typers: [Shown]?
        var unlisted: Int?
        var replying: [String: Int]?
        var nextDeadline: Expected<Int64>

        enum CodingKeys: String, CodingKey {
            case at, apply, setOnline, setParticipants, removeExpired, changed, typers, unlisted, replying, nextDeadline
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            at = try container.decode(Int64.self, forKey: .at)
            apply = try container.decodeIfPresent(ActivityUpdate.self, forKey: .apply)
            setOnline = try container.decodeIfPresent(Presence.self, forKey: .setOnline)
            setParticipants = try container.decodeIfPresent([String].self, forKey: .setParticipants)
            removeExpired = try container.decodeIfPresent(Bool.self, forKey: .removeExpired)
            changed = try container.decodeIfPresent(Bool.self, forKey: .changed)
            typers = try container.decodeIfPresent([Shown].self, forKey: .typers)
            unlisted = try container.decodeIfPresent(Int.self, forKey: .unlisted)
            replying = try container.decodeIfPresent([String: Int].self, forKey: .replying)
            nextDeadline = try Expected(.nextDeadline, in: container)
        }
    }

    @Test func theTableHasVectors() {
        #expect(testVectors("roster.json", as: Vector.self).count >= 8)
    }

    @Test(arguments: testVectors("roster.json", as: Vector.self))
    func vector(_ vector: Vector) {
        let time = VectorTime()
        var roster = TypingRoster<VectorTime.Instant>(
            currentUserID: vector.currentUser, participants: Set(vector.participants), thread: vector.thread)
        for (index, step) in vector.steps.enumerated() {
            let now = time.instant(step.at)
            let place = "step \(index) at \(step.at) ms"
            if let update = step.apply { roster.apply(update, now: now) }
            if let presence = step.setOnline { roster.setOnline(presence.online, user: presence.user) }
            if let participants = step.setParticipants { roster.setParticipants(Set(participants)) }
            if step.removeExpired == true {
                let changed = roster.removeExpired(now: now)
                if let expected = step.changed { #expect(changed == expected, "\(place): changed") }
            }
            if let typers = step.typers {
                #expect(roster.typers(at: now).map { Shown(user: $0.userID, activity: $0.activity.kind.rawValue) } == typers, "\(place)")
            }
            if let unlisted = step.unlisted { #expect(roster.unlisted == unlisted, "\(place): unlisted") }
            if let replying = step.replying { #expect(roster.replying(at: now) == replying, "\(place): replying") }
            let deadline = time.milliseconds(roster.nextDeadline)
            #expect(step.nextDeadline.holds(for: deadline), "\(place): next deadline \(String(describing: deadline))")
        }
    }
}
