#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open files (RLIMIT_NOFILE): each socket takes one, so it caps a node's sockets.
enum OpenFileLimit {
    /// Raises the soft limit to the hard one (no privilege needed).
    /// - Returns: The limit before and after.
    static func raiseToHard() -> (before: UInt64, after: UInt64) {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return (0, 0) }
        let before = UInt64(limits.rlim_cur)
        guard limits.rlim_cur < limits.rlim_max else { return (before, before) }
        var raised = rlimit(rlim_cur: limits.rlim_max, rlim_max: limits.rlim_max)
        // macOS refuses a soft limit above OPEN_MAX even when the hard limit is "unlimited".
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) != 0 { return (before, before) }
        return (before, UInt64(raised.rlim_cur))
    }
}
