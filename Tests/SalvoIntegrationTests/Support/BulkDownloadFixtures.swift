import Foundation
import XCTest
import Synchronization
@testable import Salvo
@testable import SalvoBulk

/// What the bulk downloader tests share: a fresh output directory, the event log of a run,
/// independent digests (the coreutils tools, not Salvo's own code) and the fault server's
/// deterministic file bytes.
enum BulkDownloadFixtures {
    /// A new empty directory `ROOT/out` under a unique root, and the root (to check that
    /// nothing was written beside `out`).
    static func makeOutputDirectory() throws -> (root: URL, output: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-bulk-\(UUID().uuidString)", isDirectory: true)
        let output = root.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        return (root, output)
    }

    /// The names in `directory`, sorted.
    static func listing(_ directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// Options for a test run: short waits between attempts.
    static func options(_ output: URL, filesInFlight: Int = 4, continuePartial: Bool = false,
                        maxTries: Int = 5) -> BulkDownloader.Options {
        BulkDownloader.Options(outputDirectory: output, filesInFlight: filesInFlight, continuePartial: continuePartial,
                               maxTries: maxTries, retryWait: 0.01, timeout: 30, connectTimeout: 10)
    }

    /// A pull closure over `entries`, one at a time.
    static func source(_ entries: [BulkEntry]) -> @Sendable () async throws -> BulkEntry? {
        let remaining = Mutex(entries[...])
        return { remaining.withLock { $0.popFirst() } }
    }

    /// Three nginx files fetched at once on one session, so handles are reused along the way:
    /// `1m.bin`, `100k.bin`, and `1m.bin` again as `again.bin`.
    static func threeFiles() throws -> [BulkEntry] {
        [
            BulkEntry(uris: [try TestServers.shared.url(.nginx, "/1m.bin")]),
            BulkEntry(uris: [try TestServers.shared.url(.nginx, "/100k.bin")]),
            BulkEntry(uris: [try TestServers.shared.url(.nginx, "/1m.bin")], outputName: "again.bin"),
        ]
    }

    /// Checks that the files of `threeFiles()` are in `output`, byte for byte as nginx serves them.
    static func assertThreeFilesArrived(in output: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let docroot = try TestServers.shared.docroot
        for (name, source) in [("1m.bin", "1m.bin"), ("again.bin", "1m.bin"), ("100k.bin", "100k.bin")] {
            XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent(name)),
                           try Data(contentsOf: docroot.appendingPathComponent(source)), name, file: file, line: line)
        }
    }

    /// The `Range` header of each request the fault server's `/ranged-count` saw for `key`,
    /// in the order they came ("" for none).
    static func rangesAsked(_ key: String) throws -> [String] {
        let data = try Data(contentsOf: try TestServers.shared.url(.fault, "/ranged-count-hits?key=\(key)"))
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(object["ranges"] as? [String])
    }

    /// The content `/flaky-file`, `/no-ranges` and `/slow-ranged` serve for `size`.
    static func flakyBytes(_ size: Int) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 8)) })
    }

    /// The digest of `file` by a coreutils tool: `sha256sum`, `sha1sum` or `md5sum`.
    static func digest(_ tool: String, of file: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let text = String(data: output, encoding: .utf8),
              let digest = text.split(separator: " ").first else {
            throw TestServerError("\(tool) failed on \(file.path)")
        }
        return String(digest)
    }
}

/// The events of a run, in the order they were reported.
final class BulkEventLog: Sendable {
    private let events = Mutex<[BulkDownloader.Event]>([])

    func record(_ event: BulkDownloader.Event) { events.withLock { $0.append(event) } }

    var all: [BulkDownloader.Event] { events.withLock { $0 } }

    var results: [BulkDownloader.FileResult] {
        all.compactMap { if case let .finished(result) = $0 { result } else { nil } }.sorted { $0.file.index < $1.file.index }
    }

    var finishedCount: Int { events.withLock { $0.filter { if case .finished = $0 { true } else { false } }.count } }

    var progressed: Bool {
        events.withLock { $0.contains { if case let .progress(_, bytes, _) = $0 { bytes > 0 } else { false } } }
    }

    /// The `retrying` events of the file at `index`.
    func retries(of index: Int) -> [(attempt: Int, reason: String)] {
        all.compactMap {
            if case let .retrying(file, attempt, reason, _) = $0, file.index == index { (attempt, reason) } else { nil }
        }
    }
}
