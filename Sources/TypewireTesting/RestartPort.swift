import Foundation
import TypewireServer

/// Ports for a test server that stops and starts again on the same port (its clients keep the address).
///
/// A port the kernel picks (`--port 0`) comes from its ephemeral range (32768-60999 on Linux), the range
/// every outgoing socket of the other tests running beside takes its local port from: between the two runs
/// one of them could hold the port, and the second run could not listen. A port below that range cannot be
/// taken that way; one that another test happens to use is tried again with another.
public enum RestartPort {
    /// How many ports a first run tries before it gives up.
    public static let attempts = 20

    /// A port below the ephemeral range.
    public static func pick() -> Int {
        Int.random(in: 20_000..<32_000)
    }
}

extension TestServer {
    /// ``run(folder:configure:wrapStore:isolation:_:)`` on a port below the ephemeral range
    /// (``RestartPort``), another one tried if it is taken: for a first run that a second run on the same
    /// port follows (`configure` it with the first run's `server.port`).
    public static func runOnRestartablePort(
        folder: URL, configure: (inout ServerConfiguration) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation, _ body: (TestServer) async throws -> Void
    ) async throws {
        for attempt in 1...RestartPort.attempts {
            let port = RestartPort.pick()
            do {
                return try await run(
                    folder: folder,
                    configure: {
                        configure(&$0)
                        $0.http.port = port
                    }, body)
            } catch let error as TestServerError
                where error.message == TestServerError.didNotStart.message && attempt < RestartPort.attempts
            {
                continue  // the port was taken: another one
            }
        }
    }
}
