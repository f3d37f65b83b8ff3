import XCTest
@testable import Salvo
@testable import SalvoBulk

/// A file fetched as several ranges at once (`split`): one `.part` written at each range's
/// offset, exactly the ranges asked for, one connection and one notice when the server
/// ignores ranges, only the unfinished ranges asked for when continued, and a checksum over
/// the finished file.
final class BulkDownloadSplitTests: XCTestCase {
    private let mebibyte = 1 << 20

    private func options(_ output: URL, split: Int, continuePartial: Bool = false) -> BulkDownloader.Options {
        var options = BulkDownloadFixtures.options(output, continuePartial: continuePartial)
        options.split = split
        return options
    }

    private func rangesAsked(_ key: String) throws -> [String] {
        try BulkDownloadFixtures.rangesAsked(key)
    }

    private func notices(_ log: BulkEventLog) -> [String] {
        log.all.compactMap { if case let .rangesUnavailable(_, reason) = $0 { reason } else { nil } }
    }

    func testNginxFileInFourRangesIsByteIdentical() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let original = try TestServers.shared.docroot.appendingPathComponent("1m.bin")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: options(output, split: 4))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [try TestServers.shared.url(.nginx, "/1m.bin")])]),
                 onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.outcome))")
        let result = try XCTUnwrap(log.results.first)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("1m.bin")), try Data(contentsOf: original))
        XCTAssertEqual(result.bytes, Int64(mebibyte))
        XCTAssertEqual(result.bytesReceived, Int64(mebibyte), "each byte came once (the probe's byte is not counted)")
        XCTAssertEqual(result.sha256, try BulkDownloadFixtures.digest("sha256sum", of: original))
        XCTAssertEqual(result.attempts, 1)
        XCTAssertEqual(notices(log), [])
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["1m.bin"])
    }

    /// After the one-byte probe, exactly four requests, one per quarter of the file.
    func testFourRangesAreAskedForExactlyOnceEach() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let key = UUID().uuidString
        let url = try TestServers.shared.url(.fault, "/ranged-count?key=\(key)&size=\(mebibyte)")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: options(output, split: 4))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [url], outputName: "r.bin")]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.outcome))")
        let asked = try rangesAsked(key)
        XCTAssertEqual(asked.first, "bytes=0-0", "the probe comes first")
        XCTAssertEqual(asked.dropFirst().sorted(),
                       ["bytes=0-262143", "bytes=262144-524287", "bytes=524288-786431", "bytes=786432-1048575"])
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("r.bin")), BulkDownloadFixtures.flakyBytes(mebibyte))
        XCTAssertEqual(log.results.first?.bytesReceived, Int64(mebibyte))
        XCTAssertEqual(notices(log), [])
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["r.bin"])
    }

    /// A file shorter than two ranges' minimum is one range: still asked for with `Range`.
    func testSmallFileIsOneRange() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let key = UUID().uuidString
        let size = 100_000
        let url = try TestServers.shared.url(.fault, "/ranged-count?key=\(key)&size=\(size)")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: options(output, split: 8))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [url], outputName: "s.bin")]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.outcome))")
        XCTAssertEqual(try rangesAsked(key), ["bytes=0-0", "bytes=0-99999"])
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("s.bin")), BulkDownloadFixtures.flakyBytes(size))
    }

    /// The probe's 200 is the whole file: taken as the download, on that one connection,
    /// with one notice.
    func testServerIgnoringRangesDownloadsOnOneConnectionWithOneNotice() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let size = 300_000
        let url = try TestServers.shared.url(.fault, "/no-ranges?size=\(size)")
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: options(output, split: 4))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [url], outputName: "n.bin")]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.outcome))")
        let result = try XCTUnwrap(log.results.first)
        XCTAssertEqual(result.bytesReceived, Int64(size), "one response carried the file, once")
        XCTAssertEqual(result.attempts, 1)
        XCTAssertEqual(notices(log), ["the server does not support ranges (it answered with the whole file)"])
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("n.bin")), BulkDownloadFixtures.flakyBytes(size))
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["n.bin"])
    }

    /// A partial file with two ranges done, one half done and one not started: only the rest
    /// of the half and the missing range are asked for, with `If-Range`.
    func testContinueAsksOnlyForTheUnfinishedRanges() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let key = UUID().uuidString
        let url = try TestServers.shared.url(.fault, "/ranged-count?key=\(key)&size=\(mebibyte)")
        let expected = BulkDownloadFixtures.flakyBytes(mebibyte)
        var ranges = BulkPartSidecar.ranges(length: Int64(mebibyte), count: 4)
        ranges[0].done = ranges[0].length
        ranges[1].done = 100_000
        ranges[3].done = ranges[3].length
        var planted = Data(count: mebibyte)
        for range in ranges where range.done > 0 {
            let span = Int(range.start)..<Int(range.start + range.done)
            planted.replaceSubrange(span, with: expected[span])
        }
        let part = output.appendingPathComponent("c.bin.part")
        try planted.write(to: part)
        let sidecar = BulkPartSidecar(url: url.absoluteString, etag: "\"rc\"", lastModified: nil, expectedLength: Int64(mebibyte),
                                      bytesDone: BulkPartSidecar.prefixDone(ranges), ranges: ranges)
        try sidecar.write(to: part.path + ".json")
        XCTAssertEqual(sidecar.bytesDone, 262_144 + 100_000, "the prefix without a gap")

        let log = BulkEventLog()
        let summary = await BulkDownloader(options: options(output, split: 4, continuePartial: true))
            .run(next: BulkDownloadFixtures.source([BulkEntry(uris: [url], outputName: "c.bin")]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 1, "\(log.results.map(\.outcome))")
        XCTAssertEqual(try rangesAsked(key).sorted(), ["bytes=362144-524287", "bytes=524288-786431"])
        let result = try XCTUnwrap(log.results.first)
        let kept = ranges.reduce(Int64(0)) { $0 + $1.done }
        XCTAssertEqual(result.resumedFrom, kept)
        XCTAssertEqual(result.bytesReceived, Int64(mebibyte) - kept)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("c.bin")), expected)
        XCTAssertEqual(result.sha256, try BulkDownloadFixtures.digest("sha256sum", of: output.appendingPathComponent("c.bin")),
                       "the digest covers the kept ranges too")
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["c.bin"])
    }

    /// A file fetched in ranges leaves, when cancelled, a sidecar with each range's progress,
    /// from which a later run finishes it byte-identical.
    func testCancelledSplitFileKeepsItsRangesAndIsContinued() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let size = 400_000
        let key = UUID().uuidString
        // Ten pieces a range, 200 ms apart: the run is cancelled while they arrive.
        let url = try TestServers.shared.url(.fault, "/ranged-count?key=\(key)&size=\(size)&chunks=10&interval=200")
        let entry = BulkEntry(uris: [url], outputName: "slow.bin")
        let downloader = BulkDownloader(options: options(output, split: 4))
        let log = BulkEventLog()
        let run = Task { await downloader.run(next: BulkDownloadFixtures.source([entry]), onEvent: log.record) }
        while !log.progressed { try await Task.sleep(for: .milliseconds(20)) }
        downloader.cancel()
        let first = await run.value
        XCTAssertEqual(first.cancelled, 1)
        let sidecar = try XCTUnwrap(BulkPartSidecar.read(at: output.appendingPathComponent("slow.bin.part.json").path))
        let ranges = try XCTUnwrap(sidecar.ranges, "a file fetched in ranges records them")
        XCTAssertEqual(ranges.count, 4)
        XCTAssertEqual(sidecar.bytesDone, BulkPartSidecar.prefixDone(ranges))
        let askedBefore = try rangesAsked(key).count
        let kept = ranges.reduce(Int64(0)) { $0 + $1.done }

        let second = BulkEventLog()
        let summary = await BulkDownloader(options: options(output, split: 4, continuePartial: true))
            .run(next: BulkDownloadFixtures.source([entry]), onEvent: second.record)
        XCTAssertEqual(summary.succeeded, 1, "\(second.results.map(\.outcome))")
        XCTAssertEqual(try rangesAsked(key).dropFirst(askedBefore).sorted(),
                       ranges.filter { !$0.isComplete }.map { "bytes=\($0.start + $0.done)-\($0.end - 1)" }.sorted(),
                       "each range continues where it stopped")
        XCTAssertEqual(second.results.first?.bytesReceived, Int64(size) - kept)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("slow.bin")), BulkDownloadFixtures.flakyBytes(size))
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["slow.bin"])
    }

    /// The checksum of a file fetched in ranges is computed over the finished file.
    func testChecksumOverASplitFileVerifies() async throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let original = try TestServers.shared.docroot.appendingPathComponent("1m.bin")
        let url = try TestServers.shared.url(.nginx, "/1m.bin")
        let md5 = try BulkChecksum(parsing: "md5=" + BulkDownloadFixtures.digest("md5sum", of: original))
        let sha256 = try BulkChecksum(parsing: "sha-256=" + BulkDownloadFixtures.digest("sha256sum", of: original))
        let wrong = try BulkChecksum(parsing: "sha-256=" + String(repeating: "0", count: 64))
        let log = BulkEventLog()
        let summary = await BulkDownloader(options: options(output, split: 4)).run(next: BulkDownloadFixtures.source([
            BulkEntry(uris: [url], outputName: "md5.bin", checksum: md5),
            BulkEntry(uris: [url], outputName: "sha.bin", checksum: sha256),
            BulkEntry(uris: [url], outputName: "wrong.bin", checksum: wrong),
        ]), onEvent: log.record)
        XCTAssertEqual(summary.succeeded, 2, "\(log.results.map(\.outcome))")
        XCTAssertEqual(summary.failed, 1)
        XCTAssertEqual(log.results.map(\.succeeded), [true, true, false])
        XCTAssertTrue(log.results[2].failureReason?.hasPrefix("sha-256 mismatch") ?? false, "\(log.results[2].outcome)")
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("md5.bin")), try Data(contentsOf: original))
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("sha.bin")), try Data(contentsOf: original))
        XCTAssertEqual(BulkDownloadFixtures.listing(output), ["md5.bin", "sha.bin"], "the mismatch leaves nothing behind")
    }

    func testSidecarRangesAreCheckedAndTheirPrefixComputed() {
        let ranges = BulkPartSidecar.ranges(length: 10, count: 3)
        XCTAssertEqual(ranges.map { [$0.start, $0.end] }, [[0, 3], [3, 6], [6, 10]])
        XCTAssertTrue(BulkPartSidecar.rangesAreValid(ranges, length: 10))
        XCTAssertFalse(BulkPartSidecar.rangesAreValid(ranges, length: 11), "a gap at the end")
        XCTAssertFalse(BulkPartSidecar.rangesAreValid([ranges[0], ranges[2]], length: 10), "a gap between")
        var done = ranges
        done[0].done = 3
        done[1].done = 2
        done[2].done = 4
        XCTAssertEqual(BulkPartSidecar.prefixDone(done), 5, "up to the first range not complete")
        done[1].done = 4
        XCTAssertFalse(BulkPartSidecar.rangesAreValid(done, length: 10), "more done than the range holds")
    }
}
