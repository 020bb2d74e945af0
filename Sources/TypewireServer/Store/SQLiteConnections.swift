import Atomics
import Logging
import NIOPosix
import SQLiteNIO

/// The connections of one SQLite file: one writer, whose work runs in turns, and readers beside it.
///
/// - Every write, a single statement or a whole transaction (`BEGIN IMMEDIATE` … `COMMIT`), runs in a
///   turn of its own on the writer connection (``AsyncTurns``), so no other statement ever lands inside
///   a transaction and a `ROLLBACK` undoes only its own work.
/// - Reads run on reader connections (WAL mode lets them read beside the writer), so a read never waits
///   behind a write's `fsync`. A write that returned is seen by every read that starts after it.
/// - The connections run on thread pools of this file's own (one thread for the writer, one per
///   reader), not on sqlite-nio's process-wide `NIOThreadPool.singleton`: another store's disk writes
///   never delay this one.
///
/// `:memory:` has a single connection (each connection to it would be a database of its own): reads
/// then take turns with the writes.
final class SQLiteConnections: Sendable {
    /// How many reader connections a file gets.
    static let readerCount = 2

    private let writer: SQLiteConnection
    private let readers: [SQLiteConnection]
    private let pools: [NIOThreadPool]
    private let turns = AsyncTurns()
    private let inMemory: Bool
    private let nextReader = ManagedAtomic<Int>(0)

    private init(writer: SQLiteConnection, readers: [SQLiteConnection], pools: [NIOThreadPool], inMemory: Bool) {
        self.writer = writer
        self.readers = readers
        self.pools = pools
        self.inMemory = inMemory
    }

    /// Opens the writer, runs `prepare` on it (migrations), then opens the readers.
    static func open(
        path: String, logger: Logger, prepare: (SQLiteConnections) async throws -> Void
    ) async throws -> SQLiteConnections {
        let inMemory = path == ":memory:"
        let storage: SQLiteConnection.Storage = inMemory ? .memory : .file(path: path)
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()  // where sqlite-nio completes its futures
        let writerPool = NIOThreadPool(numberOfThreads: 1)
        writerPool.start()
        var pools = [writerPool]
        var opened: [SQLiteConnection] = []
        do {
            let writer = try await SQLiteConnection.open(storage: storage, threadPool: writerPool, logger: logger, on: eventLoop)
            opened.append(writer)
            if !inMemory {
                // WAL: readers read beside the writer. FULL: a commit is on disk before the write returns,
                // so an acknowledged message survives a power loss too.
                _ = try await writer.query("PRAGMA journal_mode = WAL")
                _ = try await writer.query("PRAGMA synchronous = FULL")
            }
            _ = try await writer.query("PRAGMA foreign_keys = ON")
            // Waits for a lock with a timeout instead of sqlite-nio's busy handler, which retries at once, for ever.
            _ = try await writer.query("PRAGMA busy_timeout = 5000")
            let partial = SQLiteConnections(writer: writer, readers: [], pools: pools, inMemory: inMemory)
            try await prepare(partial)
            var readers: [SQLiteConnection] = []
            if !inMemory {
                for _ in 0..<readerCount {
                    let pool = NIOThreadPool(numberOfThreads: 1)
                    pool.start()
                    pools.append(pool)
                    let reader = try await SQLiteConnection.open(storage: storage, threadPool: pool, logger: logger, on: eventLoop)
                    opened.append(reader)
                    readers.append(reader)
                    _ = try await reader.query("PRAGMA busy_timeout = 5000")
                    _ = try await reader.query("PRAGMA query_only = 1")
                }
            }
            return SQLiteConnections(writer: writer, readers: readers, pools: pools, inMemory: inMemory)
        } catch {
            for connection in opened { try? await connection.close() }
            for pool in pools { try? await pool.shutdownGracefully() }
            throw error
        }
    }

    /// Closes every connection and stops the threads.
    func close() async throws {
        try await turns.run {
            for reader in readers { try await reader.close() }
            try await writer.close()
        }
        for pool in pools { try await pool.shutdownGracefully() }
    }

    /// Runs reads on a reader connection.
    func read<T>(_ body: (SQLiteConnection) async throws -> T) async throws -> T {
        if inMemory || readers.isEmpty { return try await turns.run { try await body(writer) } }
        let index = nextReader.loadThenWrappingIncrement(ordering: .relaxed)
        return try await body(readers[index % readers.count])
    }

    /// Runs statements on the writer in one turn, each committed on its own (no transaction around them).
    func write<T>(_ body: (SQLiteConnection) async throws -> T) async throws -> T {
        try await turns.run { try await body(writer) }
    }

    /// Runs statements on the writer as one transaction in one turn: all of them are committed, or none.
    func transaction<T>(_ body: (SQLiteConnection) async throws -> T) async throws -> T {
        try await turns.run {
            _ = try await writer.query("BEGIN IMMEDIATE")
            do {
                let result = try await body(writer)
                _ = try await writer.query("COMMIT")
                return result
            } catch {
                _ = try? await writer.query("ROLLBACK")
                throw error
            }
        }
    }
}
