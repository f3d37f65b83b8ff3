import Foundation
import XCTest

/// `salvo`'s `--load-cookies`, `-U`, `-R`, `--dry-run` and `--allow-overwrite` against the
/// test nginx.
final class SalvoToolRequestOptionsTests: XCTestCase {
    private var root: URL!
    private var output: URL!

    override func setUpWithError() throws {
        (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func run(_ arguments: [String], directory: URL? = nil) throws -> SalvoToolProcess.Outcome {
        try SalvoToolProcess.run(["-d", (directory ?? output).path] + arguments, environment: SalvoToolEnvironment.make(home: root))
    }

    private func nginx(_ path: String) throws -> String { try TestServers.shared.url(.nginx, path).absoluteString }

    private func contents(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: output.appendingPathComponent(name)), as: UTF8.self)
    }

    private func original(_ name: String) throws -> Data {
        try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent(name))
    }

    func testLoadCookiesSendsTheCookiesOfTheHost() throws {
        let refused = try run([try nginx("/cookie-only/small")])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.standardOutput.contains("HTTP 403"), refused.standardOutput)

        let cookies = root.appendingPathComponent("cookies.txt")
        try Data("""
            # Netscape HTTP Cookie File
            127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tletmein
            #HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tflavour\toat
            127.0.0.1\tFALSE\t/\tTRUE\t0\tsecure-only\tno
            127.0.0.1\tFALSE\t/\tFALSE\t1000\texpired\tno
            localhost\tFALSE\t/\tFALSE\t0\tother-host\tno

            """.utf8).write(to: cookies)
        let outcome = try run(["--load-cookies", cookies.path, try nginx("/cookie-only/small"), try nginx("/show-request")])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("small")), try original("small"))
        let shown = try contents("show-request")
        XCTAssertTrue(shown.contains("cookie=[session=letmein; flavour=oat]\n"), shown)
    }

    func testUserAgentReplacesSalvosAndAnEntryLineReplacesThat() throws {
        let list = root.appendingPathComponent("list.txt")
        try Data("\(try nginx("/show-request"))\n  out=tool\n\(try nginx("/show-request?entry"))\n  out=entry\n  user-agent=EntryAgent/2\n".utf8)
            .write(to: list)
        let outcome = try run(["-U", "ToolAgent/1", "-i", list.path])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput)
        let tool = try contents("tool")
        let entry = try contents("entry")
        XCTAssertTrue(tool.contains("user-agent=[ToolAgent/1]"), tool)
        XCTAssertTrue(entry.contains("user-agent=[EntryAgent/2]"), entry)
    }

    func testRemoteTimeSetsTheFilesTimeFromLastModified() throws {
        let outcome = try run(["-R", "-o", "dated", try nginx("/dated.txt")])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput)
        let attributes = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("dated").path)
        XCTAssertEqual((attributes[.modificationDate] as? Date)?.timeIntervalSince1970, 1_000_000_000)

        let without = try run(["-o", "now", try nginx("/dated.txt")])
        XCTAssertEqual(without.status, 0, without.standardOutput)
        let now = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("now").path)
        XCTAssertGreaterThan((now[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0, 1_500_000_000)
    }

    func testDryRunChecksEachURLAndWritesNothing() throws {
        let target = root.appendingPathComponent("never")
        let present = try run(["--dry-run", try nginx("/small"), try nginx("/1m.bin")], directory: target)
        XCTAssertEqual(present.status, 0, present.standardOutput)
        XCTAssertEqual(Set(present.lines.prefix(2)), ["available  \(try nginx("/small"))", "available  \(try nginx("/1m.bin"))"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "a dry run made the directory")

        let missing = try nginx("/missing-\(UUID().uuidString)")
        let absent = try run(["--dry-run=true", try nginx("/small"), missing], directory: target)
        XCTAssertEqual(absent.status, 1, absent.standardOutput)
        XCTAssertTrue(absent.standardOutput.contains("FAILED \(missing): HTTP 404"), absent.standardOutput)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "a dry run made the directory")
    }

    func testAllowOverwriteReplacesAnExistingFileInsteadOfNumbering() throws {
        try Data("old".utf8).write(to: output.appendingPathComponent("small"))
        let numbered = try run([try nginx("/small")])
        XCTAssertEqual(numbered.status, 0, numbered.standardOutput)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["small", "small (1)"])
        XCTAssertEqual(try contents("small"), "old")

        let replaced = try run(["--allow-overwrite", try nginx("/small")])
        XCTAssertEqual(replaced.status, 0, replaced.standardOutput)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["small", "small (1)"])
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("small")), try original("small"))

        // Two entries of one run that come to one name still get two files.
        try FileManager.default.removeItem(at: output.appendingPathComponent("small (1)"))
        let twice = try run(["--allow-overwrite=true", try nginx("/small?a"), try nginx("/small?b")])
        XCTAssertEqual(twice.status, 0, twice.standardOutput)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["small", "small (1)"])
    }
}
