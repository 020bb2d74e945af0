import SwiftUI
import TypewireUI

/// A sample chat app: the demo server's conversations as a list (``ConversationListModel``: last message,
/// the server's unread count, a swipe to mark unread) and each one's screen (`ConversationView`: messages,
/// "Alice is typing…", a bot's streamed reply, the composer).
///
/// Apple platforms only (SwiftUI, iOS 17 / macOS 14 API: `NavigationStack`, `navigationDestination(for:)`,
/// `swipeActions`, `@State` with an `@Observable` model); what it shows are properties of the SDK's models,
/// tested on Linux.
@main
struct TypewireChatApp: App {
    @State private var session = DemoSession(user: "alice")

    var body: some Scene {
        WindowGroup {
            ConversationsScreen(session: session)
                .task { await session.run() }
        }
    }
}

/// The list of the user's conversations, and a conversation's screen pushed on it.
struct ConversationsScreen: View {
    let session: DemoSession
    @State private var list: ConversationListModel

    init(session: DemoSession) {
        self.session = session
        _list = State(initialValue: ConversationListModel(client: session.client, conversations: DemoSession.conversations))
    }

    var body: some View {
        NavigationStack {
            List(list.rows) { row in
                NavigationLink(value: row.id) { RowView(row: row) }
                    .swipeActions {
                        Button("Unread") { Task { await list.markUnread(row.id) } }
                        Button("Read") { Task { await list.markRead(row.id) } }
                    }
            }
            .navigationTitle("Chats")
            .navigationDestination(for: String.self) { id in
                ConversationView(client: session.client, conversationID: id, userID: session.userID)
                    .navigationTitle(list.rows.first { $0.id == id }?.title ?? "")
            }
        }
        .task { await list.appear() }
        .onDisappear { Task { await list.disappear() } }
    }
}

/// One row: the title, the last message, the server's unread count.
struct RowView: View {
    let row: ConversationListModel.Row

    var body: some View {
        HStack {
            VStack(alignment: .leading) {
                Text(row.title).font(.headline)
                Text(row.lastMessage?.text ?? "").font(.subheadline).foregroundStyle(.secondary).lineLimit(1)
            }
            Spacer()
            if row.unreadCount > 0 {
                Text(row.unreadCount >= WireProtocol.maxUnreadCount ? "999+" : "\(row.unreadCount)")
                    .font(.caption.bold()).foregroundStyle(.white)
                    .padding(.horizontal, 7).padding(.vertical, 2)
                    .background(Capsule().fill(.tint))
            }
        }
    }
}
