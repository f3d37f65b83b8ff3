import Foundation
import Salvo
import XCTest

/// The built `salvo` executable, run as a real process: what it prints where, and the status
/// it exits with.
final class SalvoCommandLineTests: XCTestCase {
    private struct Outcome {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    private func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = try SalvoToolProcess.executable()
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Both pipes are drained before waiting, so a full pipe cannot stall the child.
        let errorData = SendableData()
        let errorReader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.wait(), as: UTF8.self))
    }

    private func assertUsageError(_ arguments: [String], _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let outcome = try run(arguments)
        XCTAssertEqual(outcome.status, 2, "\(arguments)", file: file, line: line)
        XCTAssertEqual(outcome.standardOutput, "", "\(arguments)", file: file, line: line)
        XCTAssertEqual(outcome.standardError, "salvo: \(message)\nTry 'salvo --help'.\n", "\(arguments)", file: file, line: line)
    }

    private func temporaryFile(_ contents: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-cli-\(UUID().uuidString).txt")
        try Data(contents.utf8).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testHelpDocumentsEveryOptionExitStatusAndRule() throws {
        let outcome = try run(["--help"])
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.standardError, "")
        let help = outcome.standardOutput
        XCTAssertTrue(help.hasPrefix("Usage: salvo [OPTIONS] [URL ...]\n"))
        let options = [
            "-i, --input-file", "-d, --dir", "-o, --out", "-j, --max-concurrent-downloads", "-x, --max-connection-per-server",
            "-s, --split", "-c, --continue", "--checksum TYPE=HEX", "--max-tries", "--retry-wait", "--timeout",
            "--connect-timeout", "--max-download-limit", "--max-overall-download-limit", "--header", "--json",
            "--manifest", "--shard K/N | auto", "-q, --quiet", "--help", "--version", "--no-fsync",
        ]
        for option in options { XCTAssertTrue(help.contains(option), "help lacks \(option)") }
        for status in ["0    every file downloaded and verified", "1    some files failed; the others were kept",
                       "2    usage or input-list error; nothing was downloaded", "130  interrupted by Ctrl-C"] {
            XCTAssertTrue(help.contains(status), "help lacks exit status '\(status)'")
        }
        for fact in ["\" (1)\", \" (2)\", ... before the", "report (1).pdf", "HTTP 408, 429, 500,", "502, 503 and 504",
                     "Not retried: 404 and every other 4xx", "Input-file format", "out=", "dir=", "checksum=TYPE=HEX",
                     "header=Name: value", "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "'-' reads"] {
            XCTAssertTrue(help.contains(fact), "help lacks '\(fact)'")
        }
        XCTAssertEqual(try run(["-q", "--help", "--bogus-after-help-is-still-checked"]).status, 2)
    }

    func testVersionPrintsTheLibraryVersion() throws {
        let outcome = try run(["--version"])
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.standardOutput, "salvo \(SalvoInfo.version)\n")
        XCTAssertEqual(outcome.standardError, "")
    }

    func testEachUsageErrorExitsTwoWithOneLine() throws {
        try assertUsageError(["--bogus", "http://a.example/"], "unknown option '--bogus'")
        try assertUsageError(["http://a.example/", "-j"], "option '-j' needs a value")
        try assertUsageError(["-j", "four", "http://a.example/"], "option '-j' needs a whole number from 1 to 10000, not 'four'")
        try assertUsageError(["--split=0", "http://a.example/"], "option '--split' must be from 1 to 64, not 0")
        try assertUsageError(["-o", "x", "http://a.example/1", "http://a.example/2"],
                             "option '--out' applies to a single URL, but 2 were given")
        try assertUsageError(["--checksum", "md5=098f6bcd4621d373cade4e832627b4f6", "http://a.example/1", "http://a.example/2"],
                             "option '--checksum' applies to a single URL, but 2 were given")
        try assertUsageError([], "no URLs given; name them as arguments or in a list with --input-file")
        try assertUsageError(["--max-download-limit", "2G", "http://a.example/"],
                             "rate '2G' is not a number of bytes per second with an optional K or M")
        try assertUsageError(["--shard", "3/3", "http://a.example/"], "shard index must be from 0 to 2, not 3")
        try assertUsageError(["--shard", "auto", "http://a.example/"],
                             "--shard auto: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (Slurm array) is set")
    }

    func testShardAutoReadsTheProcessEnvironment() throws {
        // Slurm tasks 0 and 1 of 2 over one URL: exactly one of them downloads it.
        let url = try TestServers.shared.url(.nginx, "/small").absoluteString
        var downloads = 0
        for task in ["0", "1"] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-cli-\(UUID().uuidString)")
            addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
            var environment = ProcessInfo.processInfo.environment
            environment["SLURM_ARRAY_TASK_ID"] = task
            environment["SLURM_ARRAY_TASK_COUNT"] = "2"
            let outcome = try run(["--shard", "auto", "-d", directory.path, url], environment: environment)
            XCTAssertEqual(outcome.status, 0, outcome.standardError)
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("small").path) { downloads += 1 }
        }
        XCTAssertEqual(downloads, 1)
    }

    func testMalformedListLineExitsTwoNamingFileAndLine() throws {
        let list = try temporaryFile("https://a.example/1\n  out=one\n\n# fine so far\nhttps://a.example/2\n  mirror=x\n")
        let outcome = try run(["-i", list.path])
        XCTAssertEqual(outcome.status, 2)
        XCTAssertEqual(outcome.standardOutput, "")
        XCTAssertEqual(outcome.standardError, "salvo: \(list.path):6: unknown option 'mirror' (known: out, dir, checksum, header, "
                       + "user-agent, http-user, http-passwd, all-proxy, http-proxy, https-proxy, no-proxy, no-netrc, "
                       + "remote-time, allow-overwrite, dry-run)\n")

        let missing = try run(["-i", "/nonexistent/salvo-list.txt"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.standardError, "salvo: /nonexistent/salvo-list.txt: cannot open: No such file or directory\n")
    }

    func testEmptyStandardInputListDownloadsNothingAndExitsZero() throws {
        // Standard input is read as a stream, not checked up front; empty, it is a run of
        // no files.
        let outcome = try run(["-i", "-", "-d", FileManager.default.temporaryDirectory.path])
        XCTAssertEqual(outcome.status, 0, outcome.standardError)
        XCTAssertEqual(outcome.standardError, "")
        XCTAssertTrue(outcome.standardOutput.hasPrefix("summary: 0 done, 0 failed, 0 skipped; 0 bytes"), outcome.standardOutput)
    }
}

/// Fails a test that cannot find the tool: a skipped test would hide a broken build.

/// Bytes handed from the thread draining a pipe to the test waiting for them.
/// `@unchecked Sendable`: `condition` guards `data` and `done`.
private final class SendableData: @unchecked Sendable {
    private let condition = NSCondition()
    private var data = Data()
    private var done = false

    func set(_ value: Data) {
        condition.lock()
        data = value
        done = true
        condition.signal()
        condition.unlock()
    }

    func wait() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while !done { condition.wait() }
        return data
    }
}
