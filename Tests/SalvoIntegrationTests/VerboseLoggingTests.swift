import Foundation
import XCTest
import Salvo
import SalvoTestSupport

/// `TransportConfiguration.verboseLogger`: libcurl's verbose lines, as `curl -v` prints them,
/// reach the handler off the loop thread.
final class VerboseLoggingTests: XCTestCase {
    func testTheLoggerHearsTheRequestAndTheResponseHeaders() throws {
        let lines = Collector<String>()
        let sawStatus = expectation(description: "status line logged")
        sawStatus.assertForOverFulfill = false
        let session = testSession(transport: TransportConfiguration(verboseLogger: { line in
            lines.append(line)
            if line.hasPrefix("< HTTP/1.1 200") { sawStatus.fulfill() }
        }))
        let response = awaitData(session.request(try TestServers.shared.url(.nginx, "/small")))
        XCTAssertNil(response.error)
        wait(for: [sawStatus], timeout: 10)
        XCTAssertTrue(lines.values.contains { $0.hasPrefix("> GET /small HTTP/1.1") }, "\(lines.values)")
        XCTAssertTrue(lines.values.contains { $0.hasPrefix("* ") }, "libcurl's own notes")
        XCTAssertFalse(lines.values.contains { $0.contains("hello from salvo") }, "bodies are not logged")
    }
}
