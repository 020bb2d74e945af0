enum EnglishRules: LanguageRules {
    static func replying(_ count: Int) -> String { count == 1 ? "1 person is replying" : "\(count) people are replying" }
    static let someone = "Someone"
    static func people(_ count: Int) -> String { "\(count) people" }
    static func pair(_ first: String, _ second: String) -> String { "\(first) and \(second)" }
    static func triple(_ first: String, _ second: String, _ third: String) -> String { "\(first), \(second), and \(third)" }
    static func twoAndOthers(_ first: String, _ second: String, others: Int) -> String {
        "\(first), \(second), and \(otherCount(others))"
    }
    static func oneAndOthers(_ first: String, others: Int) -> String { "\(first) and \(otherCount(others))" }
    private static func otherCount(_ count: Int) -> String { count == 1 ? "1 other" : "\(count) others" }

    static func sentence(subject: String, plural: Bool, activity: Activity) -> String {
        let verb = plural ? "are" : "is"
        let doing: String
        switch activity {
        case .none, .typing: doing = "typing"
        case .thinking: doing = "thinking"
        case .toolUse(let tool): doing = "using \(tool ?? "a tool")"
        case .recordingAudio: doing = "recording audio"
        case .uploading: doing = "uploading a file"
        }
        return "\(subject) \(verb) \(doing)"
    }
}

enum GermanRules: LanguageRules {
    static func replying(_ count: Int) -> String { count == 1 ? "1 Person antwortet" : "\(count) Personen antworten" }
    static let someone = "Jemand"
    static func people(_ count: Int) -> String { "\(count) Personen" }
    static func pair(_ first: String, _ second: String) -> String { "\(first) und \(second)" }
    static func triple(_ first: String, _ second: String, _ third: String) -> String { "\(first), \(second) und \(third)" }
    static func twoAndOthers(_ first: String, _ second: String, others: Int) -> String {
        "\(first), \(second) und \(otherCount(others))"
    }
    static func oneAndOthers(_ first: String, others: Int) -> String { "\(first) und \(otherCount(others))" }
    private static func otherCount(_ count: Int) -> String {
        count == 1 ? "1 weitere Person" : "\(count) weitere Personen"
    }

    static func sentence(subject: String, plural: Bool, activity: Activity) -> String {
        let doing: String
        switch activity {
        case .none, .typing: doing = plural ? "schreiben" : "schreibt"
        case .thinking: doing = plural ? "denken nach" : "denkt nach"
        case .toolUse(let tool): doing = (plural ? "verwenden " : "verwendet ") + (tool ?? "ein Werkzeug")
        case .recordingAudio: doing = plural ? "nehmen Audio auf" : "nimmt Audio auf"
        case .uploading: doing = plural ? "laden eine Datei hoch" : "lädt eine Datei hoch"
        }
        return "\(subject) \(doing)"
    }
}

enum FrenchRules: LanguageRules {
    static func replying(_ count: Int) -> String { count == 1 ? "1 personne répond" : "\(count) personnes répondent" }
    static let someone = "Quelqu'un"
    static func people(_ count: Int) -> String { "\(count) personnes" }
    static func pair(_ first: String, _ second: String) -> String { "\(first) et \(second)" }
    static func triple(_ first: String, _ second: String, _ third: String) -> String { "\(first), \(second) et \(third)" }
    static func twoAndOthers(_ first: String, _ second: String, others: Int) -> String {
        "\(first), \(second) et \(otherCount(others))"
    }
    static func oneAndOthers(_ first: String, others: Int) -> String { "\(first) et \(otherCount(others))" }
    private static func otherCount(_ count: Int) -> String { count == 1 ? "1 autre personne" : "\(count) autres personnes" }

    static func sentence(subject: String, plural: Bool, activity: Activity) -> String {
        let doing: String
        switch activity {
        case .none, .typing: doing = plural ? "sont en train d'écrire" : "est en train d'écrire"
        case .thinking: doing = plural ? "réfléchissent" : "réfléchit"
        case .toolUse(let tool): doing = (plural ? "utilisent " : "utilise ") + (tool ?? "un outil")
        case .recordingAudio: doing = plural ? "enregistrent un message audio" : "enregistre un message audio"
        case .uploading: doing = plural ? "envoient un fichier" : "envoie un fichier"
        }
        return "\(subject) \(doing)"
    }
}

enum SpanishRules: LanguageRules {
    static func replying(_ count: Int) -> String {
        count == 1 ? "1 persona está respondiendo" : "\(count) personas están respondiendo"
    }
    static let someone = "Alguien"
    static func people(_ count: Int) -> String { "\(count) personas" }
    static func pair(_ first: String, _ second: String) -> String { "\(first) \(and(before: second)) \(second)" }
    static func triple(_ first: String, _ second: String, _ third: String) -> String {
        "\(first), \(second) \(and(before: third)) \(third)"
    }
    static func twoAndOthers(_ first: String, _ second: String, others: Int) -> String {
        "\(first), \(second) y \(otherCount(others))"
    }
    static func oneAndOthers(_ first: String, others: Int) -> String { "\(first) y \(otherCount(others))" }
    private static func otherCount(_ count: Int) -> String { count == 1 ? "1 persona más" : "\(count) personas más" }

    /// "y" becomes "e" before a word that begins with the sound /i/ ("Bob e Isabel", "Ana e Hilda"),
    /// but not before a diphthong ("Ana y Hielo").
    static func and(before word: String) -> String {
        var letters = Substring(word.lowercased())
        if letters.first == "h" { letters = letters.dropFirst() }
        guard let first = letters.first, first == "i" || first == "í" else { return "y" }
        let startsDiphthong = first == "i" && letters.dropFirst().first.map { "aeou".contains($0) } == true
        return startsDiphthong ? "y" : "e"
    }

    static func sentence(subject: String, plural: Bool, activity: Activity) -> String {
        let verb = plural ? "están" : "está"
        let doing: String
        switch activity {
        case .none, .typing: doing = "escribiendo"
        case .thinking: doing = "pensando"
        case .toolUse(let tool): doing = "usando \(tool ?? "una herramienta")"
        case .recordingAudio: doing = "grabando audio"
        case .uploading: doing = "subiendo un archivo"
        }
        return "\(subject) \(verb) \(doing)"
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

    static func sentence(subject: String, plural: Bool, activity: Activity) -> String {
        let doing: String
        switch activity {
        case .none, .typing: doing = "入力中"
        case .thinking: doing = "考え中"
        case .toolUse(let tool): doing = "\(tool ?? "ツール")を使用中"
        case .recordingAudio: doing = "録音中"
        case .uploading: doing = "ファイルをアップロード中"
        }
        return "\(subject)が\(doing)"
    }
}
