import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one `Tests/Servers/testservers.py` process a test process runs.
///
/// Spawned with `posix_spawn` rather than `Process` so that this file owns
/// every descriptor and the `waitpid`. Its stdin and stdout are one end of a
/// socket pair created close-on-exec, so no other child of the test process
/// holds it: the supervisor reads end of file exactly when this process
/// shuts its end down or dies, and this process reads end of file when the
/// supervisor has exited. The child starts with an empty signal mask
/// whatever thread spawns it.
enum Supervisor {
    /// Bound on the supervisor's start-up report. It waits for each server
    /// with a bound of its own (60 s); this only catches a supervisor that
    /// hangs. Never reached when all is well.
    private static let reportDeadlineSeconds: Int64 = 240
    /// Bound on the supervisor's shutdown before it is killed.
    private static let stopDeadlineSeconds: Int64 = 30

    private struct Running: Sendable {
        var pid: pid_t
        /// Our end of the socket pair that is its stdin and stdout. Shutting
        /// down our writing side tells it to stop; end of file on our
        /// reading side means it has exited.
        var socket: Int32
    }

    private static let running = Mutex<Running?>(nil)

    /// Registered once, at the first start: stops the supervisor when the
    /// test process calls `exit` (XCTest and swift-testing both do).
    private static let atExitRegistration: Void = {
        atexit { Supervisor.stop() }
    }()

    /// Starts the supervisor and returns what it reports.
    static func start(packageRoot: URL) throws -> TestServers.Endpoints {
        let python = packageRoot.appendingPathComponent(".build/testenv/bin/python").path
        let script = packageRoot.appendingPathComponent("Tests/Servers/testservers.py").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw TestServerError("""
                The test servers' Python environment is missing: \(python).
                Run Scripts/setup.sh (as root on a fresh machine), or Scripts/test.sh, \
                which runs it.
                """)
        }

        let (ours, theirs) = try makeSocketPair()
        let pid: pid_t
        do {
            pid = try spawn([python, script, "--watch-stdin"], stdin: theirs, stdout: theirs)
        } catch {
            close(ours)
            close(theirs)
            throw error
        }
        close(theirs)
        running.withLock { $0 = Running(pid: pid, socket: ours) }
        _ = atExitRegistration

        let line: String
        do {
            line = try readLine(ours, deadlineSeconds: reportDeadlineSeconds)
        } catch {
            stop()
            throw error
        }
        do {
            return try parse(line)
        } catch {
            stop()
            throw error
        }
    }

    /// Stops the supervisor, which stops the servers and removes its
    /// temporary directory; returns when it has exited. Idempotent.
    static func stop() {
        guard let process = running.withLock({ running -> Running? in
            defer { running = nil }
            return running
        }) else { return }

        shutdown(process.socket, Int32(SHUT_WR))
        let exitedInTime = waitForEndOfFile(process.socket, deadlineSeconds: stopDeadlineSeconds)
        close(process.socket)
        if !exitedInTime {
            // Its servers die with it (PR_SET_PDEATHSIG).
            kill(process.pid, SIGKILL)
        }
        var status: Int32 = 0
        while waitpid(process.pid, &status, 0) == -1 && errno == EINTR {}
    }

    /// Generates /256m.bin (and its checksum) in the served document root.
    static func makeLargeFiles(docroot: String, packageRoot: URL) throws {
        let python = packageRoot.appendingPathComponent(".build/testenv/bin/python").path
        let script = packageRoot.appendingPathComponent("Tests/Servers/testservers.py").path
        let pid = try spawn([python, script, "--make-docroot", docroot, "--large-files"], stdin: nil, stdout: nil)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            throw TestServerError("generating the large files in \(docroot) failed (wait status \(status)); see stderr")
        }
    }

    // MARK: - Report

    private struct Report: Decodable {
        struct Entry: Decodable {
            var url: String?
            var error: String?
            var caBundle: String?
            var clientCertificate: String?
            var clientKey: String?
        }
        var fatal: String?
        var docroot: String?
        var servers: [String: Entry]?
    }

    private static func parse(_ line: String) throws -> TestServers.Endpoints {
        let report: Report
        do {
            report = try JSONDecoder().decode(Report.self, from: Data(line.utf8))
        } catch {
            throw TestServerError("the test server supervisor printed something unexpected: \(line)")
        }
        if let fatal = report.fatal {
            throw TestServerError("the test server supervisor failed:\n\(fatal)")
        }
        guard let docroot = report.docroot, let servers = report.servers else {
            throw TestServerError("the test server supervisor's report is incomplete: \(line)")
        }
        var urls: [TestServers.Server: Result<URL, TestServerError>] = [:]
        for server in TestServers.Server.allCases {
            let entry = servers[server.rawValue]
            if let string = entry?.url, let url = URL(string: string) {
                urls[server] = .success(url)
            } else {
                let why = entry?.error ?? "not reported"
                urls[server] = .failure(TestServerError("test server \(server.rawValue) is not available: \(why)"))
            }
        }
        let client = servers[TestServers.Server.nginxClientCertificate.rawValue]
        return TestServers.Endpoints(urls: urls, docroot: docroot, caBundle: servers[TestServers.Server.nginxTLS.rawValue]?.caBundle,
                                     clientCertificate: client?.clientCertificate, clientKey: client?.clientKey)
    }

    // MARK: - Processes and descriptors

    private static func posixError(_ what: String, _ code: Int32 = errno) -> TestServerError {
        TestServerError("\(what): \(String(cString: strerror(code)))")
    }

    /// A close-on-exec socket pair (atomically so: a thread spawning some
    /// other child meanwhile cannot leak it) whose descriptors are both above
    /// 2, so that dup2 onto 0 or 1 in the child always happens, and clears
    /// close-on-exec, even when this process runs with stdin or stdout closed.
    private static func makeSocketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw posixError("socketpair") }
        for index in 0..<2 where fds[index] < 3 {
            let moved = fcntl(fds[index], F_DUPFD_CLOEXEC, 3)
            guard moved >= 0 else { throw posixError("fcntl(F_DUPFD_CLOEXEC)") }
            close(fds[index])
            fds[index] = moved
        }
        return (fds[0], fds[1])
    }

    /// Spawns `argv` with this process's environment; stdin and stdout are
    /// the given descriptors, or /dev/null when nil; stderr is inherited.
    private static func spawn(_ argv: [String], stdin: Int32?, stdout: Int32?) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }

        // The child's signal state must not depend on the spawning thread's
        // mask or on signals this process ignores (a client library ignores
        // SIGPIPE): the supervisor relies on SIGTERM, SIGINT and SIGHUP.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, environ)
        guard result == 0 else { throw posixError("posix_spawn \(argv[0])", result) }
        return pid
    }

    /// Milliseconds left until `deadline` (a CLOCK_MONOTONIC reading in ns).
    private static func remainingMilliseconds(until deadline: UInt64) -> Int32 {
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= deadline ? 0 : Int32(min((deadline - now) / 1_000_000, UInt64(Int32.max)))
    }

    /// Reads up to the first newline. Throws at end of file or after the deadline.
    private static func readLine(_ fd: Int32, deadlineSeconds: Int64) throws -> String {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(deadlineSeconds) * 1_000_000_000
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                return String(decoding: bytes[..<newline], as: UTF8.self)
            }
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, remainingMilliseconds(until: deadline))
            if ready < 0 {
                if errno == EINTR { continue }
                throw posixError("poll")
            }
            if ready == 0 {
                throw TestServerError("""
                    the test server supervisor did not report within \(deadlineSeconds) s; \
                    its stderr is in the test output
                    """)
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw posixError("read")
            }
            if count == 0 {
                throw TestServerError("""
                    the test server supervisor exited without reporting; its stderr is in the \
                    test output. Output so far: \(String(decoding: bytes, as: UTF8.self))
                    """)
            }
            bytes.append(contentsOf: buffer[..<count])
        }
    }

    /// Reads and drops input until end of file; false if the deadline passed first.
    private static func waitForEndOfFile(_ fd: Int32, deadlineSeconds: Int64) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(deadlineSeconds) * 1_000_000_000
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, remainingMilliseconds(until: deadline))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { return false }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return true }
        }
    }
}
