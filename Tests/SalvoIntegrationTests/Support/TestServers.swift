import Foundation
import Synchronization

/// The loopback servers that integration tests talk to: httpbin (under
/// gunicorn), nginx (HTTP/1.1, h2c and TLS) and Salvo's fault server.
///
/// They start once per test process, on first use, on free loopback ports,
/// and stop when the process exits. Every accessor throws when its server
/// could not start, with the server's stderr in the message, so a test that
/// needs it fails loudly; nothing here ever skips a test.
///
/// ```swift
/// func testGet() throws {
///     let url = try TestServers.shared.url(.httpbin, "/get")
///     // or: try TestServers.shared.httpbin.appendingPathComponent("get")
///     ...
/// }
/// ```
///
/// What each server offers is documented where it is configured:
/// `Tests/Servers/nginx.conf.template` (static files, `/json`,
/// `/status/204`, `/upload`), `Tests/Servers/fault_server.py` (resets,
/// truncation, stalls, malformed responses, `/fail-twice`) and httpbin's
/// own documentation.
///
/// How: `Tests/Servers/testservers.py` (run with the Python of
/// `.build/testenv`, made by `Scripts/setup.sh`) starts the servers, waits
/// until each answers a request, and reports their URLs as one JSON line. It
/// stops them and deletes its temporary directory when its standard input, a
/// socket only this process holds, reaches end of file: at this process's
/// `exit` (an `atexit` handler shuts the socket down and waits for the
/// supervisor to finish), or when this process dies in any other way (the
/// kernel closes the socket). Its servers also get `PR_SET_PDEATHSIG`, so
/// even a `SIGKILL` of the supervisor leaves no server running (and the next
/// run deletes the directory it left).
final class TestServers: Sendable {
    /// The servers, by the names the supervisor reports.
    enum Server: String, CaseIterable, Sendable {
        /// httpbin under gunicorn: HTTP semantics (verbs, echo, status codes,
        /// redirects, auth, compression, delay, drip).
        case httpbin
        /// nginx over HTTP/1.1 with keep-alive: static files and volume.
        case nginx
        /// The same nginx over HTTP/2 cleartext, prior knowledge only.
        case nginxH2C
        /// The same nginx over TLS (HTTP/2 or HTTP/1.1 by ALPN), with a certificate for
        /// 127.0.0.1 from a CA made for the run: `tlsCABundle` is its PEM file.
        case nginxTLS
        /// The same document root over TLS (same CA), allowing 4 HTTP/2 streams per connection.
        case nginxTLSFewStreams
        /// The same document root over TLS (same CA), only for clients that show a certificate
        /// from a second CA made for the run: `clientCertificate` is one.
        case nginxClientCertificate
        /// Tests/Servers/fault_server.py: misbehaviour on purpose.
        case fault
    }

    /// The process-wide instance. Nothing starts until an accessor is used.
    static let shared = TestServers()

    /// Base URL of httpbin, e.g. `http://127.0.0.1:41001`.
    var httpbin: URL { get throws { try baseURL(.httpbin) } }
    /// Base URL of nginx over HTTP/1.1.
    var nginx: URL { get throws { try baseURL(.nginx) } }
    /// Base URL of nginx's h2c port (HTTP/2 with prior knowledge).
    var nginxH2C: URL { get throws { try baseURL(.nginxH2C) } }
    /// Base URL of the fault server.
    var fault: URL { get throws { try baseURL(.fault) } }
    /// The PEM file of the CA that signed `nginxTLS`'s certificate (the system trusts it not).
    var tlsCABundle: String {
        get throws {
            _ = try baseURL(.nginxTLS)
            guard let path = try endpoints().caBundle else {
                throw TestServerError("the test server supervisor reported no CA bundle for nginxTLS")
            }
            return path
        }
    }

    /// A client certificate `nginxClientCertificate` accepts, and its key: PEM files.
    var clientCertificate: (certificate: String, key: String) {
        get throws {
            _ = try baseURL(.nginxClientCertificate)
            let endpoints = try endpoints()
            guard let certificate = endpoints.clientCertificate, let key = endpoints.clientKey else {
                throw TestServerError("the test server supervisor reported no client certificate for nginxClientCertificate")
            }
            return (certificate, key)
        }
    }

    /// The login nginx's `/private/` asks for (testservers.py's BASIC_AUTH_USER and
    /// BASIC_AUTH_PASSWORD).
    static let basicAuthLogin = (user: "salvo-user", password: "pw-Zq7-never-shown")

    /// How many connections nginx has accepted on all its ports since it started (its
    /// `stub_status`), read over a connection of its own, which it counts too.
    func nginxAcceptedConnections() throws -> Int {
        let url = try url(.nginx, "/nginx_status")
        let text = try RawHTTPClient.get(url).bodyString
        // "Active connections: 1 \nserver accepts handled requests\n 12 12 40 \n..."
        let lines = text.split(separator: "\n")
        guard lines.count >= 3, let accepts = lines[2].split(separator: " ").first.flatMap({ Int($0) }) else {
            throw TestServerError("nginx's stub_status answered something else: \(text)")
        }
        return accepts
    }

    /// The directory nginx serves, to compare downloaded bytes with the
    /// originals (`small`, `lorem.txt`, `100k.bin`, `1m.bin`, `SHA256SUMS`).
    var docroot: URL {
        get throws { URL(fileURLWithPath: try endpoints().docroot, isDirectory: true) }
    }

    /// `base` of `server` followed by `pathAndQuery`, which starts with "/"
    /// and may carry a query: `try url(.fault, "/fail-twice?key=a")`.
    func url(_ server: Server, _ pathAndQuery: String) throws -> URL {
        let base = try baseURL(server).absoluteString
        guard let url = URL(string: base + pathAndQuery) else {
            throw TestServerError("not a valid URL: \(base + pathAndQuery)")
        }
        return url
    }

    /// nginx's URL of `/256m.bin`, generating the file on first use (it is
    /// not made at start-up: most runs never need it).
    func largeFile() throws -> URL {
        let address = try url(.nginx, "/256m.bin")  // throws first if nginx is not there
        let docroot = try endpoints().docroot
        try largeFileLock.withLock { done in
            if done { return }
            try Supervisor.makeLargeFiles(docroot: docroot, packageRoot: Self.packageRoot)
            done = true
        }
        return address
    }

    /// Starts the servers now, if they are not running yet. Optional: every
    /// accessor does it on first use.
    func start() throws {
        _ = try endpoints()
    }

    // MARK: - Implementation

    /// What the supervisor reported: a URL or an error for each server.
    struct Endpoints: Sendable {
        var urls: [Server: Result<URL, TestServerError>]
        var docroot: String
        var caBundle: String?
        var clientCertificate: String?
        var clientKey: String?
    }

    private let state = Mutex<Result<Endpoints, TestServerError>?>(nil)
    private let largeFileLock = Mutex(false)

    private init() {}

    private func baseURL(_ server: Server) throws -> URL {
        guard let result = try endpoints().urls[server] else {
            throw TestServerError("the test server supervisor reported nothing for \(server.rawValue)")
        }
        return try result.get()
    }

    /// Starts the supervisor on first call (other callers wait for it), then
    /// returns what it reported, or throws why it failed.
    private func endpoints() throws -> Endpoints {
        let result = state.withLock { state in
            if let state { return state }
            let started = Result { try Supervisor.start(packageRoot: Self.packageRoot) }
                .mapError { $0 as? TestServerError ?? TestServerError("\($0)") }
            state = started
            return started
        }
        return try result.get()
    }

    /// The package root, found from this file's path:
    /// <root>/Tests/SalvoIntegrationTests/Support/TestServers.swift.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // SalvoIntegrationTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
}

/// Why a test server is not available. Its description carries the
/// server's own error output.
struct TestServerError: Error, CustomStringConvertible, Sendable {
    let description: String
    init(_ description: String) { self.description = description }
}

extension TestServerError: LocalizedError {
    var errorDescription: String? { description }
}
