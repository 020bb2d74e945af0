import Foundation
import NIOCore

/// How many event loops a `typewire` process runs by default: one per CPU it may run on.
///
/// NIO sizes its loop group by the machine's cores, or by a container's CPU quota or cpuset, but not by the
/// process's affinity mask (`taskset`, `numactl`, systemd's `CPUAffinity=`). A server pinned to one core of
/// two then runs two loops on that core, and every hop between them (a frame from its socket's loop to its
/// conversation's shard, and on to the subscribers' loops) is a context switch: about a tenth of the CPU
/// per delivery in the tail scenario (docs/BENCHMARKS.md, "One loop per allowed CPU").
///
/// `NIO_SINGLETON_GROUP_LOOP_COUNT`, NIO's own setting, wins when it is set; `--threads` still sizes the
/// server's loops (``ServerConfiguration/threads``).
public enum EventLoopCount {
    /// The loop count to suggest to NIO: the CPUs the process may run on, when fewer than NIO's count; nil
    /// leaves NIO's choice (also when the environment sets it).
    static func suggestion(coreCount: Int, allowedCPUs: Int?, environment: [String: String]) -> Int? {
        guard environment["NIO_SINGLETON_GROUP_LOOP_COUNT"] == nil, let allowedCPUs, allowedCPUs >= 1, allowedCPUs < coreCount else {
            return nil
        }
        return allowedCPUs
    }

    /// The CPUs in the affinity mask of `/proc/self/status`'s `Cpus_allowed` line (hexadecimal words, commas
    /// between them), or nil without one.
    static func allowedCPUs(inProcessStatus status: String) -> Int? {
        for line in status.split(separator: "\n") where line.hasPrefix("Cpus_allowed:") {
            var count = 0
            for character in line.dropFirst("Cpus_allowed:".count) where character != "," && !character.isWhitespace {
                guard let nibble = character.hexDigitValue else { return nil }
                count += nibble.nonzeroBitCount
            }
            return count
        }
        return nil
    }

    /// Sets NIO's suggestion for its singleton loop group from this process's affinity mask (Linux; nothing
    /// elsewhere). Call it first thing in `main`, before anything uses NIO's singletons: NIO takes the
    /// suggestion once, and only before the group exists.
    public static func suggestForThisProcess() {
        #if os(Linux)
            let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let allowed = status.flatMap(allowedCPUs(inProcessStatus:))
            if let count = suggestion(coreCount: System.coreCount, allowedCPUs: allowed, environment: ProcessInfo.processInfo.environment) {
                NIOSingletons.groupLoopCountSuggestion = count
            }
        #endif
    }
}
