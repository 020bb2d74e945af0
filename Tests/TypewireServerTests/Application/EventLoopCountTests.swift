import Foundation
import Testing

@testable import TypewireServer

@Suite("EventLoopCount: one loop per CPU the process may run on")
struct EventLoopCountTests {
    @Test(arguments: [
        ("Name:\ttypewire\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n", 2),
        ("Cpus_allowed:\t1\n", 1),
        ("Cpus_allowed:\t00000000,00000000,00000000,0000000f\n", 4),
        ("Cpus_allowed:\tff,00000001\n", 9),
    ])
    func readsTheMaskOfProcessStatus(status: String, count: Int) {
        #expect(EventLoopCount.allowedCPUs(inProcessStatus: status) == count)
    }

    @Test(arguments: ["Name:\ttypewire\n", "Cpus_allowed:\tzz\n", ""])
    func aStatusWithoutAReadableMaskGivesNil(status: String) {
        #expect(EventLoopCount.allowedCPUs(inProcessStatus: status) == nil)
    }

    /// The mask read here agrees with the kernel's own list of the same CPUs (`Cpus_allowed_list`: `0-1,4`).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
    func thisProcessesMaskIsTheKernelsListOfItsCPUs() throws {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let list = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        let listed = list.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces).split(separator: ",").map { range in
            let bounds = range.split(separator: "-").compactMap { Int($0) }
            return (bounds.last ?? 0) - (bounds.first ?? 0) + 1
        }
        #expect(EventLoopCount.allowedCPUs(inProcessStatus: status) == listed.reduce(0, +))
    }

    @Test func fewerAllowedCPUsThanCoresAreSuggested() {
        #expect(EventLoopCount.suggestion(coreCount: 2, allowedCPUs: 1, environment: [:]) == 1)
        #expect(EventLoopCount.suggestion(coreCount: 16, allowedCPUs: 4, environment: ["PATH": "/bin"]) == 4)
    }

    @Test func otherwiseNIOsChoiceStands() {
        #expect(EventLoopCount.suggestion(coreCount: 2, allowedCPUs: 2, environment: [:]) == nil, "all of them")
        #expect(EventLoopCount.suggestion(coreCount: 2, allowedCPUs: 4, environment: [:]) == nil, "a quota NIO read below the mask")
        #expect(EventLoopCount.suggestion(coreCount: 2, allowedCPUs: nil, environment: [:]) == nil, "no mask")
        #expect(EventLoopCount.suggestion(coreCount: 2, allowedCPUs: 0, environment: [:]) == nil)
        #expect(
            EventLoopCount.suggestion(coreCount: 2, allowedCPUs: 1, environment: ["NIO_SINGLETON_GROUP_LOOP_COUNT": "2"]) == nil,
            "NIO's own setting wins")
    }
}
