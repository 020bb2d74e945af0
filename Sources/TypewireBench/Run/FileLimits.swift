#if canImport(Glibc)
    import Glibc
#endif

/// The process's limit on open files (RLIMIT_NOFILE), which its children inherit.
enum FileLimits {
    /// Raises the soft and hard limits towards `wanted` (the hard limit too where the process may, with
    /// CAP_SYS_RESOURCE), and fails if they stay under `needed`.
    static func raise(to wanted: UInt64, atLeast needed: UInt64) throws(BenchError) {
        var limits = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits)
        guard limits.rlim_cur < wanted else { return }
        var raised = rlimit(rlim_cur: rlim_t(wanted), rlim_max: max(limits.rlim_max, rlim_t(wanted)))
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) != 0 {
            raised = rlimit(rlim_cur: min(rlim_t(wanted), limits.rlim_max), rlim_max: limits.rlim_max)
            guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0, raised.rlim_cur >= needed else {
                throw BenchError(
                    "Cannot raise the open-file limit to \(needed) (it is \(limits.rlim_cur), at most \(limits.rlim_max), and this process may not raise the hard limit); run with CAP_SYS_RESOURCE or `ulimit -Hn \(wanted)` first, or open fewer connections."
                )
            }
        }
    }
}
