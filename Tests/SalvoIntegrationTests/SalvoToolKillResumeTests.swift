import Foundation
import XCTest

/// The `salvo` tool killed with SIGKILL in the middle of a run (no chance to park its files),
/// then run again with `-c`: the files come out byte for byte, and no partial file or sidecar
/// is left.
final class SalvoToolKillResumeTests: XCTestCase {
    private let size = 1_500_000

    func testKillNineMidRunThenContinueGivesIdenticalFiles() throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }

        // Three slow files (the body in 30 pieces, one every 100 ms, resumable with Range and
        // ETag "slow") and one that answers 503 once, then serves its bytes.
        var expected: [String: Data] = [:]
        var list = ""
        for index in 0..<3 {
            let url = try TestServers.shared.url(.fault, "/slow-ranged?size=\(size)&chunks=30&interval=100&n=\(index)")
            list += "\(url)\n  out=slow-\(index).bin\n"
            expected["slow-\(index).bin"] = BulkDownloadFixtures.flakyBytes(size)
        }
        let flakySize = 300_000
        let flaky = try TestServers.shared.url(.fault, "/flaky-file?key=kill-\(UUID().uuidString)&size=\(flakySize)")
        list += "\(flaky)\n  out=flaky.bin\n"
        expected["flaky.bin"] = BulkDownloadFixtures.flakyBytes(flakySize)
        let listFile = root.appendingPathComponent("list.txt")
        try Data(list.utf8).write(to: listFile)
        let arguments = ["-i", listFile.path, "-d", output.path, "--retry-wait", "0"]

        // First run: SIGKILL as soon as a slow file's partial file holds bytes.
        let process = Process()
        process.executableURL = try SalvoToolProcess.executable()
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)  // a bound against a hang, not a measure
        var partial: (name: String, bytes: Int)?
        while partial == nil, process.isRunning, Date() < deadline {
            partial = Self.slowPartWithBytes(in: output)
            if partial == nil { usleep(5_000) }
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let found = try XCTUnwrap(partial, "no slow .part file got bytes before the run ended: \(BulkDownloadFixtures.listing(output))")
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, "the run ended before it was killed")
        XCTAssertEqual(process.terminationStatus, SIGKILL)
        XCTAssertLessThan(found.bytes, size, "\(found.name) was complete when the run was killed")
        let left = BulkDownloadFixtures.listing(output)
        XCTAssertTrue(left.contains { $0.hasPrefix("slow-") && $0.hasSuffix(".part") }, "the kill left no partial file: \(left)")
        XCTAssertFalse(left.contains { $0.hasPrefix("slow-") && $0.hasSuffix(".bin") }, "a slow file has its final name: \(left)")

        // The same command with -c.
        let resumed = try SalvoToolProcess.run(arguments + ["-c"])
        XCTAssertEqual(resumed.status, 0, resumed.standardOutput + resumed.standardError)
        XCTAssertEqual(BulkDownloadFixtures.listing(output), expected.keys.sorted(), "a partial file or sidecar was left")
        for (name, bytes) in expected {
            let saved = try Data(contentsOf: output.appendingPathComponent(name))
            XCTAssertEqual(saved.count, bytes.count, name)
            XCTAssertTrue(saved == bytes, "\(name) differs from what the server sent")
        }
    }

    /// A `slow-N.bin.part` in `directory` with at least one byte, if there is one.
    private static func slowPartWithBytes(in directory: URL) -> (name: String, bytes: Int)? {
        for name in BulkDownloadFixtures.listing(directory) where name.hasPrefix("slow-") && name.hasSuffix(".part") {
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
            if let bytes = (attributes?[.size] as? NSNumber)?.intValue, bytes > 0 { return (name, bytes) }
        }
        return nil
    }
}
