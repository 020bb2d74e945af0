import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The scheduling priority of the calling thread.
enum ThreadPriority {
    /// Gives the calling thread the lowest priority (nice 19; on Linux nice is per thread), so that it runs
    /// when the process's other threads have nothing to do. Does nothing where that cannot be done.
    static func lowest() {
        #if canImport(Glibc)
            // The thread's id, from `/proc/thread-self` (`PID/task/TID`): Swift does not import `gettid`.
            guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"),
                let thread = link.split(separator: "/").last.flatMap({ id_t($0) })
            else { return }
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, 19)
        #endif
    }
}
