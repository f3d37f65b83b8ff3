import Foundation
import Synchronization

/// Runs a client in a child process: this executable again, in `--child` (dispatch),
/// `--tls-connect-child` (tls-connect) or `--transfer-child` (transfers) mode.
enum ChildProcess {
    /// This executable's path.
    static let executable: String = {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }()

    /// Children not yet reaped: killed at cleanup if the bench ends while one runs.
    private static let running: RunningChildren = {
        let children = RunningChildren()
        Cleanup.shared.add { children.killAll() }
        return children
    }()

    /// Runs the child and returns what it measured; throws when it fails or outlives
    /// `timeout` seconds (it is killed then).
    static func run(_ request: DispatchChild.Request, timeout: Double) throws -> ClientMeasurement {
        try run(arguments: request.arguments, timeout: timeout)
    }

    /// Runs this executable with `arguments` and decodes the last line it prints.
    static func run(arguments: [String], timeout: Double) throws -> ClientMeasurement {
        try run(arguments: arguments, timeout: timeout, decoding: ClientMeasurement.self)
    }

    /// Runs this executable with `arguments` and decodes the last line it prints as `type`.
    static func run<Result: Decodable>(arguments: [String], timeout: Double, decoding type: Result.Type) throws -> Result {
        guard !Cleanup.shared.isStopping else { throw BenchError("stopping") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let pid = process.processIdentifier
        running.add(pid)
        defer { running.remove(pid) }

        // Read while it runs, so a full pipe never blocks it.
        let reader = DispatchQueue(label: "salvo-bench.child-output")
        let collected = PipeCollector()
        reader.async { collected.store(output.fileHandleForReading.readDataToEndOfFile()) }

        if exited.wait(timeout: .now() + timeout) == .timedOut {
            kill(pid, SIGKILL)
            exited.wait()
            throw BenchError("timed out after \(Int(timeout)) s (killed)")
        }
        let data = collected.wait()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit ? "exited with status" : "died of signal"
            throw BenchError("child \(how) \(process.terminationStatus)")
        }
        guard let line = data.split(separator: UInt8(ascii: "\n")).last,
              let measurement = try? JSONDecoder().decode(type, from: Data(line)) else {
            throw BenchError("child printed no measurement")
        }
        return measurement
    }
}

/// The child's standard output, handed from the reading queue to the waiting thread.
private final class PipeCollector: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let box = Mutex<Data>(Data())

    func store(_ data: Data) {
        box.withLock { $0 = data }
        done.signal()
    }

    func wait() -> Data {
        done.wait()
        return box.withLock { $0 }
    }
}


/// The pids of children still running.
private final class RunningChildren: Sendable {
    private let pids = Mutex<Set<pid_t>>([])

    func add(_ pid: pid_t) { pids.withLock { _ = $0.insert(pid) } }
    func remove(_ pid: pid_t) { pids.withLock { _ = $0.remove(pid) } }
    /// Kills every child and waits (up to a second) until Foundation has reaped them.
    func killAll() {
        let victims = pids.withLock { $0 }
        for pid in victims { kill(pid, SIGKILL) }
        let deadline = DispatchTime.now() + 1
        while DispatchTime.now() < deadline && victims.contains(where: { kill($0, 0) == 0 }) { usleep(5_000) }
    }
}
