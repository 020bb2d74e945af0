import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process for tests, started with `posix_spawn` directly, its output appended to a log file.
///
/// Foundation's `Process.run()` reads `/proc/self/fd` to close the parent's descriptors in the child and
/// over-reads a buffer while doing so: it crashes now and then (swift-corelibs-foundation #5472, fixed after
/// the Swift 6.3.1 this project builds with). A fresh-clone CI run of the tests crashed there. This starts the
/// child with `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later), so it holds none of the
/// parent's sockets, and reaps it with `waitpid`.
public final class SpawnedProcess: Sendable {
    /// The child's process id.
    public let processIdentifier: pid_t
    private let exit = NSLock()
    private nonisolated(unsafe) var exitStatus: Int32?

    private init(processIdentifier: pid_t) {
        self.processIdentifier = processIdentifier
    }

    /// Why a child could not start.
    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `executable` with `arguments`, its standard output and error appended to `log`, and the
    /// parent's environment.
    public static func spawn(_ executable: String, arguments: [String], log: URL) throws -> SpawnedProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard result == 0 else { throw SpawnError(description: "posix_spawn \(executable) failed: \(String(cString: strerror(result)))") }
        return SpawnedProcess(processIdentifier: pid)
    }

    /// Whether the child still runs (it is reaped once it has exited).
    public var isRunning: Bool {
        exit.withLock {
            guard exitStatus == nil else { return false }
            var status: Int32 = 0
            let reaped = waitpid(processIdentifier, &status, WNOHANG)
            if reaped == processIdentifier || reaped == -1 { exitStatus = status }
            return exitStatus == nil
        }
    }

    /// Sends SIGTERM.
    public func terminate() {
        _ = kill(processIdentifier, SIGTERM)
    }

    /// Sends a signal.
    public func signal(_ signal: Int32) {
        _ = kill(processIdentifier, signal)
    }

    deinit {
        if exitStatus == nil {
            _ = kill(processIdentifier, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(processIdentifier, &status, 0)
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not declare.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
}
