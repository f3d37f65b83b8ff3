import Foundation
import XCTest

/// Ctrl-C sent to the `salvo` tool as a real SIGINT while slow downloads run.
final class SalvoToolInterruptTests: XCTestCase {
    private let size = 400_000

    /// Two slow files (about six seconds each) from the fault server, named by the list.
    private func slowList(in root: URL) throws -> String {
        let list = root.appendingPathComponent("slow.txt")
        let text = try (0..<2).map { index in
            "\(try TestServers.shared.url(.fault, "/slow-ranged?size=\(size)&chunks=40&interval=150&n=\(index)"))\n  out=slow-\(index).bin\n"
        }.joined()
        try Data(text.utf8).write(to: list)
        return list.path
    }

    /// Whether a `--json` line reports bytes on disk, so the run is under way.
    private static func hasProgressed(_ line: String) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return false }
        return object["event"] as? String == "progress" && (object["bytes"] as? Int ?? 0) > 0
    }

    func testFirstInterruptParksFilesPrintsTheSummaryAndExits130() throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let outcome = try SalvoToolProcess.run(["--json", "-i", try slowList(in: root), "-d", output.path],
                                               interruptions: 1, interruptWhen: Self.hasProgressed)
        XCTAssertEqual(outcome.status, 130, outcome.standardError)
        let events = try SalvoToolProcess.jsonObjects(outcome.standardOutput)
        let summary = try XCTUnwrap(events.last)
        XCTAssertEqual(summary["event"] as? String, "summary")
        XCTAssertEqual(summary["interrupted"] as? Bool, true)
        XCTAssertTrue(events.contains { $0["event"] as? String == "cancelled" })
        let names = BulkDownloadFixtures.listing(output)
        XCTAssertFalse(names.contains("slow-0.bin") || names.contains("slow-1.bin"), "a partial file has its final name: \(names)")
        XCTAssertTrue(names.contains { $0.hasSuffix(".part") }, "no resumable partial file was kept: \(names)")
    }

    func testSecondInterruptExits130AtOnce() throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let outcome = try SalvoToolProcess.run(["--json", "-i", try slowList(in: root), "-d", output.path],
                                               interruptions: 2, interruptWhen: Self.hasProgressed)
        XCTAssertEqual(outcome.status, 130, outcome.standardError)
        let names = BulkDownloadFixtures.listing(output)
        XCTAssertFalse(names.contains("slow-0.bin") || names.contains("slow-1.bin"), "a partial file has its final name: \(names)")
    }
}
