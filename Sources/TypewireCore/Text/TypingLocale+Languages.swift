// The built-in languages. A language whose lists join with a conjunction ("A, B and C") is a
// ConjunctionLists; its activities' words are ActivityWords tables, one per grammatical number where the
// verb agrees. Names and counts are interpolated as given: a count's digits are Western (0-9) everywhere.

/// A language that lists with commas and a conjunction: "A and B", "A, B and C", "A, B and 2 others".
protocol ConjunctionLists: LanguageRules {
    /// The conjunction before a list's last item, spaces included: " and ".
    static func and(before last: String) -> String
    /// Between the other items: ", " (the default).
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

    /// The phrase for an activity.
    func callAsFunction(_ activity: Activity) -> String {
        switch activity {
        case .none, .typing: typing
        case .thinking: thinking
        case .toolUse(let tool): usingTool(tool ?? aTool)
        case .recordingAudio: recordingAudio
        case .uploading: uploading
        }
    }
}

enum EnglishRules: ConjunctionLists {
    static func replying(_ count: Int) -> String { count == 1 ? "1 person is replying" : "\(count) people are replying" }
    static let someone = "Someone"
    static func people(_ count: Int) -> String { "\(count) people" }
    static func and(before last: String) -> String { " and " }
    static let serialComma = ","
    static func otherCount(_ count: Int) -> String { count == 1 ? "1 other" : "\(count) others" }

    private static let doing = ActivityWords(
        typing: "typing", thinking: "thinking", usingTool: { "using \($0)" }, aTool: "a tool", recordingAudio: "recording audio",
        uploading: "uploading a file")
    static func sentence(subject: String, count: Int, activity: Activity) -> String {
        "\(subject) \(count > 1 ? "are" : "is") \(doing(activity))"
    }
}

enum GermanRules: ConjunctionLists {
    static func replying(_ count: Int) -> String { count == 1 ? "1 Person antwortet" : "\(count) Personen antworten" }
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
    static func sentence(subject: String, count: Int, activity: Activity) -> String {
        "\(subject) \((count > 1 ? more : one)(activity))"
    }
}

enum FrenchRules: ConjunctionLists {
    static func replying(_ count: Int) -> String { count == 1 ? "1 personne répond" : "\(count) personnes répondent" }
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
    static func sentence(subject: String, count: Int, activity: Activity) -> String {
        "\(subject) \((count > 1 ? more : one)(activity))"
    }
}

enum SpanishRules: ConjunctionLists {
    static func replying(_ count: Int) -> String {
        count == 1 ? "1 persona está respondiendo" : "\(count) personas están respondiendo"
    }
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
    static func sentence(subject: String, count: Int, activity: Activity) -> String {
        "\(subject) \(count > 1 ? "están" : "está") \(doing(activity))"
    }
}

enum JapaneseRules: LanguageRules {
    static func replying(_ count: Int) -> String { "\(count)人が返信中" }
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
    static func sentence(subject: String, count: Int, activity: Activity) -> String { "\(subject)が\(doing(activity))" }
}
