import Testing
import TypewireCore

/// One row of the `presence` table of TestVectors/typing-text.json, which the web demo checks too.
struct PresenceVector: Decodable, CustomTestStringConvertible {
    var locale: String
    var status: String
    var count: Int?
    var text: String

    var testDescription: String { "\(locale): \(status) \(count.map(String.init) ?? "") → \(text)" }

    var presenceStatus: PresenceStatus? {
        switch status {
        case "online": .online
        case "just_now": .justNow
        case "minutes": count.map(PresenceStatus.minutesAgo)
        case "hours": count.map(PresenceStatus.hoursAgo)
        case "days": count.map(PresenceStatus.daysAgo)
        default: LastSeen(rawValue: status).map(PresenceStatus.within)
        }
    }

    private struct Table: Decodable { var presence: [PresenceVector] }
    static let all = testVectorTable("typing-text.json", as: Table.self).presence
}

@Suite("TypingText: a member's presence, online or last seen")
struct PresenceTextTests {
    static let now: Int64 = 1_800_000_000_000
    static let (minute, hour, day): (Int64, Int64, Int64) = (60_000, 3_600_000, 86_400_000)

    @Test(arguments: PresenceVector.all)
    func sharedVector(_ vector: PresenceVector) throws {
        let formatter = TypingText(configuration: .init(locale: try #require(TypingLocale(identifier: vector.locale))))
        #expect(formatter.presenceText(try #require(vector.presenceStatus)) == vector.text)
    }

    @Test func everyLanguageHasEveryStatus() {
        for locale in TypingLocale.all.map(\.identifier) {
            let statuses = Set(PresenceVector.all.filter { $0.locale == locale }.map(\.status))
            #expect(statuses.count == 9, "\(locale): \(statuses)")
        }
    }

    @Test func aTimeIsSaidInTheLargestWholeUnitThenInBuckets() {
        func status(_ ago: Int64) -> PresenceStatus? {
            PresenceStatus(online: false, lastSeenAt: Self.now - ago, lastSeen: nil, now: Self.now)
        }
        #expect(status(59_999) == .justNow)
        #expect(status(Self.minute) == .minutesAgo(1))
        #expect(status(Self.hour - 1) == .minutesAgo(59))
        #expect(status(Self.hour) == .hoursAgo(1))
        #expect(status(Self.day - 1) == .hoursAgo(23))
        #expect(status(Self.day) == .daysAgo(1))
        #expect(status(7 * Self.day - 1) == .daysAgo(6))
        #expect(status(7 * Self.day) == .within(.withinWeek))
        #expect(status(8 * Self.day) == .within(.withinMonth))
        #expect(status(31 * Self.day) == .within(.longAgo))
        #expect(status(-Self.hour) == .justNow, "a device clock behind the server's")
        #expect(PresenceStatus(online: false, lastSeenAt: .min, lastSeen: nil, now: .max) == .within(.longAgo))
        #expect(PresenceStatus(online: false, lastSeenAt: .max, lastSeen: nil, now: .min) == .justNow)
    }

    @Test func onlineComesFirstAndABucketStandsAloneAndNothingKnownIsNil() {
        #expect(PresenceStatus(online: true, lastSeenAt: Self.now, lastSeen: .longAgo, now: Self.now) == .online)
        #expect(PresenceStatus(online: false, lastSeenAt: nil, lastSeen: .withinWeek, now: Self.now) == .within(.withinWeek))
        #expect(PresenceStatus(online: false, lastSeenAt: nil, lastSeen: nil, now: Self.now) == nil)
        #expect(
            PresenceStatus(ConversationMember(id: "a", name: nil, online: false, lastSeenAt: Self.now - 5 * Self.minute), now: Self.now)
                == .minutesAgo(5))
    }

    @Test func anAppsOwnTableSaysEnglishUntilItSetsItsOwn() {
        var phrases = TypingLocale.german.phrases
        phrases.presence = { $0 == .online ? "da" : "weg" }
        let text = TypingText(configuration: .init(locale: TypingLocale(identifier: "de-x-app", phrases: phrases)))
        #expect(text.presenceText(.online) == "da" && text.presenceText(.justNow) == "weg")
    }
}
