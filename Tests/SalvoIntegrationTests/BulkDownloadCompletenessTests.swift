import XCTest
import Synchronization
@testable import Salvo
@testable import SalvoBulk

/// A list of files from nginx downloads completely: every file byte-identical under its
/// name, nothing partial left, SHA-256 reported, the list read lazily.
final class BulkDownloadCompletenessTests: XCTestCase {
    /// A file with no body (a 200 with `Content-Length: 0`, a 204) has a head but no body
    /// byte: it still arrives, empty, under its name, in one attempt, fetched whole or with
    /// ranges asked for.
    func testEmptyFilesArriveEmptyUnderTheirNames() async throws {
        for split in [1, 4] {
            let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
            defer { try? FileManager.default.removeItem(at: root) }
            var options = BulkDownloadFixtures.options(output)
            options.split = split
            let log = BulkEventLog()
            let entries = [
                BulkEntry(uris: [try TestServers.shared.url(.httpbin, "/bytes/0")], outputName: "zero.bin"),
                BulkEntry(uris: [try TestServers.shared.url(.nginx, "/status/204")], outputName: "no-content.bin"),
            ]
            let summary = await BulkDownloader(options: options).run(next: BulkDownloadFixtures.source(entries), onEvent: log.record)
            XCTAssertEqual(summary.succeeded, 2, "split \(split): \(log.results.map(\.failureReason))")
            XCTAssertEqual(log.results.map(\.attempts), [1, 1], "split \(split): no attempt failed")
            XCTAssertEqual(BulkDownloadFixtures.listing(output), ["no-content.bin", "zero.bin"], "split \(split)")
            for name in ["no-content.bin", "zero.bin"] {
                XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent(name)), Data(), "split \(split): \(name)")
            }
        }
    }

    func testFiftyFilesDownloadByteIdenticalWithNothingPartialLeft() async throws {
        let docroot = try TestServers.shared.docroot
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let prefix = "bulk-\(UUID().uuidString)"
        var entries: [BulkEntry] = []
        var originals: [String: URL] = [:]
        for index in 0..<48 {
            let name = "\(prefix)-\(index).bin"
            let size = index * 4099 + (index % 7) * 10_000 + 1
            let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index &* 13 &+ ($0 >> 10)) })
            let local = docroot.appendingPathComponent(name)
            try bytes.write(to: local)
            addTeardownBlock { try? FileManager.default.removeItem(at: local) }
            originals[name] = local
            entries.append(BulkEntry(uris: [try TestServers.shared.url(.nginx, "/" + name)]))
        }
        for name in ["100k.bin", "1m.bin"] {
            originals[name] = docroot.appendingPathComponent(name)
            entries.append(BulkEntry(uris: [try TestServers.shared.url(.nginx, "/" + name)]))
        }

        // The list is pulled only when a slot is free: never more entries out than in flight.
        let filesInFlight = 6
        let log = BulkEventLog()
        let pulled = Mutex(0)
        let overdrawn = Mutex(false)
        let source = BulkDownloadFixtures.source(entries)
        let downloader = BulkDownloader(options: BulkDownloadFixtures.options(output, filesInFlight: filesInFlight))
        let summary = await downloader.run(next: {
            let out = pulled.withLock { count -> Int in
                count += 1
                return count
            }
            // The entry asked for now is not yet out; those before it that have not finished are.
            if out - 1 - log.finishedCount > filesInFlight { overdrawn.withLock { $0 = true } }
            return try await source()
        }, onEvent: log.record)

        XCTAssertEqual(summary.succeeded, 50)
        XCTAssertEqual(summary.failed, 0)
        XCTAssertTrue(summary.isComplete)
        XCTAssertFalse(overdrawn.withLock { $0 }, "more entries were read than files in flight")
        guard case .summary(let last)? = log.all.last else { return XCTFail("the last event is not the summary") }
        XCTAssertEqual(last, summary)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), originals.keys.sorted(), "only the final files are left")
        for result in log.results {
            let path = try XCTUnwrap(result.path)
            let name = path.lastPathComponent
            let original = try XCTUnwrap(originals[name])
            XCTAssertEqual(try Data(contentsOf: path), try Data(contentsOf: original), name)
            XCTAssertEqual(result.sha256, try BulkDownloadFixtures.digest("sha256sum", of: original), name)
            XCTAssertEqual(result.bytes, Int64(try Data(contentsOf: original).count))
            XCTAssertEqual(result.attempts, 1)
        }
        let started = log.all.filter { if case .started = $0 { true } else { false } }.count
        XCTAssertEqual(started, 50)
    }

    /// The same list as an `AsyncSequence` through `events(for:)`: the stream ends after the
    /// summary.
    func testEventsStreamEndsWithTheSummary() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let urls = try ["/small", "/100k.bin"].map { try TestServers.shared.url(.nginx, $0) }
        let entries = AsyncStream<BulkEntry> { continuation in
            for url in urls { continuation.yield(BulkEntry(uris: [url])) }
            continuation.finish()
        }
        let downloader = BulkDownloader(options: BulkDownloadFixtures.options(output))
        var events: [BulkDownloader.Event] = []
        for await event in downloader.events(for: entries) { events.append(event) }
        guard case .summary(let summary)? = events.last else { return XCTFail("the stream did not end with the summary") }
        XCTAssertEqual(summary.succeeded, 2)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["100k.bin", "small"])
        let docroot = try TestServers.shared.docroot
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("small")),
                       try Data(contentsOf: docroot.appendingPathComponent("small")))
    }

    /// An input list read as it goes, with `out=` and `checksum=` options.
    func testInputListIsDownloadedWithItsOptions() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let docroot = try TestServers.shared.docroot
        let digest = try BulkDownloadFixtures.digest("sha256sum", of: docroot.appendingPathComponent("1m.bin"))
        let list = """
            # two files
            \(try TestServers.shared.url(.nginx, "/1m.bin"))
              out=sub/one.bin
              checksum=sha-256=\(digest)
            \(try TestServers.shared.url(.nginx, "/small"))

            """
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output))
            .run(reading: BulkInputReader(string: list), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 2, "\(log.results.map(\.outcome))")
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["small", "sub"])
        XCTAssertEqual(BulkDownloadFixtures.listing(output.appendingPathComponent("sub")), ["one.bin"])
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("sub/one.bin")),
                       try Data(contentsOf: docroot.appendingPathComponent("1m.bin")))
        XCTAssertEqual(log.results.first?.sha256, digest)
    }

    /// A bad line stops the list: the entries handed out before it are downloaded (the entry
    /// just above it is not: the reader hands an entry out once the next entry line is read,
    /// as its options follow it), and the summary says why.
    func testBadLineStopsReadingAndIsReported() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let list = "\(try TestServers.shared.url(.nginx, "/small"))\n\(try TestServers.shared.url(.nginx, "/100k.bin"))\n"
            + "ftp://example.com/x\n"
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output))
            .run(reading: BulkInputReader(string: list))
        XCTAssertEqual(summary.succeeded, 1)
        XCTAssertTrue(summary.inputError?.contains("line 3") == true, String(describing: summary.inputError))
        XCTAssertFalse(summary.isComplete)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["small"])
    }
}
