import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A deliberately tiny, blocking HTTP client over a plain TCP socket, for
/// checking the test servers (and what Salvo sent) without going through
/// Salvo or URLSession. One request per connection; IPv4 literals and
/// `localhost` only.
enum RawHTTPClient {
    struct Response: Sendable {
        var status: Int
        /// Header fields in order, names as received (HTTP/1.1 only; the
        /// HTTP/2 request does not decode header fields besides `:status`).
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        /// The first value of `name`, compared case-insensitively.
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var bodyString: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Guard against a hang, not a timing assertion.
    private static let ioTimeoutSeconds = 60

    /// GET over HTTP/1.1 with `Connection: close`; decodes chunked bodies
    /// (not gzip: send no Accept-Encoding to get identity bodies).
    static func get(_ url: URL, headers: [String: String] = [:]) throws -> Response {
        let socket = try connect(url)
        defer { close(socket) }
        var request = "GET \(pathAndQuery(url)) HTTP/1.1\r\nHost: \(authority(url))\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            request += "\(name): \(value)\r\n"
        }
        request += "\r\n"
        try send(socket, Array(request.utf8))
        let raw = try receiveUntilEOF(socket)
        return try parseHTTP1(raw)
    }

    /// GET over HTTP/2 cleartext with prior knowledge (no Upgrade): the
    /// connection preface, one request on stream 1, its response.
    static func getH2C(_ url: URL) throws -> Response {
        let socket = try connect(url)
        defer { close(socket) }

        // SETTINGS: INITIAL_WINDOW_SIZE (0x4) at its maximum, and a
        // connection WINDOW_UPDATE to match, so no flow control is needed.
        let maxWindow: UInt32 = 0x7fff_ffff
        var out = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        out += frame(type: 0x4, flags: 0, stream: 0, payload: [0x00, 0x04] + bigEndian(maxWindow))
        out += frame(type: 0x8, flags: 0, stream: 0, payload: bigEndian(maxWindow - 65_535))

        // HPACK, no Huffman: :method GET (static index 2), :scheme http (6),
        // then :path (name index 4) and :authority (name index 1) as
        // literals without indexing.
        var block: [UInt8] = [0x82, 0x86]
        block += literal(nameIndex: 4, value: pathAndQuery(url))
        block += literal(nameIndex: 1, value: authority(url))
        out += frame(type: 0x1, flags: 0x4 | 0x1, stream: 1, payload: block)  // END_HEADERS | END_STREAM
        try send(socket, out)

        var status: Int?
        var body: [UInt8] = []
        while true {
            let header = try receiveExactly(socket, 9)
            let length = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
            let type = header[3], flags = header[4]
            let stream = (UInt32(header[5]) << 24 | UInt32(header[6]) << 16
                          | UInt32(header[7]) << 8 | UInt32(header[8])) & 0x7fff_ffff
            var payload = try receiveExactly(socket, length)
            switch type {
            case 0x4 where flags & 0x1 == 0:  // SETTINGS, not an ACK: acknowledge
                try send(socket, frame(type: 0x4, flags: 0x1, stream: 0, payload: []))
            case 0x1 where stream == 1:  // HEADERS
                payload = stripPadding(payload, flags: flags)
                if flags & 0x20 != 0 { payload = Array(payload.dropFirst(5)) }  // PRIORITY
                status = try decodeStatus(payload)
                if flags & 0x1 != 0 { return Response(status: status!, headers: [], body: body) }
            case 0x0 where stream == 1:  // DATA
                body += stripPadding(payload, flags: flags)
                if flags & 0x1 != 0 {
                    guard let status else { throw Failure(description: "h2c: DATA before HEADERS") }
                    return Response(status: status, headers: [], body: body)
                }
            case 0x3:  // RST_STREAM
                throw Failure(description: "h2c: stream reset by the server")
            case 0x7:  // GOAWAY
                throw Failure(description: "h2c: GOAWAY from the server")
            default:
                continue
            }
        }
    }

    // MARK: - Sockets

    private static func connect(_ url: URL) throws -> Int32 {
        guard let host = url.host, let port = url.port else {
            throw Failure(description: "need a host and a port: \(url)")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
            throw Failure(description: "not an IPv4 literal: \(host)")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("socket") }
        var timeout = timeval(tv_sec: ioTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = failure("connect to \(host):\(port)")
            close(fd)
            throw error
        }
        return fd
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }

    private static func send(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw failure("send")
            }
            offset += sent
        }
    }

    private static func receiveUntilEOF(_ fd: Int32) throws -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("recv")
            }
            if count == 0 { return result }
            result += buffer[..<count]
        }
    }

    private static func receiveExactly(_ fd: Int32, _ length: Int) throws -> [UInt8] {
        var result = [UInt8](repeating: 0, count: length)
        var offset = 0
        while offset < length {
            let count = result[offset...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("recv")
            }
            if count == 0 { throw Failure(description: "connection closed after \(offset) of \(length) bytes") }
            offset += count
        }
        return result
    }

    // MARK: - HTTP/1.1

    private static func pathAndQuery(_ url: URL) -> String {
        let path = url.path.isEmpty ? "/" : url.path
        return url.query.map { "\(path)?\($0)" } ?? path
    }

    private static func authority(_ url: URL) -> String {
        "\(url.host ?? "127.0.0.1"):\(url.port ?? 80)"
    }

    private static func parseHTTP1(_ raw: [UInt8]) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = raw.indices.first(where: { raw[$0...].starts(with: separator) }) else {
            throw Failure(description: "no complete response head in \(raw.count) bytes")
        }
        let lines = String(decoding: raw[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line: \(lines[0])")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = Response(status: status, headers: headers, body: Array(raw[(headEnd + 4)...]))
        if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            response.body = try decodeChunked(response.body)
        } else if let length = response.header("Content-Length").flatMap(Int.init), length <= response.body.count {
            response.body = Array(response.body.prefix(length))
        }
        return response
    }

    private static func decodeChunked(_ bytes: [UInt8]) throws -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = bytes[index...].firstIndex(of: 13), lineEnd + 1 < bytes.count else {
                throw Failure(description: "truncated chunked body")
            }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self)
                .split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw Failure(description: "bad chunk size: \(sizeText)")
            }
            index = lineEnd + 2
            if size == 0 { return result }
            guard index + size <= bytes.count else { throw Failure(description: "truncated chunk") }
            result += bytes[index..<(index + size)]
            index += size + 2
        }
    }

    // MARK: - HTTP/2

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }

    private static func frame(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        return [UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), type, flags]
            + bigEndian(stream) + payload
    }

    /// HPACK "literal header field without indexing", indexed name, raw
    /// (non-Huffman) value shorter than 127 bytes.
    private static func literal(nameIndex: UInt8, value: String) -> [UInt8] {
        let bytes = Array(value.utf8)
        precondition(bytes.count < 127, "value too long for this minimal encoder")
        return [nameIndex, UInt8(bytes.count)] + bytes
    }

    private static func stripPadding(_ payload: [UInt8], flags: UInt8) -> [UInt8] {
        guard flags & 0x8 != 0, let padLength = payload.first else { return payload }
        return Array(payload.dropFirst().dropLast(Int(padLength)))
    }

    /// `:status` from a response header block, when it is one of the
    /// statuses in HPACK's static table (indexed field 8 to 14), as nginx
    /// sends them. Other statuses would need a Huffman decoder.
    private static func decodeStatus(_ block: [UInt8]) throws -> Int {
        let table: [UInt8: Int] = [0x88: 200, 0x89: 204, 0x8a: 206, 0x8b: 304, 0x8c: 400, 0x8d: 404, 0x8e: 500]
        guard let first = block.first, let status = table[first] else {
            throw Failure(description: "h2c: :status not in HPACK's static table: \(block.prefix(8).map { $0 })")
        }
        return status
    }
}
