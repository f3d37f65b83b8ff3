import Foundation
import XCTest

/// The `salvo` tool's progress display on a real pseudo-terminal, made by util-linux
/// `script`, which runs the command on a new terminal and copies what it draws.
final class SalvoToolTerminalTests: XCTestCase {
    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    func testProgressIsRedrawnInPlaceAndEndsWithTheSummary() throws {
        let (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let size = 200_000
        let url = try TestServers.shared.url(.fault, "/slow-ranged?size=\(size)&chunks=10&interval=100&n=tty")
        let command = ([try SalvoToolProcess.executable().path, "-d", output.path, "-o", "tty.bin", url.absoluteString])
            .map(Self.quoted).joined(separator: " ")
        let outcome = try SalvoToolProcess.run(executable: URL(fileURLWithPath: "/usr/bin/script"),
                                               ["-q", "-e", "-c", command, "/dev/null"])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput)
        let screen = outcome.standardOutput
        XCTAssertTrue(screen.contains("[0/1 files]"), screen)
        XCTAssertTrue(screen.contains("  tty.bin  "), "no line for the file in flight: \(screen)")
        // Cursor up over the block, then clear to the end of the screen: the redraw.
        XCTAssertNotNil(screen.range(of: "\u{1B}\\[[0-9]+A\r\u{1B}\\[J", options: .regularExpression), screen)
        XCTAssertTrue(screen.contains("done  \(output.appendingPathComponent("tty.bin").path)  \(size)"), screen)
        XCTAssertTrue(screen.contains("summary: 1 done, 0 failed, 0 skipped; \(size) bytes"), screen)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("tty.bin")), BulkDownloadFixtures.flakyBytes(size))
    }
}
