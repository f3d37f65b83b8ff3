import XCTest
@testable import Salvo
@testable import SalvoBulk

/// Continuing an earlier run's `NAME.part` with its sidecar: a range when the server honours
/// it, the whole file when it does not, and a fresh start without `continuePartial`.
final class BulkDownloadResumeTests: XCTestCase {
    private let size = 300_000
    private let kept = 100_000

    /// Writes `name.part` with `bytes` and its sidecar naming `url` and `etag`.
    private func plantPart(_ name: String, in output: URL, bytes: Data, url: URL, etag: String) throws {
        let part = output.appendingPathComponent(name + ".part")
        try bytes.write(to: part)
        let sidecar = BulkPartSidecar(url: url.absoluteString, etag: etag, lastModified: nil,
                                      expectedLength: Int64(size), bytesDone: Int64(bytes.count))
        try sidecar.write(to: part.path + ".json")
    }

    func testContinueSendsRangeAndEndsByteIdentical() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = try TestServers.shared.url(.fault, "/flaky-file?key=\(UUID().uuidString)&size=\(size)&times=0")
        let expected = BulkDownloadFixtures.flakyBytes(size)
        try plantPart("f.bin", in: output, bytes: expected.prefix(kept), url: url, etag: "\"flaky\"")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output, continuePartial: true))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [url], outputName: "f.bin")]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.outcome))")
        let result = try XCTUnwrap(log.results.first)
        XCTAssertEqual(result.resumedFrom, Int64(kept))
        // Only the rest came over the network: the server answered the range with a 206.
        XCTAssertEqual(result.bytesReceived, Int64(size - kept))
        XCTAssertEqual(result.bytes, Int64(size))
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("f.bin")), expected)
        XCTAssertEqual(result.sha256, try BulkDownloadFixtures.digest("sha256sum", of: output.appendingPathComponent("f.bin")),
                       "the digest covers the kept bytes too")
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["f.bin"])
    }

    /// The URL's name is used to find the partial file when the entry names none.
    func testContinueFindsThePartialFileByTheURLName() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = try TestServers.shared.url(.fault, "/flaky-file?key=\(UUID().uuidString)&size=\(size)&times=0")
        let expected = BulkDownloadFixtures.flakyBytes(size)
        try plantPart("flaky-file", in: output, bytes: expected.prefix(kept), url: url, etag: "\"flaky\"")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output, continuePartial: true))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [url])]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1)
        XCTAssertEqual(log.results.first?.bytesReceived, Int64(size - kept))
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("flaky-file")), expected)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["flaky-file"])
    }

    func testServerIgnoringRangesRestartsFromZero() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = try TestServers.shared.url(.fault, "/no-ranges?size=\(size)")
        // Bytes that are not the file's: appended to, they would show.
        try plantPart("n.bin", in: output, bytes: Data(repeating: 0xEE, count: kept), url: url, etag: "\"nr\"")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output, continuePartial: true))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [url], outputName: "n.bin")]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.outcome))")
        let result = try XCTUnwrap(log.results.first)
        XCTAssertEqual(result.bytesReceived, Int64(size))
        XCTAssertEqual(result.resumedFrom, 0)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("n.bin")), BulkDownloadFixtures.flakyBytes(size))
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["n.bin"])
    }

    func testWithoutContinueAnExistingPartialFileIsReplaced() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = try TestServers.shared.url(.fault, "/flaky-file?key=\(UUID().uuidString)&size=\(size)&times=0")
        try plantPart("r.bin", in: output, bytes: Data(repeating: 0xEE, count: kept), url: url, etag: "\"flaky\"")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [url], outputName: "r.bin")]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1)
        XCTAssertEqual(log.results.first?.bytesReceived, Int64(size))
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("r.bin")), BulkDownloadFixtures.flakyBytes(size))
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["r.bin"])
    }

    /// A partial file whose sidecar names another URL is not this entry's: it stays for its
    /// own URL's run, and this one downloads under the next name.
    func testSidecarOfAnotherURLIsNotContinued() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = try TestServers.shared.url(.fault, "/flaky-file?key=\(UUID().uuidString)&size=\(size)&times=0")
        let other = try TestServers.shared.url(.fault, "/flaky-file?key=other&size=\(size)")
        try plantPart("o.bin", in: output, bytes: Data(repeating: 0xEE, count: kept), url: other, etag: "\"flaky\"")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output, continuePartial: true))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [url], outputName: "o.bin")]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1)
        XCTAssertEqual(log.results.first?.resumedFrom, 0)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("o (1).bin")), BulkDownloadFixtures.flakyBytes(size))
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("o.bin.part")), Data(repeating: 0xEE, count: kept))
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["o (1).bin", "o.bin.part", "o.bin.part.json"])
    }
}
