// A member's presence in the ten built-in languages: "online", "last seen 5 minutes ago", "last seen
// recently". Counts are 1 or more (``PresenceStatus``); Arabic's keep their plural forms (``Plural``).

/// One language's presence words: its fixed phrases, and how it says a count of minutes, hours or days ago.
struct PresenceWords: Sendable {
    enum Unit { case minutes, hours, days }

    let online: String
    let justNow: String
    let ago: @Sendable (_ unit: Unit, _ count: Int) -> String
    let recently: String
    let withinWeek: String
    let withinMonth: String
    let longAgo: String

    func callAsFunction(_ status: PresenceStatus) -> String {
        switch status {
        case .online: online
        case .justNow: justNow
        case .minutesAgo(let count): ago(.minutes, count)
        case .hoursAgo(let count): ago(.hours, count)
        case .daysAgo(let count): ago(.days, count)
        case .within(.recently): recently
        case .within(.withinWeek): withinWeek
        case .within(.withinMonth): withinMonth
        case .within(.longAgo): longAgo
        }
    }

    /// A unit's word by count: `one` for 1, `more` for the rest.
    static func noun(_ count: Int, _ one: String, _ more: String) -> String { count == 1 ? one : more }
}

extension LanguageRules {
    static func presence(_ status: PresenceStatus) -> String { presenceWords(status) }
}

extension EnglishRules {
    static let presenceWords = PresenceWords(
        online: "online", justNow: "last seen just now",
        ago: { unit, count in
            let noun =
                switch unit {
                case .minutes: "minute"
                case .hours: "hour"
                case .days: "day"
                }
            return "last seen \(count) \(PresenceWords.noun(count, noun, noun + "s")) ago"
        },
        recently: "last seen recently", withinWeek: "last seen within a week", withinMonth: "last seen within a month",
        longAgo: "last seen a long time ago")
}

extension GermanRules {
    static let presenceWords = PresenceWords(
        online: "online", justNow: "zuletzt gerade eben online",
        ago: { unit, count in
            let noun =
                switch unit {
                case .minutes: PresenceWords.noun(count, "Minute", "Minuten")
                case .hours: PresenceWords.noun(count, "Stunde", "Stunden")
                case .days: PresenceWords.noun(count, "Tag", "Tagen")
                }
            return "zuletzt vor \(count) \(noun) online"
        },
        recently: "zuletzt kürzlich online", withinWeek: "zuletzt innerhalb einer Woche online",
        withinMonth: "zuletzt innerhalb eines Monats online", longAgo: "zuletzt vor langer Zeit online")
}

/// "En ligne il y a…": no past participle, so nothing agrees with the member's gender.
extension FrenchRules {
    static let presenceWords = PresenceWords(
        online: "en ligne", justNow: "en ligne à l’instant",
        ago: { unit, count in
            let noun =
                switch unit {
                case .minutes: "minute"
                case .hours: "heure"
                case .days: "jour"
                }
            return "en ligne il y a \(count) \(PresenceWords.noun(count, noun, noun + "s"))"
        },
        recently: "en ligne récemment", withinWeek: "en ligne il y a moins d’une semaine",
        withinMonth: "en ligne il y a moins d’un mois", longAgo: "en ligne il y a longtemps")
}

extension SpanishRules {
    static let presenceWords = PresenceWords(
        online: "en línea", justNow: "última vez hace un momento",
        ago: { unit, count in
            let noun =
                switch unit {
                case .minutes: PresenceWords.noun(count, "minuto", "minutos")
                case .hours: PresenceWords.noun(count, "hora", "horas")
                case .days: PresenceWords.noun(count, "día", "días")
                }
            return "última vez hace \(count) \(noun)"
        },
        recently: "última vez recientemente", withinWeek: "última vez hace menos de una semana",
        withinMonth: "última vez hace menos de un mes", longAgo: "última vez hace mucho tiempo")
}

extension JapaneseRules {
    static let presenceWords = PresenceWords(
        online: "オンライン", justNow: "最終ログイン：たった今",
        ago: { unit, count in
            switch unit {
            case .minutes: "最終ログイン：\(count)分前"
            case .hours: "最終ログイン：\(count)時間前"
            case .days: "最終ログイン：\(count)日前"
            }
        },
        recently: "最終ログイン：最近", withinWeek: "最終ログイン：1週間以内", withinMonth: "最終ログイン：1か月以内",
        longAgo: "最終ログイン：かなり前")
}

/// "آخر ظهور منذ…": the noun after منذ in its plural form by count (one, two, few, many; no count here
/// reaches 100, and none is 0).
extension ArabicRules {
    static let presenceWords = PresenceWords(
        online: "متصل الآن", justNow: "آخر ظهور الآن",
        ago: { unit, count in
            let (one, two, few, many) =
                switch unit {
                case .minutes: ("دقيقة", "دقيقتين", "دقائق", "دقيقة")
                case .hours: ("ساعة", "ساعتين", "ساعات", "ساعة")
                case .days: ("يوم", "يومين", "أيام", "يومًا")
                }
            let span =
                switch Plural(count) {
                case .one: one
                case .two: two
                case .few: "\(count) \(few)"
                case .many, .zero, .other: "\(count) \(many)"
                }
            return "آخر ظهور منذ \(span)"
        },
        recently: "آخر ظهور مؤخرًا", withinWeek: "آخر ظهور خلال أسبوع", withinMonth: "آخر ظهور خلال شهر",
        longAgo: "آخر ظهور منذ وقت طويل")
}

extension PortugueseRules {
    static let presenceWords = PresenceWords(
        online: "online", justNow: "visto por último agora mesmo",
        ago: { unit, count in
            let noun =
                switch unit {
                case .minutes: PresenceWords.noun(count, "minuto", "minutos")
                case .hours: PresenceWords.noun(count, "hora", "horas")
                case .days: PresenceWords.noun(count, "dia", "dias")
                }
            return "visto por último há \(count) \(noun)"
        },
        recently: "visto recentemente", withinWeek: "visto na última semana", withinMonth: "visto no último mês",
        longAgo: "visto há muito tempo")
}

extension ItalianRules {
    static let presenceWords = PresenceWords(
        online: "online", justNow: "ultimo accesso poco fa",
        ago: { unit, count in
            let noun =
                switch unit {
                case .minutes: PresenceWords.noun(count, "minuto", "minuti")
                case .hours: PresenceWords.noun(count, "ora", "ore")
                case .days: PresenceWords.noun(count, "giorno", "giorni")
                }
            return "ultimo accesso \(count) \(noun) fa"
        },
        recently: "ultimo accesso di recente", withinWeek: "ultimo accesso entro una settimana",
        withinMonth: "ultimo accesso entro un mese", longAgo: "ultimo accesso molto tempo fa")
}

extension SimplifiedChineseRules {
    static let presenceWords = PresenceWords(
        online: "在线", justNow: "刚刚在线",
        ago: { unit, count in
            switch unit {
            case .minutes: "\(count)分钟前在线"
            case .hours: "\(count)小时前在线"
            case .days: "\(count)天前在线"
            }
        },
        recently: "最近在线", withinWeek: "一周内在线", withinMonth: "一个月内在线", longAgo: "很久以前在线")
}

extension KoreanRules {
    static let presenceWords = PresenceWords(
        online: "온라인", justNow: "방금 전 접속",
        ago: { unit, count in
            switch unit {
            case .minutes: "\(count)분 전 접속"
            case .hours: "\(count)시간 전 접속"
            case .days: "\(count)일 전 접속"
            }
        },
        recently: "최근 접속", withinWeek: "일주일 이내 접속", withinMonth: "한 달 이내 접속", longAgo: "오래 전 접속")
}
