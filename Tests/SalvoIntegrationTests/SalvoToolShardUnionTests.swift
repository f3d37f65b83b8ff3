import Foundation
import Synchronization
import XCTest
@testable import Salvo
@testable import SalvoBulk

/// Three `salvo` processes at once over one list, each with `--shard auto` and the variables
/// a Kubernetes Indexed Job gives its pods: together they fetch every URL exactly once, each
/// the URLs whose FNV-1a-64 hash mod 3 is its index.
final class SalvoToolShardUnionTests: XCTestCase {
    func testThreeShardProcessesFetchEveryURLExactlyOnce() throws {
        let (root, _) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let docroot = try TestServers.shared.docroot
        let sources = ["small", "100k.bin", "1m.bin"]
        // 30 URLs, each a distinct text (so a distinct hash), named f00 ... f29 by the list.
        var urls: [String] = []
        var sourceOf: [String: String] = [:]
        var list = ""
        for index in 0..<30 {
            let source = sources[index % sources.count]
            let url = try TestServers.shared.url(.nginx, "/\(source)?n=\(index)").absoluteString
            let name = String(format: "f%02d", index)
            urls.append(url)
            sourceOf[name] = source
            list += "\(url)\n  out=\(name)\n"
        }
        let listFile = root.appendingPathComponent("urls.txt")
        try Data(list.utf8).write(to: listFile)

        let shards = 3
        var base = ProcessInfo.processInfo.environment
        for key in base.keys where key.hasPrefix("SLURM_") || key == "JOB_COMPLETION_INDEX" || key == "SALVO_SHARDS" {
            base[key] = nil
        }
        let outcomes = Mutex([Int: Result<SalvoToolProcess.Outcome, any Error>]())
        let group = DispatchGroup()
        for index in 0..<shards {
            var shardEnvironment = base
            shardEnvironment["JOB_COMPLETION_INDEX"] = String(index)
            shardEnvironment["SALVO_SHARDS"] = String(shards)
            let environment = shardEnvironment
            let arguments = ["-i", listFile.path, "--shard", "auto", "-c", "-d", root.appendingPathComponent("out-\(index)").path,
                             "--manifest", root.appendingPathComponent("manifest-\(index).jsonl").path]
            DispatchQueue.global().async(group: group) {
                let result = Result { try SalvoToolProcess.run(arguments, environment: environment) }
                outcomes.withLock { $0[index] = result }
            }
        }
        group.wait()

        var fetched: [String] = []
        var names: [String] = []
        for index in 0..<shards {
            let outcome = try XCTUnwrap(outcomes.withLock { $0[index] }).get()
            XCTAssertEqual(outcome.status, 0, "shard \(index): \(outcome.standardOutput)\(outcome.standardError)")
            let manifest = try Data(contentsOf: root.appendingPathComponent("manifest-\(index).jsonl"))
            let lines = try SalvoToolProcess.jsonObjects(String(decoding: manifest, as: UTF8.self))
            let shardURLs = lines.compactMap { $0["url"] as? String }
            XCTAssertEqual(shardURLs.count, lines.count)
            XCTAssertTrue(lines.allSatisfy { $0["status"] as? String == "done" }, "shard \(index): \(lines)")
            // Exactly the URLs whose hash falls in this shard.
            XCTAssertEqual(shardURLs.sorted(), urls.filter { BulkShard.stableHash($0) % UInt64(shards) == UInt64(index) }.sorted(),
                           "shard \(index)")
            fetched += shardURLs
            let directory = root.appendingPathComponent("out-\(index)")
            let listing = BulkDownloadFixtures.listing(directory)
            XCTAssertEqual(listing.count, shardURLs.count, "shard \(index) wrote \(listing)")
            for name in listing {
                let source = try XCTUnwrap(sourceOf[name], "shard \(index) wrote an unexpected file \(name)")
                XCTAssertTrue(try Data(contentsOf: directory.appendingPathComponent(name))
                              == Data(contentsOf: docroot.appendingPathComponent(source)), "\(name) differs from \(source)")
            }
            names += listing
        }
        XCTAssertEqual(fetched.sorted(), urls.sorted(), "not every URL was fetched exactly once")
        XCTAssertEqual(names.sorted(), sourceOf.keys.sorted(), "the three output directories do not hold every file exactly once")
    }
}
