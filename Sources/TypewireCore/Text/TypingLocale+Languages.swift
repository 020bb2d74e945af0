// The ten built-in languages. A language whose lists join with a conjunction ("A, B and C") is a
// ConjunctionLists; its activities' words are ActivityWords tables, one per grammatical number where the
// verb agrees. Names and counts are interpolated as given: a count's digits are Western (0-9) everywhere.

/// A language that lists with commas and a conjunction: "A and B", "A, B and C", "A, B and 2 others".
protocol ConjunctionLists: LanguageRules {
    /// The conjunction before a list's last item, spaces included: " and "; Arabic's " و" joins the word after.
    static func and(before last: String) -> String
    /// Between the other items: ", " (the default); Arabic "، ".
    static var comma: String { get }
    /// Before the conjunction in a list of three or more: "," in English ("A, B, and C"), else "".
    static var serialComma: String { get }
    /// The others beside the names: "2 others".
    static func otherCount(_ count: Int) -> String
}

extension ConjunctionLists {
    static var comma: String { ", " }
    static var serialComma: String { "" }
    static func pair(_ first: String, _ second: String) -> String { first + and(before: second) + second }
    static func triple(_ first: String, _ second: String, _ third: String) -> String { list(first, second, last: third) }
    static func twoAndOthers(_ first: String, _ second: String, others: Int) -> String {
        list(first, second, last: otherCount(others))
    }
    static func oneAndOthers(_ first: String, others: Int) -> String { pair(first, otherCount(others)) }
    private static func list(_ first: String, _ second: String, last: String) -> String {
        first + comma + second + serialComma + and(before: last) + last
    }
}

/// What a language says a member does, one phrase per activity ("typing", "using web_search"): for one
/// grammatical number, so a language whose verb agrees has a table per number.
struct ActivityWords: Sendable {
    let typing: String
    let thinking: String
    /// The phrase around a tool's name: "using \(tool)".
    let usingTool: @Sendable (_ tool: String) -> String
    /// The tool's name when none is known: "a tool".
    let aTool: String
    let recordingAudio: String
    let uploading: String

    /// The phrase for an activity; `name` sets a known tool's name in the text (``LanguageRules/name(_:)``).
    func callAsFunction(_ activity: MemberActivity, name: (String) -> String = { $0 }) -> String {
        switch activity {
        case .none, .typing: typing
        case .thinking: thinking
        case .toolUse(let tool): usingTool(tool.map(name) ?? aTool)
        case .recordingAudio: recordingAudio
        case .uploading: uploading
        }
    }
}

enum EnglishRules: ConjunctionLists {
    static func replying(_ count: Int) -> String { count == 1 ? "1 person is replying" : "\(count) people are replying" }
    static func seen(by subject: String) -> String { "Seen by \(subject)" }
    static let someone = "Someone"
    static func people(_ count: Int) -> String { "\(count) people" }
    static func and(before last: String) -> String { " and " }
    static let serialComma = ","
    static func otherCount(_ count: Int) -> String { count == 1 ? "1 other" : "\(count) others" }

    private static let doing = ActivityWords(
        typing: "typing", thinking: "thinking", usingTool: { "using \($0)" }, aTool: "a tool", recordingAudio: "recording audio",
        uploading: "uploading a file")
    static func sentence(subject: String, count: Int, activity: MemberActivity) -> String {
        "\(subject) \(count > 1 ? "are" : "is") \(doing(activity))"
    }
}

enum GermanRules: ConjunctionLists {
    static func replying(_ count: Int) -> String { count == 1 ? "1 Person antwortet" : "\(count) Personen antworten" }
    /// A colon, not "von": the list's "2 weitere Personen" would need the dative after it.
    static func seen(by subject: String) -> String { "Gesehen: \(subject)" }
    static let someone = "Jemand"
    static func people(_ count: Int) -> String { "\(count) Personen" }
    static func and(before last: String) -> String { " und " }
    static func otherCount(_ count: Int) -> String { count == 1 ? "1 weitere Person" : "\(count) weitere Personen" }

    private static let one = ActivityWords(
        typing: "schreibt", thinking: "denkt nach", usingTool: { "verwendet \($0)" }, aTool: "ein Werkzeug",
        recordingAudio: "nimmt Audio auf", uploading: "lädt eine Datei hoch")
    private static let more = ActivityWords(
        typing: "schreiben", thinking: "denken nach", usingTool: { "verwenden \($0)" }, aTool: "ein Werkzeug",
        recordingAudio: "nehmen Audio auf", uploading: "laden eine Datei hoch")
    static func sentence(subject: String, count: Int, activity: MemberActivity) -> String {
        "\(subject) \((count > 1 ? more : one)(activity))"
    }
}

enum FrenchRules: ConjunctionLists {
    static func replying(_ count: Int) -> String { count == 1 ? "1 personne répond" : "\(count) personnes répondent" }
    static func seen(by subject: String) -> String { "Vu par \(subject)" }
    static let someone = "Quelqu'un"
    static func people(_ count: Int) -> String { "\(count) personnes" }
    static func and(before last: String) -> String { " et " }
    static func otherCount(_ count: Int) -> String { count == 1 ? "1 autre personne" : "\(count) autres personnes" }

    private static let one = ActivityWords(
        typing: "est en train d'écrire", thinking: "réfléchit", usingTool: { "utilise \($0)" }, aTool: "un outil",
        recordingAudio: "enregistre un message audio", uploading: "envoie un fichier")
    private static let more = ActivityWords(
        typing: "sont en train d'écrire", thinking: "réfléchissent", usingTool: { "utilisent \($0)" }, aTool: "un outil",
        recordingAudio: "enregistrent un message audio", uploading: "envoient un fichier")
    static func sentence(subject: String, count: Int, activity: MemberActivity) -> String {
        "\(subject) \((count > 1 ? more : one)(activity))"
    }
}

enum SpanishRules: ConjunctionLists {
    static func replying(_ count: Int) -> String {
        count == 1 ? "1 persona está respondiendo" : "\(count) personas están respondiendo"
    }
    static func seen(by subject: String) -> String { "Visto por \(subject)" }
    static let someone = "Alguien"
    static func people(_ count: Int) -> String { "\(count) personas" }
    static func otherCount(_ count: Int) -> String { count == 1 ? "1 persona más" : "\(count) personas más" }

    /// "y" becomes "e" before a word that begins with the sound /i/ ("Bob e Isabel", "Ana e Hilda"),
    /// but not before a diphthong ("Ana y Hielo").
    static func and(before last: String) -> String {
        var letters = Substring(last.lowercased())
        if letters.first == "h" { letters = letters.dropFirst() }
        guard let first = letters.first, first == "i" || first == "í" else { return " y " }
        let startsDiphthong = first == "i" && letters.dropFirst().first.map { "aeou".contains($0) } == true
        return startsDiphthong ? " y " : " e "
    }

    private static let doing = ActivityWords(
        typing: "escribiendo", thinking: "pensando", usingTool: { "usando \($0)" }, aTool: "una herramienta",
        recordingAudio: "grabando audio", uploading: "subiendo un archivo")
    static func sentence(subject: String, count: Int, activity: MemberActivity) -> String {
        "\(subject) \(count > 1 ? "están" : "está") \(doing(activity))"
    }
}

enum JapaneseRules: LanguageRules {
    static func replying(_ count: Int) -> String { "\(count)人が返信中" }
    static func seen(by subject: String) -> String { "\(subject)が既読" }
    static func seenCount(_ count: Int) -> String { "\(count)人が既読" }
    static let someone = "誰か"
    static let sentenceSeparator = "。"
    static func people(_ count: Int) -> String { "\(count)人" }
    static func pair(_ first: String, _ second: String) -> String { "\(first)と\(second)" }
    static func triple(_ first: String, _ second: String, _ third: String) -> String { "\(first)、\(second)、\(third)" }
    static func twoAndOthers(_ first: String, _ second: String, others: Int) -> String { "\(first)、\(second)と他\(others)人" }
    static func oneAndOthers(_ first: String, others: Int) -> String { "\(first)と他\(others)人" }

    private static let doing = ActivityWords(
        typing: "入力中", thinking: "考え中", usingTool: { "\($0)を使用中" }, aTool: "ツール", recordingAudio: "録音中",
        uploading: "ファイルをアップロード中")
    static func sentence(subject: String, count: Int, activity: MemberActivity) -> String { "\(subject)が\(doing(activity))" }
}

/// Right-to-left, with six plural forms (``Plural``) and the dual: "يكتب" one, "يكتبان" two, "يكتبون" more.
enum ArabicRules: ConjunctionLists {
    // No count here is ever 0 (replying counts 1 or more, people 2 or more, others 1 or more): the zero
    // form is never said, the other five are.
    static func replying(_ count: Int) -> String { "\(people(count)) \(byNumber(count, "يرد", "يردان", "يردون"))" }
    /// "Seen by", in the passive: no verb to agree with the readers.
    static func seen(by subject: String) -> String { "شوهدت من قبل \(subject)" }
    static func seenCount(_ count: Int) -> String { seen(by: people(count)) }
    static let someone = "شخص ما"
    static func people(_ count: Int) -> String {
        switch Plural(count) {
        case .one: "شخص واحد"
        case .two: "شخصان"
        case .few: "\(count) أشخاص"
        case .many: "\(count) شخصًا"
        case .zero, .other: "\(count) شخص"
        }
    }
    static func and(before last: String) -> String { " و" }
    static let comma = "، "
    static func otherCount(_ count: Int) -> String {
        switch Plural(count) {
        case .one: "شخص آخر"
        case .two: "شخصان آخران"
        case .few: "\(count) أشخاص آخرين"
        case .many: "\(count) شخصًا آخر"
        case .zero, .other: "\(count) شخص آخر"
        }
    }

    /// A name between bidi isolates (FSI U+2068 … PDI U+2069): a Latin name is then one neutral unit of
    /// the right-to-left sentence, so "Alice، Bob" keeps its order, and a paragraph that takes its direction
    /// from its first letter takes it from the Arabic words. Screen readers do not speak the two marks.
    static func name(_ name: String) -> String { "\u{2068}\(name)\u{2069}" }

    private static let one = ActivityWords(
        typing: "يكتب", thinking: "يفكر", usingTool: { "يستخدم \($0)" }, aTool: "أداة", recordingAudio: "يسجل رسالة صوتية",
        uploading: "يرفع ملفًا")
    private static let two = ActivityWords(
        typing: "يكتبان", thinking: "يفكران", usingTool: { "يستخدمان \($0)" }, aTool: "أداة", recordingAudio: "يسجلان رسالة صوتية",
        uploading: "يرفعان ملفًا")
    private static let more = ActivityWords(
        typing: "يكتبون", thinking: "يفكرون", usingTool: { "يستخدمون \($0)" }, aTool: "أداة", recordingAudio: "يسجلون رسالة صوتية",
        uploading: "يرفعون ملفًا")
    static func sentence(subject: String, count: Int, activity: MemberActivity) -> String {
        "\(subject) \(byNumber(count, one, two, more)(activity, name: name))"
    }

    /// The verb agrees with how many: one, two (the dual) or more.
    private static func byNumber<Form>(_ count: Int, _ one: Form, _ two: Form, _ more: Form) -> Form {
        count == 1 ? one : count == 2 ? two : more
    }

    /// Arabic's plural categories (CLDR): zero 0, one 1, two 2, few when n % 100 is 3...10, many when
    /// n % 100 is 11...99, other the rest (100, 101, 102, 200, …).
    enum Plural {
        case zero, one, two, few, many, other

        init(_ count: Int) {
            switch (count, count % 100) {
            case (0, _): self = .zero
            case (1, _): self = .one
            case (2, _): self = .two
            case (_, 3...10): self = .few
            case (_, 11...99): self = .many
            default: self = .other
            }
        }
    }
}

/// Brazilian Portuguese.
enum PortugueseRules: ConjunctionLists {
    static func replying(_ count: Int) -> String { count == 1 ? "1 pessoa está respondendo" : "\(count) pessoas estão respondendo" }
    static func seen(by subject: String) -> String { "Visto por \(subject)" }
    static let someone = "Alguém"
    static func people(_ count: Int) -> String { "\(count) pessoas" }
    static func and(before last: String) -> String { " e " }
    static func otherCount(_ count: Int) -> String { count == 1 ? "mais 1 pessoa" : "mais \(count) pessoas" }

    private static let doing = ActivityWords(
        typing: "digitando", thinking: "pensando", usingTool: { "usando \($0)" }, aTool: "uma ferramenta", recordingAudio: "gravando áudio",
        uploading: "enviando um arquivo")
    static func sentence(subject: String, count: Int, activity: MemberActivity) -> String {
        "\(subject) \(count > 1 ? "estão" : "está") \(doing(activity))"
    }
}

enum ItalianRules: ConjunctionLists {
    static func replying(_ count: Int) -> String { count == 1 ? "1 persona sta rispondendo" : "\(count) persone stanno rispondendo" }
    static func seen(by subject: String) -> String { "Visto da \(subject)" }
    static let someone = "Qualcuno"
    static func people(_ count: Int) -> String { "\(count) persone" }
    static func and(before last: String) -> String { " e " }
    static func otherCount(_ count: Int) -> String { count == 1 ? "un'altra persona" : "altre \(count) persone" }

    private static let doing = ActivityWords(
        typing: "scrivendo", thinking: "pensando", usingTool: { "usando \($0)" }, aTool: "uno strumento",
        recordingAudio: "registrando un audio", uploading: "caricando un file")
    static func sentence(subject: String, count: Int, activity: MemberActivity) -> String {
        "\(subject) \(count > 1 ? "stanno" : "sta") \(doing(activity))"
    }
}

/// No plural; "等N人" counts everyone, the named ones too: "Alice、Bob等4人".
enum SimplifiedChineseRules: LanguageRules {
    static func replying(_ count: Int) -> String { "\(count)人正在回复" }
    static func seen(by subject: String) -> String { "\(subject)已读" }
    static func seenCount(_ count: Int) -> String { "\(count)人已读" }
    static let someone = "某人"
    static let sentenceSeparator = "。"
    static func people(_ count: Int) -> String { "\(count)人" }
    static func pair(_ first: String, _ second: String) -> String { "\(first)和\(second)" }
    static func triple(_ first: String, _ second: String, _ third: String) -> String { "\(first)、\(second)和\(third)" }
    static func twoAndOthers(_ first: String, _ second: String, others: Int) -> String { "\(first)、\(second)等\(others + 2)人" }
    static func oneAndOthers(_ first: String, others: Int) -> String { "\(first)等\(others + 1)人" }

    private static let doing = ActivityWords(
        typing: "正在输入", thinking: "正在思考", usingTool: { "正在使用\($0)" }, aTool: "工具", recordingAudio: "正在录音",
        uploading: "正在上传文件")
    static func sentence(subject: String, count: Int, activity: MemberActivity) -> String { subject + doing(activity) }
}

/// No plural, and no particle after the subject: its form (이/가) hangs on how the name ends, which a Latin
/// name does not tell, and a status line goes without one ("Alice 입력 중").
enum KoreanRules: LanguageRules {
    static func replying(_ count: Int) -> String { "\(count)명 답장 중" }
    static func seen(by subject: String) -> String { "\(subject) 읽음" }
    static func seenCount(_ count: Int) -> String { "\(count)명 읽음" }
    static let someone = "누군가"
    static func people(_ count: Int) -> String { "\(count)명" }
    static func pair(_ first: String, _ second: String) -> String { "\(first), \(second)" }
    static func triple(_ first: String, _ second: String, _ third: String) -> String { "\(first), \(second), \(third)" }
    static func twoAndOthers(_ first: String, _ second: String, others: Int) -> String { "\(first), \(second) 외 \(others)명" }
    static func oneAndOthers(_ first: String, others: Int) -> String { "\(first) 외 \(others)명" }

    private static let doing = ActivityWords(
        typing: "입력 중", thinking: "생각 중", usingTool: { "\($0) 사용 중" }, aTool: "도구", recordingAudio: "녹음 중",
        uploading: "파일 업로드 중")
    static func sentence(subject: String, count: Int, activity: MemberActivity) -> String { "\(subject) \(doing(activity))" }
}
