import TypewireCore

/// What a person is told when a request fails: a short sentence per kind of failure, in each built-in
/// language (``/TypewireCore/TypingLocale/all``), for an alert or a "Not sent" note: ``TypewireClientError``'s
/// `localizedDescription`. What a developer needs (the server's own explanation) stays in
/// ``TypewireClientError/message``.
///
/// The sentences are kept in code, not in a strings file, so the client needs no resource bundle (the
/// server's binary links it too).
public enum ErrorText: String, CaseIterable, Hashable, Sendable {
    /// The message is longer than the server takes (`too_large`).
    case tooLong
    /// Past the server's rate (`rate_limited`).
    case tooFast
    /// Not a member, or not allowed (`unknown_conversation`, `forbidden`).
    case notAllowed
    /// The token was refused (`unauthorized`) or the app's token provider failed.
    case signIn
    /// The server's store could not answer (`unavailable`).
    case unavailable
    /// A bot's part after its reply ended (`turn_ended`).
    case replyEnded
    /// A typing-only server keeps no messages (`messages_disabled`).
    case notKept
    /// The conversation was closed before the request was done.
    case closed
    /// The user signed out.
    case signedOut
    /// Anything else: a frame the server could not read (a bug to report, not the user's to fix).
    case failed

    /// The kind of failure a client error is.
    public init(_ error: TypewireClientError) {
        switch error.reason {
        case .server(.tooLarge): self = .tooLong
        case .server(.rateLimited): self = .tooFast
        case .server(.unknownConversation), .server(.forbidden): self = .notAllowed
        case .server(.unauthorized), .tokenProvider: self = .signIn
        case .server(.unavailable): self = .unavailable
        case .server(.turnEnded): self = .replyEnded
        case .server(.messagesDisabled): self = .notKept
        case .closed: self = .closed
        case .signedOut: self = .signedOut
        case .server: self = .failed
        }
    }

    /// The sentence in the app's language (`TypingLocale.appLanguage`).
    public var text: String { text(in: TypingLocale.appLanguage) }

    /// The sentence in one language (`"de"`, `"pt-BR"`); English in a language not built in.
    public func text(in language: String) -> String {
        let language = TypingLocale(identifier: language)?.identifier ?? "en"
        return switch self {
        case .tooLong:
            switch language {
            case "de": "Diese Nachricht ist zu lang."
            case "fr": "Ce message est trop long."
            case "es": "Este mensaje es demasiado largo."
            case "ja": "メッセージが長すぎます。"
            case "ar": "هذه الرسالة طويلة جدًا."
            case "pt": "Esta mensagem é muito longa."
            case "it": "Questo messaggio è troppo lungo."
            case "zh-Hans": "消息太长。"
            case "ko": "메시지가 너무 깁니다."
            default: "This message is too long."
            }
        case .tooFast:
            switch language {
            case "de": "Du sendest zu schnell. Versuche es gleich noch einmal."
            case "fr": "Vous envoyez trop vite. Réessayez dans un instant."
            case "es": "Estás enviando demasiado rápido. Inténtalo de nuevo en un momento."
            case "ja": "送信が速すぎます。しばらくしてからもう一度お試しください。"
            case "ar": "أنت ترسل بسرعة كبيرة. حاول مرة أخرى بعد قليل."
            case "pt": "Você está enviando rápido demais. Tente novamente em instantes."
            case "it": "Stai inviando troppo velocemente. Riprova tra un momento."
            case "zh-Hans": "发送太频繁，请稍后再试。"
            case "ko": "너무 빠르게 보내고 있습니다. 잠시 후 다시 시도하세요."
            default: "You're sending too fast. Try again in a moment."
            }
        case .notAllowed:
            switch language {
            case "de": "Du kannst in dieser Unterhaltung keine Nachrichten senden."
            case "fr": "Vous ne pouvez pas envoyer de messages dans cette conversation."
            case "es": "No puedes enviar mensajes en esta conversación."
            case "ja": "この会話にはメッセージを送信できません。"
            case "ar": "لا يمكنك إرسال رسائل في هذه المحادثة."
            case "pt": "Você não pode enviar mensagens nesta conversa."
            case "it": "Non puoi inviare messaggi in questa conversazione."
            case "zh-Hans": "你无法在此对话中发送消息。"
            case "ko": "이 대화에서는 메시지를 보낼 수 없습니다."
            default: "You can't send messages in this conversation."
            }
        case .signIn:
            switch language {
            case "de": "Anmeldung fehlgeschlagen. Versuche es noch einmal."
            case "fr": "Connexion impossible. Réessayez."
            case "es": "No se pudo iniciar sesión. Inténtalo de nuevo."
            case "ja": "サインインできませんでした。もう一度お試しください。"
            case "ar": "تعذّر تسجيل الدخول. حاول مرة أخرى."
            case "pt": "Não foi possível entrar. Tente novamente."
            case "it": "Impossibile accedere. Riprova."
            case "zh-Hans": "无法登录，请重试。"
            case "ko": "로그인할 수 없습니다. 다시 시도하세요."
            default: "Couldn't sign in. Try again."
            }
        case .unavailable:
            switch language {
            case "de": "Der Dienst ist nicht verfügbar. Versuche es später noch einmal."
            case "fr": "Le service est indisponible. Réessayez plus tard."
            case "es": "El servicio no está disponible. Inténtalo de nuevo más tarde."
            case "ja": "サービスを利用できません。後でもう一度お試しください。"
            case "ar": "الخدمة غير متاحة. حاول مرة أخرى لاحقًا."
            case "pt": "O serviço está indisponível. Tente novamente mais tarde."
            case "it": "Il servizio non è disponibile. Riprova più tardi."
            case "zh-Hans": "服务不可用，请稍后再试。"
            case "ko": "서비스를 사용할 수 없습니다. 나중에 다시 시도하세요."
            default: "The service is unavailable. Try again later."
            }
        case .replyEnded:
            switch language {
            case "de": "Diese Antwort ist bereits beendet."
            case "fr": "Cette réponse est déjà terminée."
            case "es": "Esta respuesta ya ha terminado."
            case "ja": "この返信はすでに終了しています。"
            case "ar": "انتهى هذا الرد بالفعل."
            case "pt": "Esta resposta já terminou."
            case "it": "Questa risposta è già terminata."
            case "zh-Hans": "此回复已结束。"
            case "ko": "이 답장은 이미 끝났습니다."
            default: "This reply has already ended."
            }
        case .notKept:
            switch language {
            case "de": "Hier können keine Nachrichten gesendet werden."
            case "fr": "Impossible d'envoyer des messages ici."
            case "es": "Aquí no se pueden enviar mensajes."
            case "ja": "ここではメッセージを送信できません。"
            case "ar": "لا يمكن إرسال رسائل هنا."
            case "pt": "Não é possível enviar mensagens aqui."
            case "it": "Qui non è possibile inviare messaggi."
            case "zh-Hans": "无法在此发送消息。"
            case "ko": "여기에서는 메시지를 보낼 수 없습니다."
            default: "Messages can't be sent here."
            }
        case .closed:
            switch language {
            case "de": "Die Unterhaltung wurde geschlossen, bevor die Nachricht gesendet wurde."
            case "fr": "La conversation a été fermée avant l'envoi du message."
            case "es": "La conversación se cerró antes de enviar el mensaje."
            case "ja": "メッセージの送信前に会話が閉じられました。"
            case "ar": "أُغلقت المحادثة قبل إرسال الرسالة."
            case "pt": "A conversa foi fechada antes de a mensagem ser enviada."
            case "it": "La conversazione è stata chiusa prima dell'invio del messaggio."
            case "zh-Hans": "消息发送前对话已关闭。"
            case "ko": "메시지를 보내기 전에 대화가 닫혔습니다."
            default: "The conversation was closed before the message was sent."
            }
        case .signedOut:
            switch language {
            case "de": "Du bist abgemeldet."
            case "fr": "Vous êtes déconnecté."
            case "es": "Has cerrado sesión."
            case "ja": "サインアウトしています。"
            case "ar": "لقد سجّلت الخروج."
            case "pt": "Você saiu da sua conta."
            case "it": "Sei disconnesso."
            case "zh-Hans": "你已退出登录。"
            case "ko": "로그아웃되었습니다."
            default: "You're signed out."
            }
        case .failed:
            switch language {
            case "de": "Etwas ist schiefgelaufen. Versuche es noch einmal."
            case "fr": "Une erreur s'est produite. Réessayez."
            case "es": "Algo salió mal. Inténtalo de nuevo."
            case "ja": "問題が発生しました。もう一度お試しください。"
            case "ar": "حدث خطأ ما. حاول مرة أخرى."
            case "pt": "Algo deu errado. Tente novamente."
            case "it": "Qualcosa è andato storto. Riprova."
            case "zh-Hans": "出了点问题，请重试。"
            case "ko": "문제가 발생했습니다. 다시 시도하세요."
            default: "Something went wrong. Try again."
            }
        }
    }
}
