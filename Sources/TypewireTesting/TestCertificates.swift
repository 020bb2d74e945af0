import Foundation

/// A certificate authority and a server certificate it signed, for `localhost` and 127.0.0.1, made with the
/// `openssl` command in a folder of their own (TLS tests of the NATS bus).
public struct TestCertificates: Sendable {
    /// The authority's certificate (PEM): what a client trusts.
    public let authority: String
    /// The server's certificate (PEM).
    public let certificate: String
    /// The server's private key (PEM).
    public let key: String

    /// Makes a fresh authority and server certificate, valid for two days.
    public static func make() throws -> TestCertificates {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-tls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: path("san.cnf"), atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(
            ["req", "-x509"] + ec + ["-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2", "-subj", "/CN=Typewire test CA"])
        try run(["req"] + ec + ["-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=localhost"])
        try run([
            "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-CAcreateserial",
            "-out", path("server.pem"), "-days", "2", "-extfile", path("san.cnf"),
        ])
        return TestCertificates(authority: path("ca.pem"), certificate: path("server.pem"), key: path("server.key"))
    }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NATSTestServerError("openssl \(arguments.first ?? "") failed: \(String(decoding: output, as: UTF8.self).suffix(500))")
        }
    }
}
