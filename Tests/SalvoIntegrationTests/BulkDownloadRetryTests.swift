import XCTest
@testable import Salvo
@testable import SalvoBulk

/// Which failures a bulk run retries (503 until it passes), which it does not (404), and the
/// entry's mirrors when a URI fails for good.
final class BulkDownloadRetryTests: XCTestCase {
    func testNotFoundFailsAtOnceWhileOthersSucceed() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let entries = [
            BulkEntry(uris: [try TestServers.shared.url(.nginx, "/small")]),
            BulkEntry(uris: [try TestServers.shared.url(.nginx, "/missing-\(UUID().uuidString).bin")]),
            BulkEntry(uris: [try TestServers.shared.url(.nginx, "/100k.bin")]),
        ]
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output))
            .run(next: BulkDownloadFixtures.source(entries), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 2)
        XCTAssertEqual(summary.failed, 1)
        XCTAssertFalse(summary.isComplete)
        let missing = log.results[1]
        XCTAssertEqual(missing.attempts, 1)
        XCTAssertTrue(log.retries(of: 1).isEmpty)
        XCTAssertTrue(missing.failureReason?.contains("404") == true, String(describing: missing.failureReason))
        XCTAssertNil(missing.path)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["100k.bin", "small"])
    }

    func testServiceUnavailableTwiceSucceedsOnTheThirdAttempt() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let size = 150_000
        let url = try TestServers.shared.url(.fault, "/flaky-file?key=\(UUID().uuidString)&size=\(size)&times=2")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [url], outputName: "flaky.bin")]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.outcome))")
        XCTAssertEqual(log.results.first?.attempts, 3)
        XCTAssertEqual(log.retries(of: 0).map(\.attempt), [2, 3])
        XCTAssertTrue(log.retries(of: 0).allSatisfy { $0.reason.contains("503") })
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("flaky.bin")), BulkDownloadFixtures.flakyBytes(size))
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["flaky.bin"])
    }

    func testRetriesStopAtMaxTriesThenTheNextMirrorIsTried() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let busy = try TestServers.shared.url(.fault, "/flaky-file?key=\(UUID().uuidString)&size=10&times=100")
        let mirror = try TestServers.shared.url(.nginx, "/small")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output, maxTries: 2))
            .run(next: BulkDownloadFixtures.source([
                BulkEntry(uris: [busy, mirror], outputName: "m.txt"),
                BulkEntry(uris: [busy], outputName: "never.txt"),
            ]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1)
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(log.results[0].attempts, 3, "two tries of the busy URI, one of the mirror")
        XCTAssertEqual(log.results[0].url, mirror)
        XCTAssertEqual(log.results[1].attempts, 2)
        XCTAssertTrue(log.results[1].failureReason?.contains("503") == true)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["m.txt"])
    }

    func testRetryRuleClassifiesStatusesAndHonoursRetryAfter() {
        for code in [408, 429, 500, 502, 503, 504] {
            XCTAssertTrue(BulkRetryRule.failure(forStatus: code, retryAfter: nil).isRetryable, "\(code)")
        }
        for code in [400, 401, 403, 404, 410, 501] {
            XCTAssertFalse(BulkRetryRule.failure(forStatus: code, retryAfter: nil).isRetryable, "\(code)")
        }
        XCTAssertEqual(BulkRetryRule.failure(forStatus: 503, retryAfter: "7").retryAfter, 7)
        XCTAssertEqual(BulkRetryRule.failure(forStatus: 429, retryAfter: "3").retryAfter, 3)
        XCTAssertNil(BulkRetryRule.failure(forStatus: 500, retryAfter: "3").retryAfter)
        XCTAssertEqual(BulkRetryRule.delay(afterAttempt: 4, base: 1, retryAfter: 7), 7)
        XCTAssertEqual(BulkRetryRule.delay(afterAttempt: 1, base: 0, retryAfter: nil), 0)
        for attempt in 1...5 {
            let full = Double(1 << (attempt - 1))
            let delay = BulkRetryRule.delay(afterAttempt: attempt, base: 1, retryAfter: nil)
            XCTAssertTrue(delay >= full / 2 && delay <= full, "attempt \(attempt): \(delay)")
        }
    }
}
