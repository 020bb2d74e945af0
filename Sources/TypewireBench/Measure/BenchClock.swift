#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The clocks the benchmark reads.
enum BenchClock {
    /// CLOCK_MONOTONIC in nanoseconds: one clock for every process on the machine, so a worker process
    /// can measure a frame that another process stamped.
    static func monotonicNanos() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// The wall clock in milliseconds since 1970, as the server stamps `expiresAt`.
    static func wallMillis() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
