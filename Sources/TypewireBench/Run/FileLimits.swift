#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open files (RLIMIT_NOFILE), which its children inherit.
enum FileLimits {
    /// Raises the soft and hard limits to at least `count`; as root the hard limit can be raised too.
    static func raise(to count: UInt64) throws(BenchError) {
        var limits = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits)
        guard limits.rlim_cur < count else { return }
        var wanted = rlimit(rlim_cur: rlim_t(count), rlim_max: max(limits.rlim_max, rlim_t(count)))
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &wanted) != 0 {
            wanted = rlimit(rlim_cur: min(rlim_t(count), limits.rlim_max), rlim_max: limits.rlim_max)
            guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &wanted) == 0, wanted.rlim_cur >= count else {
                throw BenchError("Cannot raise the open-file limit to \(count) (it is \(limits.rlim_cur), at most \(limits.rlim_max)); run as root or `ulimit -n \(count)` first, or open fewer connections.")
            }
        }
    }
}
