import Foundation

/// A process's CPU time and resident memory, read from /proc.
public enum ProcessStats {
    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// User plus system CPU seconds of a process (`nil`: this one), from `/proc/PID/stat`.
    public static func cpuSeconds(of pid: Int32?) -> Double? {
        cpuTimes(of: pid).map { $0.user + $0.system }
    }

    /// A process's user and system (kernel) CPU seconds (`nil`: this one), from `/proc/PID/stat`.
    public static func cpuTimes(of pid: Int32?) -> (user: Double, system: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid.map(String.init) ?? "self")/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After the command's closing parenthesis: field 3 (state) is first, so utime (14) and stime (15) are 11 and 12.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user / ticksPerSecond, system / ticksPerSecond)
    }

    /// Resident memory of a process in KiB (`VmRSS` in `/proc/PID/status`).
    public static func residentKiB(of pid: Int32?) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid.map(String.init) ?? "self")/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
    }
}
