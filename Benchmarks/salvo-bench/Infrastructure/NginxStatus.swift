import Foundation

/// nginx's `stub_status` counters, read from the bench nginx's plain port over a socket of
/// its own, so that no client under test makes the request.
///
/// Each reading is itself a connection nginx accepts, counted in the `accepts` it reports.
struct NginxStatus {
    /// Connections nginx has accepted since it started, on every port.
    let accepts: Int
    /// Connections open now, the reading's own included.
    let active: Int

    /// The location the bench's nginx serves the counters at (NginxConfiguration).
    static let path = "/nginx_status"

    /// Connections opened between two readings, not counting the later reading's own.
    static func connectionsOpened(from earlier: NginxStatus, to later: NginxStatus) -> Int {
        later.accepts - earlier.accepts - 1
    }

    /// Reads the counters from nginx on 127.0.0.1:`port`.
    static func read(port: Int) throws -> NginxStatus {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("stub_status: socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw BenchError("stub_status: cannot connect to port \(port): \(String(cString: strerror(errno)))") }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw BenchError("stub_status: cannot send the request")
        }
        // HTTP/1.0: nginx closes the connection after the response, which ends the reading.
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            response += buffer[0..<count]
        }
        return try parse(String(decoding: response, as: UTF8.self))
    }

    /// The body is:
    ///
    ///     Active connections: 3
    ///     server accepts handled requests
    ///      17 17 2043
    ///     Reading: 0 Writing: 1 Waiting: 2
    private static func parse(_ response: String) throws -> NginxStatus {
        let lines = response.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let activeLine = lines.first(where: { $0.hasPrefix("Active connections:") }),
              let active = Int(activeLine.dropFirst("Active connections:".count).trimmingCharacters(in: .whitespaces)),
              let header = lines.firstIndex(of: "server accepts handled requests"), header + 1 < lines.count,
              let accepts = lines[header + 1].split(separator: " ").first.flatMap({ Int($0) }) else {
            throw BenchError("stub_status: unexpected answer: \(response.prefix(200))")
        }
        return NginxStatus(accepts: accepts, active: active)
    }
}
