import XCTest
@testable import Salvo
@testable import SalvoBulk

/// `maximumRatePerFile`: the limit reaches libcurl's options for every transfer of the
/// downloader's engine (shared out among a file's ranges), and a limited file still arrives
/// whole. How fast it arrives is the benchmark's business, not a test's.
final class BulkDownloadRateLimitTests: XCTestCase {
    func testTransportRateReachesTheEngineOptions() {
        XCTAssertEqual(TransportConfiguration().engineOptions.maximumReceiveRate, 0, "no limit by default")
        XCTAssertEqual(TransportConfiguration(maximumReceiveRate: 500_000).engineOptions.maximumReceiveRate, 500_000)
        XCTAssertEqual(TransportConfiguration(maximumReceiveRate: -1).maximumReceiveRate, 0)
    }

    func testRatePerFileReachesTheDownloadersEngineOptions() throws {
        let output = FileManager.default.temporaryDirectory
        let limited = BulkDownloader(options: .init(outputDirectory: output, maximumRatePerFile: try BulkRate(parsing: "1M")))
        XCTAssertEqual(limited.transport.loop.options.maximumReceiveRate, 1 << 20)
        let split = BulkDownloader(options: .init(outputDirectory: output, split: 3, maximumRatePerFile: BulkRate(bytesPerSecond: 1000)))
        XCTAssertEqual(split.transport.loop.options.maximumReceiveRate, 334, "each of three ranges gets a third, rounded up")
        let unlimited = BulkDownloader(options: .init(outputDirectory: output))
        XCTAssertEqual(unlimited.transport.loop.options.maximumReceiveRate, 0)
    }

    func testLimitedDownloadsArriveByteIdentical() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        var options = BulkDownloadFixtures.options(output)
        options.maximumRatePerFile = try BulkRate(parsing: "4M")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: options).run(next: BulkDownloadFixtures.source(try BulkDownloadFixtures.threeFiles()),
                                                                 onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 3, "\(log.results.map(\.outcome))")
        try BulkDownloadFixtures.assertThreeFilesArrived(in: output)
    }
}
