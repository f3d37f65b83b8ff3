import Foundation
import XCTest

/// The cluster examples in Scripts/cluster and README.md's "Across machines" stay in step with
/// the tool: the Indexed Job runs `salvo ... --shard auto` with SALVO_SHARDS equal to its
/// completions, and the Slurm array script, run as Slurm would run each task of its array,
/// fetches every URL of a list exactly once.
final class ClusterScriptsTests: XCTestCase {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private func text(_ path: String) throws -> String {
        try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The first capture group of `pattern` in `text`.
    private func capture(_ pattern: String, in text: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let expression = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        let match = try XCTUnwrap(expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                                  "no match for \(pattern)", file: file, line: line)
        return String(text[try XCTUnwrap(Range(match.range(at: 1), in: text))])
    }

    func testIndexedJobRunsShardAutoWithSalvoShardsEqualToCompletions() throws {
        let job = try text("Scripts/cluster/indexed-job.yaml")
        XCTAssertTrue(job.contains("completionMode: Indexed"))
        XCTAssertTrue(job.contains(#"command: ["salvo", "-i", "/data/urls.txt", "--shard", "auto", "-d", "/data/out", "-c"]"#))
        let completions = try capture(#"^  completions: (\d+)$"#, in: job)
        let shards = try capture(#"- name: SALVO_SHARDS\n\s+value: "(\d+)""#, in: job)
        XCTAssertEqual(shards, completions, "SALVO_SHARDS must equal the Job's completions")
        XCTAssertNoThrow(try capture(#"^  parallelism: (\d+)$"#, in: job))
        XCTAssertTrue(job.contains("mountPath: /data"))
    }

    func testReadmeShowsBothClusterFiles() throws {
        let readme = try text("README.md")
        let start = try XCTUnwrap(readme.range(of: "### Across machines"))
        let section = readme[start.lowerBound...]
        XCTAssertTrue(section.contains("Scripts/cluster/indexed-job.yaml"))
        XCTAssertTrue(section.contains("Scripts/cluster/salvo-array.sbatch"))
        XCTAssertTrue(section.contains("--shard auto"))
        // The manifest shown in the README is the file's own.
        let job = try text("Scripts/cluster/indexed-job.yaml")
        let kind = try capture(#"(?s)(apiVersion: batch/v1\n.*?claimName: salvo-data)"#, in: job)
        XCTAssertTrue(section.contains(kind.replacingOccurrences(of: #"(?m)^ *#.*\n"#, with: "", options: .regularExpression)),
                      "the README's manifest differs from Scripts/cluster/indexed-job.yaml")
    }

    func testSlurmArrayScriptTasksFetchEveryURLExactlyOnce() throws {
        let script = Self.repository.appendingPathComponent("Scripts/cluster/salvo-array.sbatch")
        let body = try text("Scripts/cluster/salvo-array.sbatch")
        XCTAssertTrue(body.contains("salvo -i urls.txt --shard auto -c -d out"))
        let last = try XCTUnwrap(Int(try capture(#"^#SBATCH --array=0-(\d+)$"#, in: body)))
        let tasks = last + 1

        // A submit directory: the list, and salvo on PATH as a cluster node would have it.
        let (root, _) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let bin = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("salvo"),
                                                   withDestinationURL: try SalvoToolProcess.executable())
        let urls = try (0..<20).map { try TestServers.shared.url(.nginx, "/small?task-test=\($0)").absoluteString }
        try Data(urls.enumerated().map { "\($1)\n  out=f\($0)\n" }.joined().utf8).write(to: root.appendingPathComponent("urls.txt"))

        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("SLURM_") || key == "JOB_COMPLETION_INDEX" || key == "SALVO_SHARDS" {
            environment[key] = nil
        }
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["SLURM_ARRAY_TASK_MIN"] = "0"
        environment["SLURM_ARRAY_TASK_COUNT"] = String(tasks)
        let out = root.appendingPathComponent("out")
        var seen = Set<String>()
        for task in 0..<tasks {
            environment["SLURM_ARRAY_TASK_ID"] = String(task)
            let before = Set(BulkDownloadFixtures.listing(out))
            let status = try run(script, in: root, environment: environment)
            XCTAssertEqual(status, 0, "task \(task)")
            let added = Set(BulkDownloadFixtures.listing(out)).subtracting(before)
            XCTAssertTrue(seen.isDisjoint(with: added))
            seen.formUnion(added)
        }
        XCTAssertEqual(BulkDownloadFixtures.listing(out), (0..<20).map { "f\($0)" }.sorted())
        let original = try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("small"))
        for name in BulkDownloadFixtures.listing(out) {
            XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent(name)), original, name)
        }
    }

    /// Runs `script` with bash in `directory`; returns its exit status.
    private func run(_ script: URL, in directory: URL, environment: [String: String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path]
        process.currentDirectoryURL = directory
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
