// How far one of the user's messages has gone, said for its ticks in the ten built-in languages: "Sent",
// "Delivered", "Read" (``ReadState/Progress``), as a messaging app's status line under a message says them.

/// One language's words for a message's progress.
struct ProgressWords: Sendable {
    let sent: String
    let delivered: String
    let read: String

    func callAsFunction(_ progress: ReadState.Progress) -> String {
        switch progress {
        case .sent: sent
        case .delivered: delivered
        case .read: read
        }
    }
}

extension EnglishRules {
    static let progressWords = ProgressWords(sent: "Sent", delivered: "Delivered", read: "Read")
}

extension GermanRules {
    static let progressWords = ProgressWords(sent: "Gesendet", delivered: "Zugestellt", read: "Gelesen")
}

extension FrenchRules {
    static let progressWords = ProgressWords(sent: "Envoyé", delivered: "Distribué", read: "Lu")
}

extension SpanishRules {
    static let progressWords = ProgressWords(sent: "Enviado", delivered: "Entregado", read: "Leído")
}

extension JapaneseRules {
    static let progressWords = ProgressWords(sent: "送信済み", delivered: "配信済み", read: "既読")
}

extension ArabicRules {
    static let progressWords = ProgressWords(sent: "تم الإرسال", delivered: "تم التسليم", read: "تمت القراءة")
}

extension PortugueseRules {
    static let progressWords = ProgressWords(sent: "Enviada", delivered: "Entregue", read: "Lida")
}

extension ItalianRules {
    static let progressWords = ProgressWords(sent: "Inviato", delivered: "Consegnato", read: "Letto")
}

extension SimplifiedChineseRules {
    static let progressWords = ProgressWords(sent: "已发送", delivered: "已送达", read: "已读")
}

extension KoreanRules {
    static let progressWords = ProgressWords(sent: "전송됨", delivered: "전달됨", read: "읽음")
}
