import XCTest
import Salvo
import SalvoTestSupport

/// One request's trouble stays its own: a transfer that fails before it is sent leaves its
/// host usable, and over plain HTTP no request waits for another's answer.
final class FailedTransferReleasesHostTests: XCTestCase {
    func testAnOversizedURLFailsAndTheHostStillServesLaterRequests() throws {
        for limit in [1, 6] {
            let session = testSession { $0.httpMaximumConnectionsPerHost = limit }
            let base = try TestServers.shared.url(.nginx, "/small").absoluteString
            let huge = base + "?" + String(repeating: "a", count: 2 << 20)
            let failed = awaitData(session.request(huge))
            XCTAssertNotNil(failed.error)
            for _ in 0..<3 {
                let later = awaitData(session.request(base), timeout: 10)
                XCTAssertNil(later.error, "\(limit) per host: \(String(describing: later.error))")
                XCTAssertEqual(later.response?.statusCode, 200)
            }
        }
    }

    /// Over TLS the automatic policy still waits to multiplex (ALPN may offer HTTP/2): a
    /// connection whose first request failed before it was sent must not hold the rest.
    func testAnOversizedURLOverTLSLeavesTheHostUsable() throws {
        let session = testSession(transport: TransportConfiguration(caBundlePath: try TestServers.shared.tlsCABundle))
        let base = try TestServers.shared.url(.nginxTLS, "/small").absoluteString
        let failed = awaitData(session.request(base + "?" + String(repeating: "a", count: 2 << 20)))
        XCTAssertNotNil(failed.error)
        for _ in 0..<3 {
            let later = awaitData(session.request(base), timeout: 10)
            XCTAssertNil(later.error, String(describing: later.error))
            XCTAssertEqual(later.response?.statusCode, 200)
        }
    }

    /// With the default policy, a second request to a plain-HTTP host went out only once the
    /// first one's headers came (libcurl waited to multiplex on a connection that never can).
    func testASlowRequestDoesNotHoldBackTheNextOneToItsHost() throws {
        let session = testSession()
        let order = Collector<String>()
        let done = expectation(description: "both")
        done.expectedFulfillmentCount = 2
        var stalled = URLRequest(url: try TestServers.shared.url(.fault, "/stall-headers"))
        stalled.timeoutInterval = 20
        let slow = session.request(stalled).response(queue: .global()) { _ in
            order.append("stalled")
            done.fulfill()
        }
        session.request(try TestServers.shared.url(.fault, "/ok")).response(queue: .global()) { response in
            order.append(response.error == nil ? "ok" : "failed")
            // The quick request is done: the stalled one can go.
            slow.cancel()
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(order.values, ["ok", "stalled"])
    }
}
