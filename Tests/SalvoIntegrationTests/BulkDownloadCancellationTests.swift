import XCTest
@testable import Salvo
@testable import SalvoBulk

/// Cancelling a bulk run mid-way: no new file starts, files in flight are left as `.part`
/// files with up-to-date sidecars and nothing under their final names, and a later run with
/// `continuePartial` finishes them from where they stopped.
final class BulkDownloadCancellationTests: XCTestCase {
    private let size = 400_000

    private func slowEntries(_ count: Int) throws -> [BulkEntry] {
        try (0..<count).map { index in
            BulkEntry(uris: [try TestServers.shared.url(.fault, "/slow-ranged?size=\(size)&chunks=40&interval=150&n=\(index)")],
                      outputName: "slow-\(index).bin")
        }
    }

    /// What a cancelled run must leave: finished files whole, cancelled ones only as
    /// resumable `.part` files, unstarted ones nothing.
    private func checkLeftovers(_ log: BulkEventLog, output: URL, entries: Int) throws {
        let expected = BulkDownloadFixtures.flakyBytes(size)
        let results = log.results
        XCTAssertLessThan(results.count, entries, "every file started: the cancel did not stop the list")
        XCTAssertTrue(results.contains { $0.outcome == .cancelled }, "no file was in flight at the cancel")
        var allowed: Set<String> = []
        for result in results {
            let name = "slow-\(result.file.index).bin"
            let final = output.appendingPathComponent(name)
            switch result.outcome {
            case .succeeded:
                XCTAssertEqual(try Data(contentsOf: final), expected, name)
                allowed.insert(name)
            case .cancelled:
                XCTAssertFalse(FileManager.default.fileExists(atPath: final.path), "\(name) is under its final name")
                guard let part = result.path else { continue }
                XCTAssertEqual(part.lastPathComponent, name + ".part")
                let sidecar = try XCTUnwrap(BulkPartSidecar.read(at: part.path + ".json"), "\(name) has no sidecar")
                let bytes = try Data(contentsOf: part)
                XCTAssertEqual(sidecar.bytesDone, Int64(bytes.count), "the sidecar counts the bytes on disk")
                XCTAssertEqual(sidecar.etag, "\"slow\"")
                XCTAssertEqual(bytes, expected.prefix(bytes.count), "\(name).part is not a prefix of the file")
                allowed.formUnion([name + ".part", name + ".part.json"])
            case let .failed(reason):
                XCTFail("\(name) failed: \(reason)")
            case .alreadyComplete:
                XCTFail("\(name) was found whole in a fresh directory")
            }
        }
        XCTAssertEqual(Set(BulkDownloadFixtures.listing(output)), allowed)
    }

    /// The leftovers of a cancelled run are finished by a run with `continuePartial`.
    private func finish(_ entries: [BulkEntry], output: URL, cancelled: BulkEventLog) async throws {
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: BulkDownloadFixtures.options(output, filesInFlight: 8, continuePartial: true))
            .run(next: BulkDownloadFixtures.source(entries), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, entries.count, "\(log.results.map(\.outcome))")
        let expected = BulkDownloadFixtures.flakyBytes(size)
        for index in entries.indices {
            XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("slow-\(index).bin")), expected)
        }
        XCTAssertEqual(BulkDownloadFixtures.listing(output), entries.indices.map { "slow-\($0).bin" }.sorted())
        let parked = cancelled.results.filter { $0.outcome == .cancelled && $0.path != nil }.map(\.file.index)
        for index in parked {
            XCTAssertGreaterThan(log.results[index].resumedFrom, 0, "slow-\(index).bin started over")
        }
    }

    func testCancelMethodLeavesOnlyResumablePartFiles() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let entries = try slowEntries(8)
        let downloader = BulkDownloader(options: BulkDownloadFixtures.options(output, filesInFlight: 3))
        let log = BulkEventLog()
        var sawSummary: BulkDownloader.Summary?
        for await event in downloader.events(next: BulkDownloadFixtures.source(entries)) {
            log.record(event)
            if case let .progress(_, bytes, _) = event, bytes > 0 { downloader.cancel() }
            if case let .summary(summary) = event { sawSummary = summary }
        }
        let summary = try XCTUnwrap(sawSummary, "the stream ended without a summary")
        XCTAssertTrue(summary.wasCancelled)
        XCTAssertGreaterThan(summary.cancelled, 0)
        try checkLeftovers(log, output: output, entries: entries.count)
        try await finish(entries, output: output, cancelled: log)
    }

    func testTaskCancellationLeavesOnlyResumablePartFiles() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let entries = try slowEntries(8)
        let downloader = BulkDownloader(options: BulkDownloadFixtures.options(output, filesInFlight: 3))
        let log = BulkEventLog()
        let (progressed, signal) = AsyncStream<Void>.makeStream()
        let run = Task {
            await downloader.run(next: BulkDownloadFixtures.source(entries)) { event in
                log.record(event)
                if case let .progress(_, bytes, _) = event, bytes > 0 { signal.yield() }
            }
        }
        for await _ in progressed { break }
        run.cancel()
        let summary = await run.value
        XCTAssertTrue(summary.wasCancelled)
        XCTAssertGreaterThan(summary.cancelled, 0)
        guard case .summary? = log.all.last else { return XCTFail("the run did not end with its summary") }
        try checkLeftovers(log, output: output, entries: entries.count)
        try await finish(entries, output: output, cancelled: log)
    }
}
