import Foundation

/// A tool running one transfers case as a child process: `curl --parallel` with a `-K`
/// config file (one `url`/`output` pair per file), or `aria2c -i` or the `salvo` tool's
/// `-i` with an input list. Its CPU is read from `getrusage(RUSAGE_CHILDREN)` once it has
/// exited, its peak memory followed while it runs (PeakMemoryWatcher).
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
        let urls = transfer.fileNames.map { request.baseURL.appendingPathComponent(transfer.urlPath($0)).absoluteString }
        let files = String(transfer.parallel)
        switch (request.client, transfer.direction) {
        case (.curl, .download):
            // On the split case this is the one-connection rate the others are measured against.
            let lines = zip(urls, transfer.fileNames).map { "url = \"\($0)\"\noutput = \"\(outputDirectory)/\($1)\"\n" }
            try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: listPath))
            return ["--parallel", "--parallel-max", files, "--no-progress-meter", "--fail", "-K", listPath]
        case (.curl, .upload):
            // One file (the case's only one): `-T` streams it, as PUT; no `Expect: 100-continue` wait.
            return ["--no-progress-meter", "--fail", "-H", "Expect:", "-T", request.sourceDirectory + "/" + transfer.fileNames[0],
                    "-o", "/dev/null", "-w", "%{http_code} %{size_upload}\n", request.baseURL.appendingPathComponent("upload").absoluteString]
        case (.aria2c, .download):
            try writeInputList(urls: urls, to: listPath)
            // aria2's -x counts connections per download, not per server.
            let split = transfer.split > 1
                ? ["-x", String(transfer.split), "-s", String(transfer.split), "--min-split-size=1M"] : ["-x", "1", "-s", "1"]
            return ["--no-conf=true", "-i", listPath, "-d", outputDirectory, "-j", files] + split
                + ["--allow-overwrite=true", "--auto-file-renaming=false", "--file-allocation=none", "--quiet=true"]
        case (.salvoTool, .download), (.salvoToolNoFsync, .download):
            try writeInputList(urls: urls, to: listPath)
            // salvo's -x caps the connections to the host, so it opens as many as the others.
            let connections = String(max(transfer.parallel, transfer.split))
            let split = transfer.split > 1 ? ["-s", String(transfer.split)] : []
            let durability = request.client == .salvoToolNoFsync ? ["--no-fsync"] : []
            return ["-q", "-i", listPath, "-d", outputDirectory, "-j", files, "-x", connections] + split + durability
        default:
            throw BenchError("\(request.client.rawValue) cannot run \(transfer.name)")
        }
    }

    /// An input list in aria2's format, which the `salvo` tool reads too: each URL, then
    /// its file name on an indented `out=` line.
    private func writeInputList(urls: [String], to path: String) throws {
        let lines = zip(urls, request.transfer.fileNames).map { "\($0)\n  out=\($1)\n" }
        try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: path))
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
