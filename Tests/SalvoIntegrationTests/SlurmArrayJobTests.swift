import Foundation
import XCTest
@testable import Salvo
@testable import SalvoBulk

/// `Scripts/cluster/salvo-array.sbatch` submitted to a real one-node Slurm as a four-task
/// array over a list served by the test nginx, every task writing into one directory, with
/// names that collide across tasks; one task is requeued (`scontrol requeue`, which kills it)
/// while it has a file half written. Every URL ends in exactly one whole file with its bytes,
/// and nothing partial is left.
final class SlurmArrayJobTests: XCTestCase {
    private static let repository = TestServers.packageRoot

    func testArrayWithARequeuedTaskLeavesEveryURLInOneWholeFile() throws {
        let cluster = try SlurmCluster()
        defer { cluster.stop() }

        // The submit directory: the list, and salvo on PATH as a cluster node would have it.
        let (root, _) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let bin = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("salvo"),
                                                   withDestinationURL: try SalvoToolProcess.executable())

        // 16 files of 600 KB with bytes of their own, 12 of them named data.bin, served at
        // 200 KB/s a connection: each takes about 3 s.
        let folder = "slurm-\(UUID().uuidString)"
        let docs = try TestServers.shared.docroot.appendingPathComponent(folder)
        defer { try? FileManager.default.removeItem(at: docs) }
        var bytesOf: [String: Data] = [:]
        for index in 0..<16 {
            let relative = index < 12 ? "\(index)/data.bin" : "own-\(index).bin"
            let file = docs.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            var bytes = Data((0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ index &* 101 &+ $0 >> 9) })
            bytes.replaceSubrange(0..<4, with: withUnsafeBytes(of: UInt32(index).bigEndian) { Data($0) })
            try bytes.write(to: file)
            bytesOf[try TestServers.shared.url(.nginx, "/paced/\(folder)/\(relative)").absoluteString] = bytes
        }
        let urls = bytesOf.keys.sorted()
        try Data(urls.map { $0 + "\n" }.joined().utf8).write(to: root.appendingPathComponent("urls.txt"))

        let tasks = 4
        let victim = 2
        let victimURLs = Set(urls.filter { BulkShard.stableHash($0) % UInt64(tasks) == UInt64(victim) })
        XCTAssertFalse(victimURLs.isEmpty, "the requeued task would have nothing to do")

        // --oversubscribe: the script asks two CPUs a task, and the node has two; the tasks
        // share them, as they would share a node's network.
        let script = Self.repository.appendingPathComponent("Scripts/cluster/salvo-array.sbatch")
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let submitted = try cluster.run("sbatch", ["--parsable", "--array=0-\(tasks - 1)", "--oversubscribe", "--chdir=\(root.path)",
                                                    script.path], environment: ["PATH": path])
        XCTAssertEqual(submitted.status, 0, submitted.errors)
        let job = submitted.output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(job.isEmpty)
        let victimJob = "\(job)_\(victim)"
        let out = root.appendingPathComponent("out")

        // Requeue the victim once a file of its own has bytes but is not finished.
        var deadline = Date().addingTimeInterval(120)  // bounds against a hang, not measures
        var requeued = false
        while Date() < deadline {
            if try cluster.state(of: victimJob)?.hasPrefix("RUNNING") == true, hasPartialFile(in: out, for: victimURLs) {
                let requeue = try cluster.run("scontrol", ["requeue", victimJob])
                XCTAssertEqual(requeue.status, 0, requeue.errors)
                requeued = true
                break
            }
            usleep(20_000)
        }
        XCTAssertTrue(requeued, "the task never had a partial file of its own while running: \(BulkDownloadFixtures.listing(out))")

        // Slurm 22.05 holds a requeued job for the credential's lifetime; once it is pending
        // for that, it may start a second later (not at once: its old credential is revoked).
        var sawPending = false
        deadline = Date().addingTimeInterval(240)
        while Date() < deadline, try cluster.state(of: job) != nil {
            if !sawPending, let victimState = try cluster.state(of: victimJob), victimState.hasPrefix("PENDING") {
                sawPending = true
                if victimState.contains("BeginTime") {
                    _ = try cluster.run("scontrol", ["update", "jobid=\(victimJob)", "starttime=now+1"])
                }
            }
            usleep(100_000)
        }
        XCTAssertNil(try cluster.state(of: job), "the array did not finish")
        XCTAssertTrue(sawPending, "the requeued task was never pending again")

        let logs = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix("salvo-") && $0.hasSuffix(".log") }
        let transcript = try logs.sorted().map { name in
            "\(name):\n" + (try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8))
        }.joined(separator: "\n")

        let listing = BulkDownloadFixtures.listing(out)
        XCTAssertEqual(listing.filter { $0.hasSuffix(".part") || $0.hasSuffix(".json") || $0.hasPrefix(".") }, [],
                       "partial files, sidecars or hidden files were left\n\(transcript)")
        var found: [String: String] = [:]
        for name in listing {
            let bytes = try Data(contentsOf: out.appendingPathComponent(name))
            guard let url = bytesOf.first(where: { $0.value == bytes })?.key else {
                XCTFail("\(name) holds no URL's bytes")
                continue
            }
            XCTAssertNil(found[url], "\(url) is in both \(found[url] ?? "") and \(name)")
            found[url] = name
        }
        XCTAssertEqual(Set(found.keys), Set(urls), "URLs without a whole file\n\(transcript)")
        XCTAssertEqual(listing.count, urls.count, "\(listing)")
    }

    /// Whether `directory` holds a partial file with bytes, made for one of `urls`.
    private func hasPartialFile(in directory: URL, for urls: Set<String>) -> Bool {
        for name in BulkDownloadFixtures.listing(directory) where name.hasSuffix(".part") {
            let path = directory.appendingPathComponent(name).path
            guard let owner = BulkFileOwner.read(path: path), urls.contains(owner) else { continue }
            if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.intValue > 0 {
                return true
            }
        }
        return false
    }
}
