import Foundation

/// An outside tool running one transfers case: `curl --parallel` with a `-K` config file
/// (one `url`/`output` pair per file), or `aria2c -i` with an input file. Its CPU is read
/// from `getrusage(RUSAGE_CHILDREN)` once it has exited, its peak memory followed while it
/// runs (PeakMemoryWatcher).
struct ToolTransfers {
    let request: TransferChild.Request
    let outputDirectory: String
    let executable: String

    init(request: TransferChild.Request, outputDirectory: String) throws {
        guard let executable = request.client.toolPath else { throw BenchError("\(request.client.rawValue) is not installed") }
        self.request = request
        self.outputDirectory = outputDirectory
        self.executable = executable
    }

    /// The tool's arguments; writes the list of files it needs into the output directory.
    func prepare() throws -> [String] {
        let transfer = request.transfer
        let listPath = outputDirectory + "/.list"
        let urls = transfer.fileNames.map { request.baseURL.appendingPathComponent("files/" + $0).absoluteString }
        switch (request.client, transfer.direction) {
        case (.curl, .download):
            let lines = zip(urls, transfer.fileNames).map { "url = \"\($0)\"\noutput = \"\(outputDirectory)/\($1)\"\n" }
            try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: listPath))
            return ["--parallel", "--parallel-max", String(transfer.parallel), "--no-progress-meter", "--fail", "-K", listPath]
        case (.curl, .upload):
            // One file (the case's only one): `-T` streams it, as PUT; no `Expect: 100-continue` wait.
            return ["--no-progress-meter", "--fail", "-H", "Expect:", "-T", request.sourceDirectory + "/" + transfer.fileNames[0],
                    "-o", "/dev/null", "-w", "%{http_code} %{size_upload}\n", request.baseURL.appendingPathComponent("upload").absoluteString]
        case (.aria2c, _):
            let lines = zip(urls, transfer.fileNames).map { "\($0)\n  out=\($1)\n" }
            try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: listPath))
            return ["--no-conf=true", "-i", listPath, "-d", outputDirectory, "-j", String(transfer.parallel), "-x", "1", "-s", "1",
                    "--allow-overwrite=true", "--auto-file-renaming=false", "--file-allocation=none", "--quiet=true"]
        default:
            throw BenchError("\(request.client.rawValue) is not an outside tool")
        }
    }

    /// Runs the tool to its end. - Returns: Its standard output and peak resident memory.
    func run(_ arguments: [String]) throws -> (output: String, peakRSSKiB: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        // Not waitUntilExit(): on Linux it polls its run loop every 50 ms, which would count
        // against the tool.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let watcher = PeakMemoryWatcher(pid: process.processIdentifier)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        exited.wait()
        let peak = watcher.stop()
        if process.terminationStatus != 0 {
            FirstFailure.report(transfer: request.client, "\(request.client.rawValue) exited with status \(process.terminationStatus)")
        }
        return (String(decoding: data, as: UTF8.self), peak)
    }

    /// - Returns: How many transfers did not arrive whole (for an upload: were not sent whole).
    func failures(output: String) -> Int {
        let transfer = request.transfer
        if transfer.direction == .upload {
            let expected = "204 \(transfer.size)"
            let line = output.trimmingCharacters(in: .whitespacesAndNewlines)
            if line != expected { FirstFailure.report(transfer: request.client, "upload answered \"\(line)\", expected \"\(expected)\"") }
            return line == expected ? 0 : 1
        }
        return transfer.fileNames.filter { TransferChild.fileSize(outputDirectory + "/" + $0) != transfer.size }.count
    }
}
