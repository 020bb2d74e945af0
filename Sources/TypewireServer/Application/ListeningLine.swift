import Foundation

/// The one machine-readable line a server prints on standard output once it listens, so that scripts
/// and tests read its port the same way: `typewire listening http://127.0.0.1:8080`.
///
/// `typewire serve` and `typewire relay` print it; ``port(in:)`` reads it back (the Python harness in
/// `Tests/Support/typewire_server.py` reads the same line).
public enum ListeningLine {
    /// What the line starts with.
    public static let prefix = "typewire listening "

    /// The line for a server bound to `host` and `port` (an IPv6 host in brackets).
    public static func line(host: String, port: Int) -> String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "\(prefix)http://\(shown):\(port)"
    }

    /// Writes the line on standard output at once, unbuffered (`print` to a pipe waits for a full block).
    public static func announce(host: String, port: Int) {
        FileHandle.standardOutput.write(Data((line(host: host, port: port) + "\n").utf8))
    }

    /// The port of the first listening line in a process's output, if it printed one yet.
    public static func port(in output: String) -> Int? {
        for line in output.split(separator: "\n") where line.hasPrefix(prefix) {
            guard let colon = line.lastIndex(of: ":"), let port = Int(line[line.index(after: colon)...]) else { continue }
            return port
        }
        return nil
    }
}
