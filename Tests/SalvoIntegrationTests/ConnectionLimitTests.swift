import Foundation
import XCTest
import Salvo
import SalvoTestSupport

/// Salvo's own connection limits: per host (`httpMaximumConnectionsPerHost`) and in total
/// (`TransportConfiguration.maximumConnections`). A request waiting for a connection waits in
/// Salvo's queue, where its timeout does not run.
final class ConnectionLimitTests: XCTestCase {
    /// Two seconds of body, 10 bytes every half second: never idle for the 1 s timeout.
    private func slowURL(host: String = "127.0.0.1") throws -> String {
        let port = try XCTUnwrap(TestServers.shared.fault.port)
        return "http://\(host):\(port)/slow-body?chunks=4&interval=500&size=10"
    }

    /// Six tenths of a second of body: a second request that is itself not instant, so that
    /// when it must wait for the first, its handler cannot overtake the first one's on a busy
    /// machine (both handlers run on the global queue).
    private func shortSlowURL(host: String) throws -> String {
        let port = try XCTUnwrap(TestServers.shared.fault.port)
        return "http://\(host):\(port)/slow-body?chunks=2&interval=300&size=5"
    }

    /// Starts `first`, then `second`; returns the order in which they completed and their responses.
    private func race(_ session: Session, first: String, second: String) -> (order: [String], responses: [String: AFDataResponse<Data>]) {
        let order = Collector<(String, AFDataResponse<Data>)>()
        let both = expectation(description: "both")
        both.expectedFulfillmentCount = 2
        for (name, url) in [("first", first), ("second", second)] {
            session.request(url).validate().responseData(queue: .global()) { response in
                order.append((name, response))
                both.fulfill()
            }
        }
        wait(for: [both], timeout: 30)
        return (order.values.map(\.0), Dictionary(uniqueKeysWithValues: order.values))
    }

    /// One connection per host: the second request waits the first's two seconds in the queue,
    /// twice its idle timeout, and still succeeds.
    func testARequestQueuedForItsHostDoesNotBurnItsTimeout() throws {
        let session = testSession {
            $0.httpMaximumConnectionsPerHost = 1
            $0.timeoutIntervalForRequest = 1
        }
        let (order, responses) = race(session, first: try slowURL(), second: try shortSlowURL(host: "127.0.0.1"))
        XCTAssertEqual(order, ["first", "second"], "the second waited for the host's one connection")
        XCTAssertNil(responses["first"]?.error)
        XCTAssertNil(responses["second"]?.error, "waiting for a connection is not idle time")
        XCTAssertEqual(responses["second"]?.data, Data(repeating: UInt8(ascii: "x"), count: 10))
    }

    /// One connection in all: a request to another host waits too.
    func testTheTotalLimitHoldsAcrossHosts() throws {
        let session = testSession({ $0.timeoutIntervalForRequest = 1 }, transport: TransportConfiguration(maximumConnections: 1))
        let (order, responses) = race(session, first: try slowURL(), second: try shortSlowURL(host: "localhost"))
        XCTAssertEqual(order, ["first", "second"], "the other host's request waited for the one connection")
        XCTAssertNil(responses["first"]?.error)
        XCTAssertNil(responses["second"]?.error)
    }

    /// Without the total limit, the other host's request does not wait.
    func testWithoutATotalLimitAnotherHostDoesNotWait() throws {
        let session = testSession { $0.httpMaximumConnectionsPerHost = 1 }
        let (order, _) = race(session, first: try slowURL(), second: try shortSlowURL(host: "localhost"))
        XCTAssertEqual(order, ["second", "first"])
    }
}
