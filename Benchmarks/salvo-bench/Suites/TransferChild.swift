import Foundation

/// The hidden child mode of the transfers suite: runs one client for one case and prints
/// its measurement as one line of JSON on standard output.
///
///     salvo-bench --transfer-child CLIENT --base URL --source DIR --output DIR
///                 --direction download|upload --count N --size BYTES --parallel K --split S
///
/// The Salvo library runs in this process (CPU and peak memory are this process's,
/// measured from the first transfer: the peak is reset then, and "start" is the resident
/// size then); a tool (the `salvo` tool, curl, aria2c) runs as this process's child (its
/// own CPU, from `RUSAGE_CHILDREN`, and its own peak memory). The files go into a new
/// directory under `--output`, removed before the child exits, or by the suite once the
/// case's last round has run (`TransferCase.keepsFilesUntilItEnds`).
enum TransferChild {
    static let flag = "--transfer-child"

    struct Request {
        var client: TransferClient
        /// nginx's HTTP/1.1 root, e.g. http://127.0.0.1:PORT/
        var baseURL: URL
        /// Where the case's files are (nginx's `files/`): what uploads send.
        var sourceDirectory: String
        /// Where the child makes its private directory for downloaded files.
        var outputParent: String
        var transfer: TransferCase

        var arguments: [String] {
            [TransferChild.flag, client.rawValue, "--base", baseURL.absoluteString, "--source", sourceDirectory,
             "--output", outputParent, "--direction", transfer.direction.rawValue, "--count", String(transfer.count),
             "--size", String(transfer.size), "--parallel", String(transfer.parallel), "--split", String(transfer.split)]
        }
    }

    static func main(_ arguments: [String]) -> Int32 {
        do {
            let request = try parse(arguments)
            let output = try TemporaryDirectory(prefix: "files-", in: request.outputParent,
                                                removedAtCleanup: !request.transfer.keepsFilesUntilItEnds)
            defer { Cleanup.shared.runAll() }
            let measurement = try measure(request, outputDirectory: output.path)
            let line = try JSONEncoder().encode(measurement)
            FileHandle.standardOutput.write(line + Data("\n".utf8))
            return 0
        } catch {
            FileHandle.standardError.write(Data("salvo-bench transfer child: \(error)\n".utf8))
            return 1
        }
    }

    private static func measure(_ request: Request, outputDirectory: String) throws -> ClientMeasurement {
        let count = request.transfer.count
        if request.client.runsInProcess {
            let salvo = SalvoTransfers(request: request, outputDirectory: outputDirectory)
            ProcessMemory.resetPeak()
            let resident = ProcessMemory.residentKiB
            let before = ResourceUsage.current()
            let clock = DispatchTime.now().uptimeNanoseconds
            let failures = salvo.run()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e9
            let after = ResourceUsage.current()
            return ClientMeasurement(requests: count, seconds: seconds, cpuSeconds: after.cpuSeconds - before.cpuSeconds,
                                     peakRSSKiB: ProcessMemory.peakKiB, startRSSKiB: resident, failures: failures)
        }
        let tool = try ToolTransfers(request: request, outputDirectory: outputDirectory)
        let toolArguments = try tool.prepare()
        lowerDescriptorLimit()
        let clock = DispatchTime.now().uptimeNanoseconds
        let run = try tool.run(toolArguments)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e9
        let usage = ResourceUsage.children()
        // The tool starts from nothing: all its memory is the client's.
        return ClientMeasurement(requests: count, seconds: seconds, cpuSeconds: usage.cpuSeconds, peakRSSKiB: run.peakRSSKiB,
                                 startRSSKiB: 0, failures: tool.failures(output: run.output))
    }

    /// The bench raises the descriptor limit for dispatch (to its hard limit, often over a
    /// million); Foundation's `Process` then spends tens of milliseconds closing every
    /// possible descriptor before exec, which would count against the tool. The tools need
    /// a few dozen.
    private static func lowerDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur > 4096 else { return }
        limit.rlim_cur = 4096
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// The size of the file at `path`, or `nil` when there is none.
    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    private static func parse(_ arguments: [String]) throws -> Request {
        guard let clientName = arguments.first, let client = TransferClient(rawValue: clientName) else {
            throw BenchError("\(flag) needs a client name")
        }
        let values = ChildArguments.options(after: arguments)
        guard let base = values["--base"].flatMap(URL.init(string:)), let source = values["--source"], let output = values["--output"],
              let direction = values["--direction"].flatMap(TransferCase.Direction.init(rawValue:)),
              let count = values["--count"].flatMap(Int.init), let size = values["--size"].flatMap(Int.init),
              let parallel = values["--parallel"].flatMap(Int.init), let split = values["--split"].flatMap(Int.init) else {
            throw BenchError("\(flag): missing or bad arguments: \(arguments)")
        }
        return Request(client: client, baseURL: base, sourceDirectory: source, outputParent: output,
                       transfer: TransferCase(direction: direction, count: count, size: size, parallel: parallel, split: split))
    }
}
