import Foundation
import XCTest

/// The `salvo` tool downloading from the test nginx as a real process: what lands in the
/// directory, what it prints, and the status it exits with.
final class SalvoToolDownloadTests: XCTestCase {
    private var root: URL!
    private var output: URL!

    override func setUpWithError() throws {
        (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func nginx(_ path: String) throws -> String { try TestServers.shared.url(.nginx, path).absoluteString }

    private func original(_ name: String) throws -> Data {
        try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent(name))
    }

    private func writeList(_ text: String) throws -> String {
        let list = root.appendingPathComponent("list.txt")
        try Data(text.utf8).write(to: list)
        return list.path
    }

    private func assertDownloaded(_ names: [String: String], file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(BulkDownloadFixtures.listing(output), names.keys.sorted(), file: file, line: line)
        for (saved, source) in names {
            XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent(saved)), try original(source), saved,
                           file: file, line: line)
        }
    }

    func testURLsOnTheCommandLineDownloadWithALinePerFileAndASummary() throws {
        let outcome = try SalvoToolProcess.run(["-d", output.path, try nginx("/small"), try nginx("/100k.bin"), try nginx("/1m.bin")])
        XCTAssertEqual(outcome.status, 0, outcome.standardError)
        XCTAssertEqual(outcome.standardError, "")
        try assertDownloaded(["small": "small", "100k.bin": "100k.bin", "1m.bin": "1m.bin"])
        let lines = outcome.lines
        XCTAssertEqual(Set(lines.prefix(3)), [
            "done  \(output.appendingPathComponent("small").path)  100",
            "done  \(output.appendingPathComponent("100k.bin").path)  102400",
            "done  \(output.appendingPathComponent("1m.bin").path)  1048576",
        ])
        XCTAssertEqual(lines.count, 4, outcome.standardOutput)
        XCTAssertTrue(lines[3].hasPrefix("summary: 3 done, 0 failed, 0 skipped; 1151076 bytes (1.1 MiB) in "), lines[3])
        XCTAssertTrue(lines[3].contains(", mean "), lines[3])
    }

    func testInputListDownloadsEveryEntryUnderItsName() throws {
        let list = try writeList("\(try nginx("/small"))\n  out=first.txt\n# a comment\n\n\(try nginx("/100k.bin"))\n  dir=sub\n")
        let outcome = try SalvoToolProcess.run(["-i", list, "-d", output.path, "--header", "X-Salvo-Test: 1"])
        XCTAssertEqual(outcome.status, 0, outcome.standardError)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("first.txt")), try original("small"))
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("sub/100k.bin")), try original("100k.bin"))
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["first.txt", "sub"])
        XCTAssertTrue(outcome.lines.last?.hasPrefix("summary: 2 done, 0 failed, 0 skipped;") ?? false, outcome.standardOutput)

        // The same list from standard input, streamed.
        let second = root.appendingPathComponent("second")
        let piped = try SalvoToolProcess.run(["-i", "-", "-d", second.path], input: Data(contentsOf: URL(fileURLWithPath: list)))
        XCTAssertEqual(piped.status, 0, piped.standardError)
        XCTAssertEqual(try Data(contentsOf: second.appendingPathComponent("first.txt")), try original("small"))
        XCTAssertEqual(try Data(contentsOf: second.appendingPathComponent("sub/100k.bin")), try original("100k.bin"))
    }

    func testNotFoundFailsThatFileAndKeepsTheOthers() throws {
        let missing = try nginx("/missing-\(UUID().uuidString).bin")
        let outcome = try SalvoToolProcess.run(["-d", output.path, try nginx("/small"), missing, try nginx("/100k.bin")])
        XCTAssertEqual(outcome.status, 1)
        try assertDownloaded(["small": "small", "100k.bin": "100k.bin"])
        let failure = "FAILED \(missing): HTTP 404 Not Found"
        XCTAssertEqual(outcome.lines.filter { $0 == failure }.count, 2, "a line as it failed and one in the summary: \(outcome.standardOutput)")
        XCTAssertTrue(outcome.standardOutput.contains("summary: 2 done, 1 failed, 0 skipped;"), outcome.standardOutput)

        let quiet = try SalvoToolProcess.run(["-q", "-d", output.path, missing])
        XCTAssertEqual(quiet.status, 1)
        XCTAssertEqual(quiet.standardOutput, "")
        XCTAssertEqual(quiet.standardError, failure + "\n")
    }

    func testJSONLinesParseAndNameEachEvent() throws {
        let key = UUID().uuidString
        let flaky = try TestServers.shared.url(.fault, "/fail-twice?key=\(key)").absoluteString
        let missing = try nginx("/missing-\(UUID().uuidString).bin")
        // Paced over ~450 ms: a file that ends within the first progress interval (100 ms)
        // has no progress event.
        let slow = try TestServers.shared.url(.fault, "/slow-ranged?size=1048576&chunks=4&interval=150").absoluteString
        let outcome = try SalvoToolProcess.run(["--json", "--retry-wait", "0", "-d", output.path, slow, flaky, missing])
        XCTAssertEqual(outcome.status, 1, outcome.standardError)
        let events = try SalvoToolProcess.jsonObjects(outcome.standardOutput)
        let names = events.compactMap { $0["event"] as? String }
        XCTAssertEqual(names.count, events.count, "every line has an event")
        XCTAssertEqual(names.filter { $0 == "start" }.count, 3)
        XCTAssertEqual(names.filter { $0 == "done" }.count, 2)
        XCTAssertEqual(names.filter { $0 == "error" }.count, 1)
        XCTAssertEqual(names.filter { $0 == "retry" }.count, 2)
        XCTAssertTrue(names.contains("progress"))
        XCTAssertEqual(names.last, "summary")
        let retry = try XCTUnwrap(events.first { $0["event"] as? String == "retry" })
        XCTAssertEqual(retry["url"] as? String, flaky)
        XCTAssertEqual(retry["attempt"] as? Int, 2)
        XCTAssertNotNil(retry["delay"] as? Double)
        XCTAssertTrue((retry["reason"] as? String)?.contains("503") ?? false, "\(retry)")
        let error = try XCTUnwrap(events.first { $0["event"] as? String == "error" })
        XCTAssertEqual(error["url"] as? String, missing)
        XCTAssertEqual(error["reason"] as? String, "HTTP 404 Not Found")
        let done = try XCTUnwrap(events.first { $0["event"] as? String == "done" && $0["url"] as? String == slow })
        let path = try XCTUnwrap(done["path"] as? String)
        XCTAssertEqual(done["bytes"] as? Int, 1_048_576)
        XCTAssertEqual(done["sha256"] as? String, try BulkDownloadFixtures.digest("sha256sum", of: URL(fileURLWithPath: path)))
        let summary = try XCTUnwrap(events.last)
        XCTAssertEqual(summary["done"] as? Int, 2)
        XCTAssertEqual(summary["failed"] as? Int, 1)
        XCTAssertEqual(summary["skipped"] as? Int, 0)
    }

    func testManifestHasALinePerFileWithItsDigest() throws {
        let manifest = root.appendingPathComponent("manifest.jsonl")
        let missing = try nginx("/missing-\(UUID().uuidString).bin")
        let outcome = try SalvoToolProcess.run(["-d", output.path, "--manifest", manifest.path,
                                                try nginx("/small"), try nginx("/100k.bin"), missing])
        XCTAssertEqual(outcome.status, 1)
        let lines = try SalvoToolProcess.jsonObjects(String(decoding: try Data(contentsOf: manifest), as: UTF8.self))
        XCTAssertEqual(lines.count, 3)
        for line in lines where line["status"] as? String == "done" {
            let path = try XCTUnwrap(line["path"] as? String)
            XCTAssertEqual(line["sha256"] as? String, try BulkDownloadFixtures.digest("sha256sum", of: URL(fileURLWithPath: path)))
            XCTAssertEqual(line["bytes"] as? Int, try Data(contentsOf: URL(fileURLWithPath: path)).count)
            XCTAssertEqual(line["attempts"] as? Int, 1)
            XCTAssertNotNil(line["seconds"] as? Double)
            XCTAssertNotNil(line["url"] as? String)
        }
        XCTAssertEqual(lines.filter { $0["status"] as? String == "done" }.count, 2)
        let failed = try XCTUnwrap(lines.first { $0["status"] as? String == "failed" })
        XCTAssertEqual(failed["url"] as? String, missing)
        XCTAssertEqual(failed["reason"] as? String, "HTTP 404 Not Found")
        XCTAssertFalse(FileManager.default.fileExists(atPath: manifest.path + ".tmp"))
    }

    func testTwoShardsOfOneListFetchEveryURLExactlyOnce() throws {
        let urls = try (0..<12).map { try nginx("/small?n=\($0)") }
        let list = try writeList(urls.enumerated().map { "\($1)\n  out=f\($0)\n" }.joined())
        var fetched: [String] = []
        for shard in ["0/2", "1/2"] {
            let manifest = root.appendingPathComponent("manifest-\(shard.first!).jsonl")
            let outcome = try SalvoToolProcess.run(["-i", list, "-d", output.path, "--shard", shard, "--manifest", manifest.path])
            XCTAssertEqual(outcome.status, 0, outcome.standardError)
            let lines = try SalvoToolProcess.jsonObjects(String(decoding: try Data(contentsOf: manifest), as: UTF8.self))
            XCTAssertFalse(lines.isEmpty, "shard \(shard) took nothing of 12 URLs")
            fetched += lines.compactMap { $0["url"] as? String }
        }
        XCTAssertEqual(fetched.sorted(), urls.sorted())
        XCTAssertEqual(BulkDownloadFixtures.listing(output), (0..<12).map { "f\($0)" }.sorted())
    }

    func testChecksumMismatchFailsAndLeavesNoFinalFile() throws {
        let wrong = "sha-256=" + String(repeating: "0", count: 64)
        let outcome = try SalvoToolProcess.run(["-d", output.path, "-o", "checked.bin", "--checksum", wrong, try nginx("/100k.bin")])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("checked.bin").path))
        XCTAssertTrue(outcome.lines.first?.hasPrefix("FAILED \(try nginx("/100k.bin")): sha-256 mismatch") ?? false, outcome.standardOutput)

        let right = "sha-256=" + (try BulkDownloadFixtures.digest("sha256sum", of: TestServers.shared.docroot.appendingPathComponent("100k.bin")))
        let matched = try SalvoToolProcess.run(["-d", output.path, "-o", "checked.bin", "--checksum", right, try nginx("/100k.bin")])
        XCTAssertEqual(matched.status, 0, matched.standardOutput)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("checked.bin")), try original("100k.bin"))
    }

    func testBadListLineExitsTwoAndDownloadsNothing() throws {
        let list = try writeList("\(try nginx("/small"))\n\(try nginx("/100k.bin"))\n  checksum=sha-256=abc\n")
        let target = root.appendingPathComponent("never")
        let outcome = try SalvoToolProcess.run(["-i", list, "-d", target.path])
        XCTAssertEqual(outcome.status, 2)
        XCTAssertEqual(outcome.standardOutput, "")
        XCTAssertTrue(outcome.standardError.hasPrefix("salvo: \(list):3: "), outcome.standardError)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "something was downloaded")
    }

    func testBadLineInAStreamedListStopsTheRunWithStatusTwo() throws {
        let list = "\(try nginx("/small"))\n  out=first\n  mirror=x\n\(try nginx("/100k.bin"))\n"
        let outcome = try SalvoToolProcess.run(["-i", "-", "-d", output.path, "-j", "1"], input: Data(list.utf8))
        XCTAssertEqual(outcome.status, 2)
        XCTAssertTrue(outcome.standardError.hasSuffix("salvo: (standard input):3: unknown option 'mirror' (known: out, dir, checksum, header, "
                      + "user-agent, http-user, http-passwd, all-proxy, http-proxy, https-proxy, no-proxy, no-netrc, "
                      + "remote-time, allow-overwrite, dry-run)\n"),
                      outcome.standardError)
        XCTAssertFalse(BulkDownloadFixtures.listing(output).contains("100k.bin"), "an entry after the bad line was started")
    }

    /// `-s`, `--max-download-limit`, `--max-overall-download-limit` and `--no-fsync` are
    /// applied and say nothing, and the files arrive whole.
    func testSplitRateLimitsAndNoFsyncRunQuietly() throws {
        let outcome = try SalvoToolProcess.run(["-d", output.path, "-s", "4", "--max-download-limit", "1M",
                                                "--max-overall-download-limit", "2M", "--no-fsync",
                                                try nginx("/small"), try nginx("/1m.bin")])
        XCTAssertEqual(outcome.status, 0, outcome.standardError)
        XCTAssertEqual(outcome.standardError, "")
        try assertDownloaded(["small": "small", "1m.bin": "1m.bin"])
    }

    /// With `-s`, a server that ignores ranges gets one line saying the file came over one
    /// connection, and the file still downloads.
    func testSplitAgainstAServerIgnoringRangesPrintsOneNotice() throws {
        let url = try TestServers.shared.url(.fault, "/no-ranges?size=200000").absoluteString
        let outcome = try SalvoToolProcess.run(["-d", output.path, "-s", "4", "-o", "n.bin", url])
        XCTAssertEqual(outcome.status, 0, outcome.standardError)
        let notices = outcome.standardOutput.split(separator: "\n").filter { $0.hasPrefix("one connection  ") }
        XCTAssertEqual(notices, ["one connection  \(url): the server does not support ranges (it answered with the whole file)"],
                       outcome.standardOutput)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("n.bin")), BulkDownloadFixtures.flakyBytes(200_000))
    }
}
