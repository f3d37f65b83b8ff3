import Foundation
import XCTest

/// The cluster examples in Scripts/cluster and salvo(1)'s ACROSS MACHINES stay in step with
/// the tool: the Indexed Job runs `salvo ... --shard auto` with SALVO_SHARDS equal to its
/// completions, and the same command as the Slurm array script.
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
        XCTAssertTrue(job.contains(#"command: ["salvo", "-i", "/data/urls.txt", "--shard", "auto", "-c", "-d", "/data/out"]"#))
        let completions = try capture(#"^  completions: (\d+)$"#, in: job)
        let shards = try capture(#"- name: SALVO_SHARDS\n\s+value: "(\d+)""#, in: job)
        XCTAssertEqual(shards, completions, "SALVO_SHARDS must equal the Job's completions")
        XCTAssertNoThrow(try capture(#"^  parallelism: (\d+)$"#, in: job))
        XCTAssertTrue(job.contains("mountPath: /data"))
    }

    func testManPageShowsBothClusterFiles() throws {
        let page = ManPageSource.plainText(try text(ManPageSource.path))
        let section = try XCTUnwrap(ManPageSource.section("ACROSS MACHINES", of: page), "salvo(1) lacks ACROSS MACHINES")
        XCTAssertTrue(section.contains("Scripts/cluster/indexed-job.yaml"))
        XCTAssertTrue(section.contains("Scripts/cluster/salvo-array.sbatch"))
        XCTAssertTrue(section.contains("--shard auto"))
        // The manifest and the script shown in the page are the files' own, without comments.
        let job = try text("Scripts/cluster/indexed-job.yaml")
        let kind = try capture(#"(?s)(apiVersion: batch/v1\n.*?claimName: salvo-data)"#, in: job)
        XCTAssertTrue(section.contains(kind.replacingOccurrences(of: #"(?m)^ *#.*\n"#, with: "", options: .regularExpression)),
                      "salvo(1)'s manifest differs from Scripts/cluster/indexed-job.yaml")
        let script = try text("Scripts/cluster/salvo-array.sbatch")
            .replacingOccurrences(of: #"(?m)^#( .*)?\n"#, with: "", options: .regularExpression)
        XCTAssertTrue(section.contains(script), "salvo(1)'s Slurm script differs from Scripts/cluster/salvo-array.sbatch")
    }

    /// The Indexed Job's pods run what the Slurm array's tasks run (which
    /// `SlurmArrayJobTests` runs under a real Slurm), with the volume's paths for the
    /// submit directory's.
    func testIndexedJobRunsTheSlurmScriptsCommand() throws {
        let job = try text("Scripts/cluster/indexed-job.yaml")
        let script = try text("Scripts/cluster/salvo-array.sbatch")
        let command = try capture(#"^\s+command: \[(.*)\]$"#, in: job)
        let podWords = command.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }.map { $0.hasPrefix("/data/") ? String($0.dropFirst("/data/".count)) : $0 }
        let taskWords = try capture(#"^exec (salvo .*)$"#, in: script).split(separator: " ").map(String.init)
        XCTAssertEqual(podWords, taskWords)
    }
}
