import XCTest
@testable import Salvo
@testable import SalvoBulk

/// `continuePartial` and what an earlier run left beyond a partial file at a name known up
/// front: a file already whole under its final name (skipped), one that is not (kept, and the
/// download takes the next name),
/// and a partial file at the name only the response's `Content-Disposition` gives
/// (continued with a range).
final class BulkDownloadExistingFileTests: XCTestCase {
    private let size = 200_000

    private func rangedURL(_ key: String, disposition: String? = nil) throws -> URL {
        let name = disposition.map { "&cd=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) } ?? ""
        return try TestServers.shared.url(.fault, "/ranged-count?key=\(key)&size=\(size)\(name)")
    }

    private func run(_ entries: [BulkEntry], in output: URL, continuePartial: Bool = true) async -> (BulkDownloader.Summary, BulkEventLog) {
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output, continuePartial: continuePartial))
            .run(next: BulkDownloadFixtures.source(entries), onEvent: log.record)
        return (summary, log)
    }

    func testAWholeFileUnderItsNameIsSkippedAfterOneHead() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let key = UUID().uuidString
        let expected = BulkDownloadFixtures.flakyBytes(size)
        try expected.write(to: output.appendingPathComponent("whole.bin"))
        let before = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("whole.bin").path)
        let (summary, log) = await run([BulkEntry(uris: [try rangedURL(key)], outputName: "whole.bin")], in: output)
        XCTAssertEqual(summary.alreadyComplete, 1, "\(log.results.map(\.outcome))")
        XCTAssertEqual(summary.succeeded, 0)
        XCTAssertTrue(summary.isComplete)
        let result = try XCTUnwrap(log.results.first)
        XCTAssertEqual(result.outcome, .alreadyComplete)
        XCTAssertEqual(result.path?.lastPathComponent, "whole.bin")
        XCTAssertEqual(result.bytes, Int64(size))
        XCTAssertEqual(result.bytesReceived, 0)
        XCTAssertEqual(try BulkDownloadFixtures.rangesAsked(key), [""], "one request, its body not taken")
        let after = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("whole.bin").path)
        XCTAssertEqual(before[.modificationDate] as? Date, after[.modificationDate] as? Date, "the file was not written")
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["whole.bin"])
    }

    func testAFileMatchingTheChecksumIsSkippedWithoutARequest() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let key = UUID().uuidString
        let file = output.appendingPathComponent("sum.bin")
        try BulkDownloadFixtures.flakyBytes(size).write(to: file)
        let checksum = try BulkChecksum(parsing: "sha-256=" + BulkDownloadFixtures.digest("sha256sum", of: file))
        let (summary, log) = await run([BulkEntry(uris: [try rangedURL(key)], outputName: "sum.bin", checksum: checksum)], in: output)
        XCTAssertEqual(summary.alreadyComplete, 1, "\(log.results.map(\.outcome))")
        XCTAssertEqual(log.results.first?.attempts, 0)
        XCTAssertEqual(try BulkDownloadFixtures.rangesAsked(key), [], "no request at all")
    }

    /// A file under the name that is not whole was not made by this run: it stays as it is,
    /// and the download takes the next free name.
    func testAShorterFileUnderItsNameIsKeptAndTheDownloadTakesTheNextName() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = output.appendingPathComponent("short.bin")
        let foreign = Data(repeating: 0xEE, count: 1000)
        try foreign.write(to: file)
        let (summary, log) = await run([BulkEntry(uris: [try rangedURL(UUID().uuidString)], outputName: "short.bin")], in: output)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.outcome))")
        XCTAssertEqual(log.results.first?.path?.lastPathComponent, "short (1).bin")
        XCTAssertEqual(try Data(contentsOf: file), foreign)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("short (1).bin")), BulkDownloadFixtures.flakyBytes(size))
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["short (1).bin", "short.bin"])
    }

    func testAFileNotMatchingTheChecksumIsKeptAndTheDownloadTakesTheNextName() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let key = UUID().uuidString
        let file = output.appendingPathComponent("stale.bin")
        try BulkDownloadFixtures.flakyBytes(size).write(to: file)
        let good = try BulkChecksum(parsing: "sha-256=" + BulkDownloadFixtures.digest("sha256sum", of: file))
        // Same length, other bytes: the size alone would pass it.
        let foreign = Data(repeating: 0xEE, count: size)
        try foreign.write(to: file)
        let (summary, log) = await run([BulkEntry(uris: [try rangedURL(key)], outputName: "stale.bin", checksum: good)], in: output)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.outcome))")
        XCTAssertEqual(try Data(contentsOf: file), foreign)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("stale (1).bin")), BulkDownloadFixtures.flakyBytes(size))
    }

    func testWithoutContinueAWholeFileIsDownloadedAgainUnderTheNextName() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try BulkDownloadFixtures.flakyBytes(size).write(to: output.appendingPathComponent("again.bin"))
        let entry = BulkEntry(uris: [try rangedURL(UUID().uuidString)], outputName: "again.bin")
        let (summary, log) = await run([entry], in: output, continuePartial: false)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.outcome))")
        XCTAssertEqual(log.results.first?.bytesReceived, Int64(size))
        XCTAssertEqual(log.results.first?.path?.lastPathComponent, "again (1).bin")
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["again (1).bin", "again.bin"])
    }

    /// The name comes from the response: the first request learns it, finds the partial
    /// file an earlier run left under it, and the next asks only for the rest.
    func testAPartialFileNamedByContentDispositionIsContinued() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let key = UUID().uuidString
        let url = try rangedURL(key, disposition: "attachment; filename=\"named.bin\"")
        let expected = BulkDownloadFixtures.flakyBytes(size)
        let kept = 60_000
        let part = output.appendingPathComponent("named.bin.part")
        try expected.prefix(kept).write(to: part)
        try BulkPartSidecar(url: url.absoluteString, etag: "\"rc\"", lastModified: nil, expectedLength: Int64(size),
                            bytesDone: Int64(kept)).write(to: part.path + ".json")
        let (summary, log) = await run([BulkEntry(uris: [url])], in: output)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.outcome))")
        let result = try XCTUnwrap(log.results.first)
        XCTAssertEqual(result.resumedFrom, Int64(kept))
        XCTAssertEqual(result.bytesReceived, Int64(size - kept))
        XCTAssertEqual(result.attempts, 1, "learning the name is not an attempt")
        XCTAssertEqual(try BulkDownloadFixtures.rangesAsked(key), ["", "bytes=\(kept)-"])
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("named.bin")), expected)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["named.bin"])
    }
}
