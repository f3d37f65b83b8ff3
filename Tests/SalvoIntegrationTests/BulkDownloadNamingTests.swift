import XCTest
@testable import Salvo
@testable import SalvoBulk

/// How a bulk run names files: collisions get ` (1)`, and a server's name never leaves the
/// output directory.
final class BulkDownloadNamingTests: XCTestCase {
    func testCollidingNamesGetNumberedBeforeTheExtension() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let small = try TestServers.shared.url(.nginx, "/small")
        let hundred = try TestServers.shared.url(.nginx, "/100k.bin")
        let entries = [
            BulkEntry(uris: [small], outputName: "a.txt"),
            BulkEntry(uris: [hundred], outputName: "a.txt"),
            BulkEntry(uris: [small], outputName: "a.txt"),
            BulkEntry(uris: [small]),
            BulkEntry(uris: [try TestServers.shared.url(.nginx, "/small?second")]),
        ]
        // One file at a time: the order of claims is the order of the list.
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output, filesInFlight: 1))
            .run(next: BulkDownloadFixtures.source(entries), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 5)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["a (1).txt", "a (2).txt", "a.txt", "small", "small (1)"])
        let docroot = try TestServers.shared.docroot
        let smallBytes = try Data(contentsOf: docroot.appendingPathComponent("small"))
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("a.txt")), smallBytes)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("a (1).txt")),
                       try Data(contentsOf: docroot.appendingPathComponent("100k.bin")))
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("a (2).txt")), smallBytes)
        XCTAssertEqual(log.results.map { $0.path?.lastPathComponent },
                       ["a.txt", "a (1).txt", "a (2).txt", "small", "small (1)"])
    }

    /// Two downloaders in one process, each with a list whose names all collide with the
    /// other's, write into one directory at once: every file is kept, with its own bytes, and
    /// every path is reported once.
    func testTwoDownloadersInOneDirectoryKeepEachOthersFiles() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let docroot = try TestServers.shared.docroot
        let sources = ["small", "100k.bin", "1m.bin"]
        func entries(_ run: Int) throws -> [BulkEntry] {
            try (0..<12).map { index in
                BulkEntry(uris: [try TestServers.shared.url(.nginx, "/\(sources[index % 3])?run=\(run)&n=\(index)")], outputName: "f.bin")
            }
        }
        let first = BulkEventLog()
        let second = BulkEventLog()
        let (firstEntries, secondEntries) = (try entries(1), try entries(2))
        async let one = BulkDownloader(options: BulkDownloadFixtures.options(output))
            .run(next: BulkDownloadFixtures.source(firstEntries), onEvent: first.record)
        async let two = BulkDownloader(options: BulkDownloadFixtures.options(output))
            .run(next: BulkDownloadFixtures.source(secondEntries), onEvent: second.record)
        let summaries = await [one, two]
        XCTAssertEqual(summaries.map(\.succeeded), [12, 12], "\(first.results.map(\.outcome)) \(second.results.map(\.outcome))")
        let results = first.results + second.results
        let paths = results.compactMap { $0.path?.lastPathComponent }
        XCTAssertEqual(Set(paths).count, 24, "\(paths.sorted())")
        XCTAssertEqual(BulkDownloadFixtures.listing(output), paths.sorted())
        for result in results {
            let url = try XCTUnwrap(result.url)
            let source = try XCTUnwrap(sources.first { url.path.hasSuffix($0) })
            XCTAssertEqual(try Data(contentsOf: try XCTUnwrap(result.path)), try Data(contentsOf: docroot.appendingPathComponent(source)),
                           "\(url)")
        }
    }

    func testNumberedNamesKeepTheExtensionAndLeadingDots() {
        XCTAssertEqual(BulkNameClaims.numbered("a.txt", 1), "a (1).txt")
        XCTAssertEqual(BulkNameClaims.numbered("archive.tar.gz", 2), "archive.tar (2).gz")
        XCTAssertEqual(BulkNameClaims.numbered(".profile", 1), ".profile (1)")
        XCTAssertEqual(BulkNameClaims.numbered("dir.d/file", 1), "dir.d/file (1)")
    }

    /// Thousands of URLs with one name (`download?id=N`) get every number once, in order,
    /// and a name taken outright is skipped by the numbering.
    func testManyClaimsOfOneNameAreNumberedInOrder() {
        let claims = BulkNameClaims()
        XCTAssertEqual(claims.claim("download (3)"), "download (3)")
        let names = (0..<20_000).map { _ in claims.claim("download") }
        XCTAssertEqual(Set(names).count, names.count)
        XCTAssertEqual(Array(names.prefix(5)), ["download", "download (1)", "download (2)", "download (4)", "download (5)"])
        XCTAssertEqual(names.last, "download (20000)")
        XCTAssertEqual(claims.claim("download"), "download (20001)")
    }

    func testHostileServerNamesStayInsideTheDirectory() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        func plain(_ path: String, cd: String?) throws -> URL {
            guard let cd else { return try TestServers.shared.url(.fault, path) }
            let encoded = try XCTUnwrap(cd.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            return try TestServers.shared.url(.fault, path + "?cd=" + encoded)
        }
        let entries = [
            BulkEntry(uris: [try plain("/plain/one", cd: "attachment; filename=\"../../x\"")]),
            BulkEntry(uris: [try plain("/plain/two", cd: "attachment; filename*=UTF-8''..%2F..%2Fstar")]),
            BulkEntry(uris: [try plain("/plain/three", cd: "attachment; filename=\"..\"")]),
            BulkEntry(uris: [try plain("/plain/..%2F..%2Fescape", cd: nil)]),
            BulkEntry(uris: [try plain("/plain/%2e%2e", cd: nil)]),
        ]
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output, filesInFlight: 1))
            .run(next: BulkDownloadFixtures.source(entries), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 5, "\(log.results.map(\.outcome))")
        // "..": Content-Disposition gives nothing usable, so the URL's name ("three") is used;
        // "%2e%2e" leaves nothing usable at all.
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["escape", "index.html", "star", "three", "x"])
        XCTAssertEqual(BulkDownloadFixtures.listing(root), ["out"], "a file was written outside the output directory")
        XCTAssertEqual(BulkDownloadFixtures.listing(root.deletingLastPathComponent()).filter { $0 == "x" || $0 == "star" }, [])
        XCTAssertEqual(try String(contentsOf: output.appendingPathComponent("x"), encoding: .utf8), "plain\n")
    }

    /// A name is claimed before the first request, from the first URI; the response that
    /// brings the file names it: a mirror's URL gives its own name, and nothing of the first
    /// claim stays behind.
    func testAFileFromAMirrorTakesTheMirrorsName() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = try TestServers.shared.url(.nginx, "/missing-\(UUID().uuidString).bin")
        let mirror = try TestServers.shared.url(.nginx, "/100k.bin")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [missing, mirror])]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.failureReason))")
        XCTAssertEqual(log.results.first?.url, mirror)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["100k.bin"])
    }

    /// A name claimed before the first request and never confirmed by a response goes back to
    /// the run: the next file that wants it gets it, not a numbered variant.
    func testANameNoResponseConfirmedGoesBackToTheRun() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = try TestServers.shared.url(.nginx, "/missing-\(UUID().uuidString)/100k.bin")
        let present = try TestServers.shared.url(.nginx, "/100k.bin")
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output, filesInFlight: 1))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [missing]), BulkEntry(uris: [present])]))
        XCTAssertEqual(summary.succeeded, 1)
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["100k.bin"])
    }

    /// Without `continuePartial`, an earlier run's partial file of the same URL is left as it
    /// is when no response comes to replace it: a later `--continue` still finds it.
    func testAnEarlierRunsPartialFileStaysWhenNoResponseComes() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // Port 1 refuses connections: the attempt fails before any response.
        let unreachable = try XCTUnwrap(URL(string: "http://127.0.0.1:1/kept.bin"))
        let partPath = output.appendingPathComponent("kept.bin.part").path
        let bytes = Data(repeating: 7, count: 4096)
        try bytes.write(to: URL(fileURLWithPath: partPath))
        let sidecar = BulkPartSidecar(url: unreachable.absoluteString, etag: "\"v1\"", lastModified: nil, expectedLength: 10_000,
                                      bytesDone: 4096)
        try sidecar.write(to: BulkPartSidecar.path(forPart: partPath))
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output, maxTries: 1))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [unreachable])]))
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["kept.bin.part", "kept.bin.part.json"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: partPath)), bytes)
    }
}
