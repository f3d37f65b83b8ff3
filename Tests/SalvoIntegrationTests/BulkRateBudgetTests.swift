import XCTest
@testable import Salvo
@testable import SalvoBulk

/// The overall rate limit's token bucket, on a clock the test moves by hand, and a limited
/// run end to end: its transfers wait for the bucket and their files still arrive whole.
final class BulkRateBudgetTests: XCTestCase {
    private let second: UInt64 = 1_000_000_000

    func testAFullBucketPaysAtOnceThenAsksForTheTimeTheDebtTakes() throws {
        // 1 MiB/s: the bucket holds a tenth of a second, 104,857.6 bytes.
        let budget = BulkRateBudget(bytesPerSecond: 1 << 20, now: 0)
        XCTAssertEqual(budget.capacity, Double(1 << 20) / 10)
        XCTAssertNil(budget.take(100_000, now: 0))
        XCTAssertNil(budget.take(16_384, now: 0), "a bucket holding anything pays a whole chunk, going into debt")
        let wait = try XCTUnwrap(budget.take(16_384, now: 0))
        let debt = 100_000 + 16_384 - Double(1 << 20) / 10
        XCTAssertEqual(wait, (debt + 1) / Double(1 << 20), accuracy: 1e-9)
        XCTAssertEqual(budget.pauses, 1)
        // After that wait the debt is paid and the chunk goes through.
        let later = UInt64((wait * 1e9).rounded(.up))
        XCTAssertNil(budget.take(16_384, now: later))
    }

    func testAnIdleBucketFillsOnlyToItsCapacity() {
        let budget = BulkRateBudget(bytesPerSecond: 1_000_000, now: 0)
        XCTAssertNil(budget.take(100_000, now: 0))
        // Ten idle seconds buy a tenth of a second of bytes, not ten seconds' worth.
        XCTAssertNil(budget.take(100_000, now: 10 * second))
        XCTAssertNotNil(budget.take(1, now: 10 * second))
    }

    func testASmallRateStillLetsAChunkThroughWithTheMinimumBucket() {
        let budget = BulkRateBudget(bytesPerSecond: 1_000, now: 0)
        XCTAssertEqual(budget.capacity, 16 * 1024, "the bucket holds at least one chunk")
        XCTAssertNil(budget.take(16 * 1024, now: 0))
        let wait = budget.take(1, now: 0)
        XCTAssertEqual(wait ?? 0, 1 / 1_000, accuracy: 1e-9, "an empty bucket asks for the time one byte takes")
    }

    func testTheWaitIsNeverShorterThanAMillisecond() {
        let budget = BulkRateBudget(bytesPerSecond: 1 << 30, now: 0)
        XCTAssertNil(budget.take(Int(budget.capacity) + 1, now: 0))
        XCTAssertEqual(budget.take(1, now: 0), 0.001, "a debt of under two bytes at 1 GiB/s still waits a millisecond")
    }

    func testTheClockGoingBackwardsAddsNothing() {
        let budget = BulkRateBudget(bytesPerSecond: 1_000_000, now: 5 * second)
        XCTAssertNil(budget.take(Int(budget.capacity), now: 5 * second))
        XCTAssertNotNil(budget.take(1, now: 4 * second))
        XCTAssertNotNil(budget.take(1, now: 5 * second))
    }

    /// Three files at once under an overall limit far below what loopback gives: the run's
    /// transfers wait for the bucket (pausing and continuing their libcurl handles) and every
    /// file still arrives byte-identical.
    func testLimitedRunWaitsForTheBudgetAndFilesArriveWhole() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        var options = BulkDownloadFixtures.options(output)
        options.maximumOverallRate = try BulkRate(parsing: "2M")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: options).run(next: BulkDownloadFixtures.source(try BulkDownloadFixtures.threeFiles()),
                                                                 onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 3, "\(log.results.map(\.outcome))")
        XCTAssertGreaterThan(summary.overallRateWaits, 0, "2.1 MB cannot pass a bucket of 200 KiB without waiting")
        try BulkDownloadFixtures.assertThreeFilesArrived(in: output)
    }

    func testAnUnlimitedRunNeverWaits() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output)).run(next: BulkDownloadFixtures.source([
            BulkEntry(uris: [try TestServers.shared.url(.nginx, "/1m.bin")]),
        ]))
        XCTAssertEqual(summary.succeeded, 1)
        XCTAssertEqual(summary.overallRateWaits, 0)
    }
}
