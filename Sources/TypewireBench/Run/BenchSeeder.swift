import Logging
import TypewireServer

/// Writes the benchmark's users and conversations into a Typewire SQLite file or a cluster's PostgreSQL database: conversation `c<i>` with
/// members `u<i>-<j>`, and after them the reconnect storm's (``SocketPlan/stormSockets(of:)``). Conversations already there are left alone, so seeding a file twice is harmless.
public enum BenchSeeder {
    /// Seeds the file; `options` says how many conversations and members.
    public static func seed(sqlite path: String, options: BenchOptions) async throws {
        let store: SQLiteChatStore
        do {
            store = try await SQLiteChatStore.open(path: path, logger: Logger(label: "typewire.bench.seed"))
        } catch {
            throw BenchError("Cannot open the SQLite file '\(path)' to seed it (\(error)); its folder must exist and be writable.")
        }
        do {
            try await seed(store, options: options)
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    /// Seeds a cluster's PostgreSQL database.
    public static func seed(postgres url: String, options: BenchOptions) async throws {
        let store: PostgresChatStore
        do {
            store = try await PostgresChatStore.open(url: url, logger: Logger(label: "typewire.bench.seed"))
        } catch {
            throw BenchError("Cannot open the PostgreSQL database '\(url)' to seed it (\(error)).")
        }
        do {
            try await seed(store, options: options)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    private static func seed(_ store: any ChatStore, options: BenchOptions) async throws {
        let storm = (options.storm + SocketPlan.stormMembers - 1) / SocketPlan.stormMembers
        for conversation in 0..<(options.conversations + storm) where try await store.conversation("c\(conversation)") == nil {
            let count = conversation < options.conversations ? options.members : SocketPlan.stormMembers
            let members = (0..<count).map { "u\(conversation)-\($0)" }
            for member in members { try await store.upsertUser(Identity(userID: member, name: member)) }
            _ = try await store.createConversation(
                id: "c\(conversation)", kind: .group, title: "bench \(conversation)", creator: members[0], members: members
            )
        }
    }
}
