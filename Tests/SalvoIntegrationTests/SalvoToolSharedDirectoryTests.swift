import Foundation
import Synchronization
import XCTest
@testable import Salvo
@testable import SalvoBulk

/// Shard processes of one job writing into one directory, with URLs whose names collide: every
/// URL ends in exactly one whole file with its own bytes, no process overwrites or fails
/// another's file, no two manifest rows name one path, and nothing partial is left, also after
/// one shard was killed and run again with `-c`.
final class SalvoToolSharedDirectoryTests: XCTestCase {
    private let shards = 3

    /// Files under nginx's document root, `/<folder>/<k>/data.bin` for the colliding ones and
    /// `/<folder>/u<k>.bin` for a few with names of their own, each with bytes of its own.
    private struct Served {
        var urls: [String] = []
        var bytes: [String: Data] = [:]
    }

    private func serve(colliding: Int, unique: Int, size: Int) throws -> (Served, URL) {
        let folder = "shared-dir-\(UUID().uuidString)"
        let base = try TestServers.shared.docroot.appendingPathComponent(folder)
        var served = Served()
        func add(_ relative: String, seed: Int) throws {
            let file = base.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            var bytes = Data(count: size)
            bytes.withUnsafeMutableBytes { raw in
                for index in raw.indices { raw[index] = UInt8(truncatingIfNeeded: index &* 31 &+ seed &* 7 &+ index >> 8) }
            }
            bytes.replaceSubrange(0..<8, with: withUnsafeBytes(of: UInt64(seed).bigEndian) { Data($0) })
            try bytes.write(to: file)
            let url = try TestServers.shared.url(.nginx, "/\(folder)/\(relative)").absoluteString
            served.urls.append(url)
            served.bytes[url] = bytes
        }
        for index in 0..<colliding { try add("\(index)/data.bin", seed: index) }
        for index in 0..<unique { try add("u\(index).bin", seed: 1000 + index) }
        return (served, base)
    }

    private func environment(shard: Int) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("SLURM_") || key == "JOB_COMPLETION_INDEX" || key == "SALVO_SHARDS" {
            environment[key] = nil
        }
        environment["JOB_COMPLETION_INDEX"] = String(shard)
        environment["SALVO_SHARDS"] = String(shards)
        return environment
    }

    private func arguments(list: URL, output: URL, manifest: URL, extra: [String] = []) -> [String] {
        ["-i", list.path, "--shard", "auto", "-c", "-d", output.path, "--manifest", manifest.path, "--retry-wait", "0"] + extra
    }

    /// Starts `salvo` for each of `shards` at once, each with its own manifest; the closure
    /// returned waits for them and checks that each exited with 0.
    private func startShards(_ shards: [Int], list: URL, output: URL, root: URL) -> () throws -> Void {
        let outcomes = Mutex([Int: Result<SalvoToolProcess.Outcome, any Error>]())
        let group = DispatchGroup()
        for shard in shards {
            let arguments = arguments(list: list, output: output, manifest: root.appendingPathComponent("manifest-\(shard).jsonl"))
            let environment = environment(shard: shard)
            DispatchQueue.global().async(group: group) {
                let result = Result { try SalvoToolProcess.run(arguments, environment: environment) }
                outcomes.withLock { $0[shard] = result }
            }
        }
        return {
            group.wait()
            for shard in shards {
                let outcome = try XCTUnwrap(outcomes.withLock { $0[shard] }).get()
                XCTAssertEqual(outcome.status, 0, "shard \(shard): \(outcome.standardOutput)\(outcome.standardError)")
            }
        }
    }

    /// Three shards at once, twenty colliding names among them.
    func testConcurrentShardsWithCollidingNamesKeepEveryFile() throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (served, docs) = try serve(colliding: 20, unique: 10, size: 50_000)
        defer { try? FileManager.default.removeItem(at: docs) }
        let list = root.appendingPathComponent("urls.txt")
        try Data(served.urls.map { $0 + "\n" }.joined().utf8).write(to: list)

        try startShards(Array(0..<shards), list: list, output: output, root: root)()
        try checkEveryURLHasOneFile(served, output: output, manifests: (0..<shards).map {
            root.appendingPathComponent("manifest-\($0).jsonl")
        })
    }

    /// Three shards at once; one is killed (SIGKILL) once it has finished a file and has
    /// another partly written, and run again with `-c`: it finds its finished files and takes
    /// up its partial ones, under whatever numbered names they got, and touches no other
    /// shard's.
    func testAKilledShardRunAgainWithContinueFinishesWithoutDuplicates() throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (served, docs) = try serve(colliding: 24, unique: 6, size: 300_000)
        defer { try? FileManager.default.removeItem(at: docs) }
        let list = root.appendingPathComponent("urls.txt")
        try Data(served.urls.map { $0 + "\n" }.joined().utf8).write(to: list)
        let victim = 1
        let victimURLs = Set(served.urls.filter { BulkShard.stableHash($0) % UInt64(shards) == UInt64(victim) })

        let othersFinish = startShards((0..<shards).filter { $0 != victim }, list: list, output: output, root: root)
        // The victim's files arrive slowly (two at a time, 300 KB at 200 KB/s), so it can be
        // killed with finished and unfinished files of its own in the directory.
        let process = Process()
        process.executableURL = try SalvoToolProcess.executable()
        process.arguments = arguments(list: list, output: output, manifest: root.appendingPathComponent("manifest-killed.jsonl"),
                                      extra: ["-j", "2", "--max-download-limit", "200K"])
        process.environment = environment(shard: victim)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)  // a bound against a hang, not a measure
        var state = (finished: 0, partial: 0)
        while process.isRunning, Date() < deadline {
            state = ownFiles(in: output, urls: victimURLs)
            if state.finished > 0 && state.partial > 0 { break }
            usleep(5_000)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, "the shard ended before it was killed")
        XCTAssertGreaterThan(state.finished, 0)
        XCTAssertGreaterThan(state.partial, 0)
        try othersFinish()

        let again = try SalvoToolProcess.run(arguments(list: list, output: output, manifest: root.appendingPathComponent("manifest-\(victim).jsonl")),
                                             environment: environment(shard: victim))
        XCTAssertEqual(again.status, 0, again.standardOutput + again.standardError)
        let rows = try SalvoToolProcess.jsonObjects(String(decoding: try Data(contentsOf: root.appendingPathComponent("manifest-\(victim).jsonl")),
                                                           as: UTF8.self))
        XCTAssertTrue(rows.contains { $0["status"] as? String == "skipped" }, "the finished files were not found: \(rows)")
        try checkEveryURLHasOneFile(served, output: output, manifests: (0..<shards).map {
            root.appendingPathComponent("manifest-\($0).jsonl")
        })
    }

    /// The finished and partial files in `directory` recorded as downloaded for one of `urls`.
    private func ownFiles(in directory: URL, urls: Set<String>) -> (finished: Int, partial: Int) {
        var finished = 0
        var partial = 0
        for name in BulkDownloadFixtures.listing(directory) where !name.hasSuffix(".json") {
            let path = directory.appendingPathComponent(name).path
            guard let owner = BulkFileOwner.read(path: path), urls.contains(owner) else { continue }
            if name.hasSuffix(".part") {
                if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.intValue > 0 {
                    partial += 1
                }
            } else {
                finished += 1
            }
        }
        return (finished, partial)
    }

    private func checkEveryURLHasOneFile(_ served: Served, output: URL, manifests: [URL],
                                         file: StaticString = #filePath, line: UInt = #line) throws {
        let listing = BulkDownloadFixtures.listing(output)
        let leftovers = listing.filter { $0.hasSuffix(".part") || $0.hasSuffix(".json") || $0.hasPrefix(".") }
        XCTAssertEqual(leftovers, [], "partial files, sidecars or hidden files were left: " + leftovers.map { name in
            let path = output.appendingPathComponent(name).path
            let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? -1
            return "\(name) (\(size) bytes, for \(BulkFileOwner.read(path: path) ?? "no URL"))"
        }.joined(separator: ", "), file: file, line: line)
        XCTAssertEqual(listing.count, served.urls.count, "\(listing)", file: file, line: line)
        var found: [String: String] = [:]
        for name in listing {
            let bytes = try Data(contentsOf: output.appendingPathComponent(name))
            let url = try XCTUnwrap(served.bytes.first { $0.value == bytes }?.key, "\(name) holds no URL's bytes", file: file, line: line)
            XCTAssertNil(found[url], "\(url) is in both \(found[url] ?? "") and \(name)", file: file, line: line)
            found[url] = name
        }
        XCTAssertEqual(Set(found.keys), Set(served.urls), "URLs without a file", file: file, line: line)

        var pathOf: [String: String] = [:]
        for manifest in manifests {
            let rows = try SalvoToolProcess.jsonObjects(String(decoding: try Data(contentsOf: manifest), as: UTF8.self))
            for row in rows {
                let url = try XCTUnwrap(row["url"] as? String, file: file, line: line)
                let path = try XCTUnwrap(row["path"] as? String, "\(row)", file: file, line: line)
                XCTAssertTrue(["done", "skipped"].contains(row["status"] as? String), "\(row)", file: file, line: line)
                XCTAssertNil(pathOf[path], "two rows name \(path)", file: file, line: line)
                pathOf[path] = url
                XCTAssertEqual(found[url], (path as NSString).lastPathComponent, "the manifest's \(url)", file: file, line: line)
            }
        }
        XCTAssertEqual(Set(pathOf.values), Set(served.urls), "URLs the manifests do not name", file: file, line: line)
    }
}
