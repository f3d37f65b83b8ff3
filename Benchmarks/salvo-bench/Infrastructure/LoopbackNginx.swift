import Foundation

/// An nginx of the bench's own on loopback: HTTP/1.1 on one port, h2c on another, and when
/// asked HTTPS (HTTP/1.1 or HTTP/2 by ALPN) on a third, all its files in a private temporary
/// directory. Stopped (and the directory removed) at cleanup.
final class LoopbackNginx: @unchecked Sendable { // no lock: immutable lets; Process calls used are thread-safe
    // `@unchecked Sendable`: every property is an immutable `let`, and the one object with
    // state, `Process`, is used only through calls Foundation makes thread-safe
    // (`isRunning`, `terminate()`, `waitUntilExit()`); cleanup may call `stop()` from the
    // signal queue.
    let http1URL: URL
    let h2cURL: URL
    /// `/small` on the TLS port, when nginx was started with one.
    let tlsURL: URL?
    /// The certificates of the TLS port; clients verify against `tls.caPath`.
    let tls: TLSFiles?
    /// The plain HTTP/1.1 port, which also serves the connection counters (`NginxStatus`).
    let statusPort: Int
    let version: String
    /// The directory nginx serves (the transfers suite writes its files there).
    let documentRoot: String
    private let process: Process

    /// Where nginx is, or `nil`: `$SALVO_BENCH_NGINX` when set, else the first on `PATH`,
    /// else /usr/sbin/nginx.
    static func locate() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment["SALVO_BENCH_NGINX"] {
            return FileManager.default.isExecutableFile(atPath: chosen) ? chosen : nil
        }
        let path = environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/nginx" } + ["/usr/sbin/nginx", "/usr/local/sbin/nginx"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static let installHint = """
        nginx is not installed; the dispatch, tls-connect and transfers suites need it.
        On Debian or Ubuntu: sudo apt-get install nginx-light (or run Scripts/setup.sh as root).
        """

    /// Starts nginx and waits until both ports answer.
    ///
    /// - Parameters:
    ///   - executable: nginx's path.
    ///   - directory: The private directory for its configuration, files and logs.
    ///   - workers: Worker processes.
    ///   - tls: The certificates of a TLS port, or `nil` for none.
    static func start(executable: String, directory: String, workers: Int, tls: TLSFiles?) throws -> LoopbackNginx {
        let version = try versionLine(of: executable)
        let documentRoot = directory + "/www"
        try FileManager.default.createDirectory(atPath: documentRoot, withIntermediateDirectories: true)
        try Data(NginxConfiguration.smallBody.utf8).write(to: URL(fileURLWithPath: documentRoot + "/small"))
        try Data(NginxConfiguration.smallJSON.utf8).write(to: URL(fileURLWithPath: documentRoot + "/small.json"))

        var lastError = BenchError("nginx did not start")
        // The ports are chosen before nginx binds them, so another process may take one in
        // between: try a few times.
        for _ in 0..<5 {
            let ports = try (FreePort.find(), FreePort.find(), FreePort.find())
            // The kernel may hand out a port again once its probe socket is closed.
            guard Set([ports.0, ports.1, ports.2]).count == 3 else { continue }
            let tlsSettings = tls.map { NginxConfiguration.TLS(port: ports.2, certificatePath: $0.certificatePath, keyPath: $0.keyPath) }
            let configuration = NginxConfiguration(directory: directory, documentRoot: documentRoot, http1Port: ports.0,
                                                   h2cPort: ports.1, tls: tlsSettings, workers: workers, runsAsRoot: getuid() == 0)
            let configPath = directory + "/nginx.conf"
            try Data(configuration.text.utf8).write(to: URL(fileURLWithPath: configPath))
            let stderrPath = directory + "/nginx.stderr"
            _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)

            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["-p", directory, "-e", stderrPath, "-c", configPath, "-g", "daemon off;"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
            try process.run()
            let nginx = LoopbackNginx(process: process, version: version, documentRoot: documentRoot,
                                      http1URL: URL(string: "http://127.0.0.1:\(ports.0)/small")!,
                                      h2cURL: URL(string: "http://127.0.0.1:\(ports.1)/small")!,
                                      tlsURL: tls.map { _ in URL(string: "https://127.0.0.1:\(ports.2)/small")! }, tls: tls,
                                      statusPort: ports.0)
            Cleanup.shared.add { nginx.stop() }
            if nginx.waitUntilListening(ports: [ports.0, ports.1] + (tls == nil ? [] : [ports.2])) { return nginx }
            nginx.stop()
            let log = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            let errorLog = (try? String(contentsOfFile: directory + "/nginx.error.log", encoding: .utf8)) ?? ""
            lastError = BenchError("nginx did not start:\n" + (log + errorLog).split(separator: "\n").suffix(5).joined(separator: "\n"))
        }
        throw lastError
    }

    private init(process: Process, version: String, documentRoot: String, http1URL: URL, h2cURL: URL, tlsURL: URL?,
                 tls: TLSFiles?, statusPort: Int) {
        self.process = process
        self.version = version
        self.documentRoot = documentRoot
        self.http1URL = http1URL
        self.h2cURL = h2cURL
        self.tlsURL = tlsURL
        self.tls = tls
        self.statusPort = statusPort
    }

    /// `/small` for a dispatch case over `protocol`; `nil` for a TLS protocol when nginx has
    /// no TLS port.
    func smallURL(for protocol: BenchProtocol) -> URL? {
        switch `protocol` {
        case .h1: http1URL
        case .h2c: h2cURL
        case .h1s, .h2: tlsURL
        }
    }

    private func waitUntilListening(ports: [Int]) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard process.isRunning else { return false }
            if ports.allSatisfy(FreePort.accepts) { return true }
            usleep(20_000)
        }
        return false
    }

    /// Stops nginx: SIGTERM (fast shutdown of master and workers), then SIGKILL after 5 s.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private static func versionLine(of executable: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-V"]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard output.contains("--with-http_v2_module") else {
            throw BenchError("this nginx has no http_v2 module (h2c); install nginx-light or nginx-full")
        }
        let first = output.split(separator: "\n").first.map(String.init) ?? "nginx"
        return first.replacingOccurrences(of: "nginx version: ", with: "")
    }
}
