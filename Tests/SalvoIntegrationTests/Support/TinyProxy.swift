import Foundation
import XCTest

/// Debian's tinyproxy, started by a test on a free loopback port with a configuration of its
/// own in a temporary directory, and stopped when the test is done. Its log names every
/// request it forwarded (`GET http://…`) and every tunnel it opened (`CONNECT host:port`).
final class TinyProxy {
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    private let directory: URL
    private let process: Process

    /// `http://127.0.0.1:PORT`.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Starts a proxy; with `login`, it asks for that HTTP Basic login (407 without it).
    init(login: (user: String, password: String)? = nil) throws {
        guard let binary = ["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy"].first(where: FileManager.default.isExecutableFile) else {
            throw TestServerError("tinyproxy is not installed (run Scripts/setup.sh as root)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-tinyproxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var lastError: Error = TestServerError("tinyproxy did not start")
        for _ in 0..<5 {
            let port = try DataRequestFaultTests.closedPort()
            var config = """
            Port \(port)
            Listen 127.0.0.1
            Timeout 60
            MaxClients 100
            Allow 127.0.0.1
            LogLevel Info
            LogFile "\(directory.appendingPathComponent("tinyproxy.log").path)"

            """
            if let login { config += "BasicAuth \(login.user) \(login.password)\n" }
            let configPath = directory.appendingPathComponent("tinyproxy.conf")
            try Data(config.utf8).write(to: configPath)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["-d", "-c", configPath.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            if Self.waitUntilListening(port: port, process: process) {
                self.port = port
                self.process = process
                return
            }
            process.terminate()
            process.waitUntilExit()
            lastError = TestServerError("tinyproxy did not listen on port \(port): \(Self.log(in: directory))")
        }
        try? FileManager.default.removeItem(at: directory)
        throw lastError
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The log so far.
    var log: String { Self.log(in: directory) }

    /// The request lines it took (`GET http://…/small HTTP/1.1`, `CONNECT 127.0.0.1:443 HTTP/1.1`).
    var requests: [String] {
        log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "): ", options: .backwards), line.contains("Request (file descriptor") else { return nil }
            return String(line[range.upperBound...])
        }
    }

    private static func log(in directory: URL) -> String {
        (try? String(contentsOf: directory.appendingPathComponent("tinyproxy.log"), encoding: .utf8)) ?? ""
    }

    private static func waitUntilListening(port: Int, process: Process) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, process.isRunning {
            let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(socket)
            if connected { return true }
            usleep(20_000)
        }
        return false
    }
}
