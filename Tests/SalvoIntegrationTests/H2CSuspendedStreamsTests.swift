import XCTest
import Foundation
import Salvo
import SalvoTestSupport

final class H2CSuspendedStreamsTests: XCTestCase {
    /// The request that would open a host's h2c connection is held (suspended as it starts)
    /// and cancelled before any answer: the requests after it still complete, over HTTP/2.
    /// They once all failed with "Received HTTP/0.9": libcurl < 8 takes prior knowledge on the
    /// first transfer to a host only, and the others asked for HTTP/2 on a connection that
    /// never came up.
    func testCancellingTheRequestThatOpensTheH2CConnectionLeavesTheNextOnesOne() throws {
        let session = Session(transport: TransportConfiguration(httpVersion: .http2PriorKnowledge), startRequestsImmediately: false,
                              responseQueue: DispatchQueue(label: "test.responses"))
        let url = try TestServers.shared.url(.nginxH2C, "/small")
        let opener = session.request(url)
        opener.resume()
        opener.suspend()
        opener.cancel()
        let cancelled = awaitData(opener)
        XCTAssertEqual(cancelled.error?.isExplicitlyCancelledError, true, String(describing: cancelled.error))
        let next = (0..<4).map { _ in session.request(url).resume() }
        for request in next {
            let response = awaitData(request)
            XCTAssertNil(response.error, String(describing: response.error))
            XCTAssertEqual(response.metrics?.httpVersion, "2")
        }
    }

    /// The request that opened a host's h2c connection is cancelled unanswered after another
    /// request has joined the connection: the connection outlives it, and the requests after
    /// it multiplex onto that same connection. They once asked for a second connection with
    /// prior knowledge, which libcurl 7.88 gives no stream and fails with "Error in the HTTP2
    /// framing layer". nginx's /throttled holds the opener's answer back (a request to it
    /// just before takes the turn).
    func testCancellingTheUnansweredOpenerOfAnH2CConnectionInUseKeepsTheConnection() throws {
        let primer = testSession()
        let first = awaitData(primer.request(try TestServers.shared.url(.nginx, "/throttled")))
        XCTAssertEqual(first.response?.statusCode, 200, String(describing: first.error))
        let session = testSession(transport: TransportConfiguration(httpVersion: .http2PriorKnowledge))
        let opener = session.request(try TestServers.shared.url(.nginxH2C, "/throttled"))
        let openerDone = expectation(description: "opener")
        let openerResponse = Box<AFDataResponse<Data>>()
        opener.responseData(queue: .global()) { response in
            openerResponse.set(response)
            openerDone.fulfill()
        }
        let url = try TestServers.shared.url(.nginxH2C, "/small")
        let joined = awaitData(session.request(url))
        XCTAssertNil(joined.error, String(describing: joined.error))
        XCTAssertEqual(joined.metrics?.connectionReused, true, "the second request multiplexes onto the opener's connection")
        opener.cancel()
        wait(for: [openerDone], timeout: 15)
        XCTAssertEqual(openerResponse.value?.error?.isExplicitlyCancelledError, true, "cancelled before its answer came")
        XCTAssertNil(openerResponse.value?.response)
        let next = (0..<4).map { _ in session.request(url) }
        for request in next {
            let response = awaitData(request, timeout: 15)
            XCTAssertNil(response.error, String(describing: response.error))
            XCTAssertEqual(response.metrics?.httpVersion, "2")
            XCTAssertEqual(response.metrics?.connectionReused, true, "the connection outlives its opener")
        }
    }

    /// Requests on one h2c connection suspended at random, then resumed or cancelled: the
    /// ones resumed all complete. libcurl 7.88 sometimes kept the last resumed streams' bodies
    /// (read from the socket, headers delivered) until their idle timeout, as no socket event
    /// came; the loop now nudges quiet transfers (`EventLoop.nudgeQuietTransfers`).
    func testCancellingSuspendedH2CStreamsDoesNotStallTheResumedOnes() throws {
        let files = [("/small", 100), ("/1m.bin", 1 << 20)]
        for seed in [2, 3] as [UInt64] {
            let session = testSession({ $0.timeoutIntervalForRequest = 4 }, transport: TransportConfiguration(httpVersion: .http2PriorKnowledge))
            var random = SplitMix64(seed: seed)
            let count = 150
            let results = Collector<(index: Int, response: AFDataResponse<Data>)>()
            var expectations: [XCTestExpectation] = []
            var plans: [(length: Int, cancelled: Bool)] = []
            for index in 0..<count {
                let (path, length) = random.pick(files)
                let delay = Double(random.next() % 30) / 1000
                let cancels = random.next() % 4 == 0
                plans.append((length, cancels))
                let done = expectation(description: "request \(index)")
                let request = session.request(try TestServers.shared.url(.nginxH2C, path))
                request.responseData(queue: .global()) { response in
                    results.append((index, response))
                    done.fulfill()
                }
                expectations.append(done)
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                    request.suspend()
                    DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                        if cancels { request.cancel() } else { request.resume() }
                    }
                }
            }
            wait(for: expectations, timeout: 30)
            for (index, response) in results.values where !plans[index].cancelled {
                XCTAssertNil(response.error, "seed \(seed) request \(index) \(plans[index])")
                XCTAssertEqual(response.data?.count, plans[index].length, "seed \(seed) request \(index)")
            }
        }
    }
}
