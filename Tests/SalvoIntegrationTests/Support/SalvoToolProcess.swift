import Foundation
import Synchronization
import XCTest

/// The built `salvo` executable run as a real child process, for the tests of the download
/// tool: its output, its exit status, and signals sent to it while it runs.
enum SalvoToolProcess {
    struct Outcome {
        var status: Int32
        var standardOutput: String
        var standardError: String

        /// Standard output's lines, without their ends.
        var lines: [String] { standardOutput.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    /// The `salvo` built beside this test bundle.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let test = Bundle.main.executableURL?.resolvingSymlinksInPath() { candidates.append(test.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for directory in candidates {
            let url = directory.appendingPathComponent("salvo")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: url.path) {
                return url
            }
        }
        throw TestServerError("no salvo executable beside the tests in \(candidates.map(\.path)); build with --build-tests")
    }

    /// Runs `salvo` with `arguments` to its end.
    ///
    /// - Parameters:
    ///   - input: Standard input's bytes; empty by default.
    ///   - environment: The child's environment; this process's by default.
    ///   - interruptions: SIGINTs to send, all at once, when `interruptWhen` first accepts a
    ///     line of standard output; 0 by default.
    ///   - interruptWhen: Looks at each line of standard output as it arrives.
    static func run(_ arguments: [String], input: Data = Data(), environment: [String: String]? = nil,
                    interruptions: Int = 0, interruptWhen: (String) -> Bool = { _ in false }) throws -> Outcome {
        try run(executable: executable(), arguments, input: input, environment: environment,
                interruptions: interruptions, interruptWhen: interruptWhen)
    }

    /// Runs any executable the same way (the tests run `salvo` under `script` for a terminal).
    static func run(executable: URL, _ arguments: [String], input: Data = Data(), environment: [String: String]? = nil,
                    interruptions: Int = 0, interruptWhen: (String) -> Bool = { _ in false }) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        // Standard error is drained on its own thread so a full pipe cannot stall the child
        // while this thread reads standard output line by line.
        let errorBytes = Mutex<Data?>(nil)
        let errorDone = DispatchSemaphore(value: 0)
        let errorHandle = stderr.fileHandleForReading
        Thread {
            let data = errorHandle.readDataToEndOfFile()
            errorBytes.withLock { $0 = data }
            errorDone.signal()
        }.start()
        var output = Data()
        var scanned = 0
        var interrupted = interruptions == 0
        while true {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            output.append(chunk)
            guard !interrupted else { continue }
            while let newline = output[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: output[scanned..<newline], as: UTF8.self)
                scanned = newline + 1
                if interruptWhen(line) {
                    for _ in 0..<interruptions { kill(process.processIdentifier, SIGINT) }
                    interrupted = true
                    break
                }
            }
        }
        process.waitUntilExit()
        errorDone.wait()
        return Outcome(status: process.terminationStatus, standardOutput: String(decoding: output, as: UTF8.self),
                       standardError: String(decoding: errorBytes.withLock { $0 } ?? Data(), as: UTF8.self))
    }

    /// The JSON objects of `--json` output or a manifest, one per line.
    static func jsonObjects(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { row in
            let object = try JSONSerialization.jsonObject(with: Data(row.utf8))
            return try XCTUnwrap(object as? [String: Any], "not a JSON object: \(row)", file: file, line: line)
        }
    }
}
