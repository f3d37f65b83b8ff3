import Foundation

/// The bench's own certificates, made with the `openssl` command at start-up (as
/// Tests/Servers/testservers.py does): a private CA, and a server certificate it signed for
/// 127.0.0.1 (EC P-256, valid for two days) that nginx's TLS port presents. Every client
/// verifies against the CA: nothing turns verification off.
struct TLSFiles {
    /// The CA certificate alone, in PEM: the file clients trust.
    let caPath: String
    let certificatePath: String
    let keyPath: String

    static let installHint = "the openssl command is missing; the TLS cases (h1s, h2, tls-connect) need it "
        + "(Debian: apt-get install openssl)"

    /// Makes the files in `directory` (which must exist).
    static func make(in directory: String) throws -> TLSFiles {
        guard let openssl = locateOpenSSL() else { throw BenchError(installHint) }
        let files = TLSFiles(caPath: directory + "/ca.pem", certificatePath: directory + "/server.pem",
                             keyPath: directory + "/server.key")
        let caKey = directory + "/ca.key", request = directory + "/server.csr", extensions = directory + "/server.ext"
        try Data("""
            basicConstraints=CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth
            subjectAltName=IP:127.0.0.1

            """.utf8).write(to: URL(fileURLWithPath: extensions))
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let commands = [
            ["req", "-x509"] + ec + ["-keyout", caKey, "-out", files.caPath, "-days", "2", "-subj", "/CN=salvo-bench CA",
                                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
            ["req"] + ec + ["-keyout", files.keyPath, "-out", request, "-subj", "/CN=127.0.0.1"],
            ["x509", "-req", "-in", request, "-CA", files.caPath, "-CAkey", caKey, "-CAcreateserial",
             "-out", files.certificatePath, "-days", "2", "-extfile", extensions],
        ]
        for arguments in commands {
            try run(openssl, arguments)
        }
        return files
    }

    /// A bundle of the system's CA certificates with the bench's CA appended, written beside
    /// the CA: what a program that trusts the system's bundle parses, and still able to
    /// verify the bench's nginx.
    ///
    /// - Parameter systemBundle: The system's bundle (libcurl's built-in `CURLOPT_CAINFO`).
    func systemBundleWithCA(_ systemBundle: String) throws -> String {
        let path = (caPath as NSString).deletingLastPathComponent + "/system-and-bench-ca.pem"
        var bundle = try Data(contentsOf: URL(fileURLWithPath: systemBundle))
        if bundle.last != UInt8(ascii: "\n") { bundle.append(UInt8(ascii: "\n")) }
        bundle.append(try Data(contentsOf: URL(fileURLWithPath: caPath)))
        try bundle.write(to: URL(fileURLWithPath: path))
        return path
    }

    private static func locateOpenSSL() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/openssl" } + ["/usr/bin/openssl"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func run(_ openssl: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("openssl \(arguments.prefix(2).joined(separator: " ")) failed: "
                             + message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
