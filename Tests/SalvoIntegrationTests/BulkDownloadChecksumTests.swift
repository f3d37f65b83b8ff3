import XCTest
@testable import Salvo
@testable import SalvoBulk

/// A bulk run verifies an entry's checksum (SHA-256, SHA-1, MD5) before the file takes its
/// name; a mismatch leaves nothing under the name and says both digests.
final class BulkDownloadChecksumTests: XCTestCase {
    func testMatchingChecksumsOfEachFunctionKeepTheFile() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let original = try TestServers.shared.docroot.appendingPathComponent("100k.bin")
        let url = try TestServers.shared.url(.nginx, "/100k.bin")
        let entries = [
            BulkEntry(uris: [url], outputName: "sha256.bin",
                      checksum: try BulkChecksum(parsing: "sha-256=" + BulkDownloadFixtures.digest("sha256sum", of: original).uppercased())),
            BulkEntry(uris: [url], outputName: "sha1.bin",
                      checksum: try BulkChecksum(parsing: "sha-1=" + BulkDownloadFixtures.digest("sha1sum", of: original))),
            BulkEntry(uris: [url], outputName: "md5.bin",
                      checksum: try BulkChecksum(parsing: "md5=" + BulkDownloadFixtures.digest("md5sum", of: original))),
        ]
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output))
            .run(next: BulkDownloadFixtures.source(entries), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 3, "\(log.results.map(\.outcome))")
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["md5.bin", "sha1.bin", "sha256.bin"])
        for name in ["md5.bin", "sha1.bin", "sha256.bin"] {
            XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent(name)), try Data(contentsOf: original))
        }
    }

    func testMismatchLeavesNoFileAndNamesBothDigests() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let original = try TestServers.shared.docroot.appendingPathComponent("100k.bin")
        let actual = try BulkDownloadFixtures.digest("sha256sum", of: original)
        let wrong = String(repeating: "0", count: 64)
        let md5Actual = try BulkDownloadFixtures.digest("md5sum", of: original)
        let md5Wrong = String(repeating: "f", count: 32)
        let url = try TestServers.shared.url(.nginx, "/100k.bin")
        let entries = [
            BulkEntry(uris: [url], outputName: "bad.bin", checksum: try BulkChecksum(parsing: "sha-256=" + wrong)),
            BulkEntry(uris: [url], outputName: "bad-md5.bin", checksum: try BulkChecksum(parsing: "md5=" + md5Wrong)),
        ]
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output))
            .run(next: BulkDownloadFixtures.source(entries), onEvent: log.record)
        XCTAssertEqual(summary.failed, 2)
        let reasons = log.results.map { $0.failureReason ?? "" }
        XCTAssertTrue(reasons[0].contains(wrong) && reasons[0].contains(actual), reasons[0])
        XCTAssertTrue(reasons[1].contains(md5Wrong) && reasons[1].contains(md5Actual), reasons[1])
        XCTAssertEqual(log.results.map(\.attempts), [1, 1], "a mismatch is not retried on the same URI")
        // Neither the name nor the partial file nor its sidecar is left.
        XCTAssertEqual(BulkDownloadFixtures.listing(output), [])
    }

    /// A mirror that serves other bytes fails its URI; the next mirror's file is kept.
    func testMismatchOnOneMirrorFallsToTheNext() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let original = try TestServers.shared.docroot.appendingPathComponent("100k.bin")
        let checksum = try BulkChecksum(parsing: "sha-256=" + BulkDownloadFixtures.digest("sha256sum", of: original))
        let entry = BulkEntry(uris: [try TestServers.shared.url(.nginx, "/small"), try TestServers.shared.url(.nginx, "/100k.bin")],
                              outputName: "mirror.bin", checksum: checksum)
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output))
            .run(next: BulkDownloadFixtures.source([entry]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.outcome))")
        XCTAssertEqual(log.results.first?.attempts, 2)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["mirror.bin"])
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("mirror.bin")), try Data(contentsOf: original))
    }
}
