import Foundation

/// A tool running one transfers case as a child process: `curl --parallel` with a `-K`
/// config file (one `url`/`output` pair per file), or `aria2c -i` or the `salvo` tool's
/// `-i` with an input list. Its CPU is read from `getrusage(RUSAGE_CHILDREN)` once it has
/// exited, its peak memory followed while it runs (PeakMemoryWatcher).
struct ToolTransfers {
    let request: TransferChild.Request
    let outputDirectory: String
    let executable: String

    /// The tool itself; `executable` is the shell for `curl+sha256+sync`, which runs it.
    let tool: String

    init(request: TransferChild.Request, outputDirectory: String) throws {
        guard let tool = request.client.toolPath else { throw BenchError("\(request.client.rawValue) is not installed") }
        self.request = request
        self.outputDirectory = outputDirectory
        self.tool = tool
        executable = request.client == .curlChecked ? "/bin/sh" : tool
    }

    /// The tool's arguments; writes the list of files it needs into the output directory.
    func prepare() throws -> [String] {
        let transfer = request.transfer
        let listPath = outputDirectory + "/.list"
        let urls = transfer.fileNames.map { request.baseURL.appendingPathComponent(transfer.urlPath($0)).absoluteString }
        let files = String(transfer.parallel)
        switch (request.client, transfer.direction) {
        case (.curl, .download), (.curlChecked, .download):
            // On the split case this is the one-connection rate the others are measured against.
            let lines = zip(urls, transfer.fileNames).map { "url = \"\($0)\"\noutput = \"\(outputDirectory)/\($1)\"\n" }
            try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: listPath))
            let curl = ["--parallel", "--parallel-max", files, "--no-progress-meter", "--fail", "-K", listPath]
            guard request.client == .curlChecked else { return curl }
            // Then every file's sha-256 checked and every file flushed, as the salvo tool does:
            // one shell, so getrusage counts curl, sha256sum and sync together.
            let sumsPath = outputDirectory + "/.sha256sums"
            let sums = try zip(transfer.fileNames, checksums()).map { "\($1)  \($0)\n" }.joined()
            try Data(sums.utf8).write(to: URL(fileURLWithPath: sumsPath))
            let script = "\"$0\" \"$@\" && cd \(Self.quoted(outputDirectory)) && sha256sum -c --quiet --strict .sha256sums "
                + "&& sync -- " + transfer.fileNames.map(Self.quoted).joined(separator: " ")
            return ["-c", script, tool] + curl
        case (.curl, .upload):
            // One file (the case's only one): `-T` streams it, as PUT; no `Expect: 100-continue` wait.
            return ["--no-progress-meter", "--fail", "-H", "Expect:", "-T", request.sourceDirectory + "/" + transfer.fileNames[0],
                    "-o", "/dev/null", "-w", "%{http_code} %{size_upload}\n", request.baseURL.appendingPathComponent("upload").absoluteString]
        case (.aria2c, .download), (.aria2cChecked, .download):
            try writeInputList(urls: urls, to: listPath, checksums: request.client == .aria2cChecked)
            // aria2's -x counts connections per download, not per server.
            let split = transfer.split > 1
                ? ["-x", String(transfer.split), "-s", String(transfer.split), "--min-split-size=1M"] : ["-x", "1", "-s", "1"]
            return ["--no-conf=true", "-i", listPath, "-d", outputDirectory, "-j", files] + split
                + ["--allow-overwrite=true", "--auto-file-renaming=false", "--file-allocation=none", "--quiet=true"]
        case (.salvoTool, .download), (.salvoToolNoFsync, .download):
            // On whole files the default row checks every file's sha-256, as curl+sha256+sync
            // and aria2c+sha256 do; the --no-fsync row, like plain curl, checks nothing. The
            // ranges case stays as it was measured against aria2c's ranges: no checksums.
            try writeInputList(urls: urls, to: listPath, checksums: request.client == .salvoTool && transfer.split == 1)
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
    /// its file name on an indented `out=` line, and its sha-256 on a `checksum=` line when
    /// asked.
    private func writeInputList(urls: [String], to path: String, checksums withChecksums: Bool) throws {
        let sums = withChecksums ? try checksums() : urls.map { _ in "" }
        let lines = zip(zip(urls, request.transfer.fileNames), sums).map { pair, sum in
            "\(pair.0)\n  out=\(pair.1)\n" + (withChecksums ? "  checksum=sha-256=\(sum)\n" : "")
        }
        try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Each file's sha-256 in hex, in `fileNames` order, as `TransferFiles` recorded it.
    private func checksums() throws -> [String] {
        try request.transfer.fileNames.map { name in
            let path = request.sourceDirectory + "/" + name + TransferFiles.checksumSuffix
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.count >= 64 else {
                throw BenchError("no sha-256 recorded for \(name) (\(path))")
            }
            return String(text.prefix(64))
        }
    }

    /// `text` quoted for the shell.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
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
