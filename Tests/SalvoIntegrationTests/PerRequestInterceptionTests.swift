import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTestSupport

// Alamofire 5.11's per-request additions: `interceptor(_:)`, `adapt(using:)`,
// `retry(using:)` and `eventMonitor(_:)`, against httpbin (`orderAdapter` and `echoedHeaders`
// are InterceptorTests').

final class PerRequestInterceptionTests: XCTestCase {
    private let queue = DispatchQueue(label: "test.per-request-interception.responses")

    /// The session's adapter runs first; an adapter added to a request whose own interceptor
    /// is a lone adapter runs before it (Alamofire splits it so), and an interceptor added
    /// after that runs last.
    func testTheSessionsAdapterRunsFirstThenTheRequestsInAlamofiresOrder() throws {
        let session = Session(interceptor: orderAdapter("session"), responseQueue: queue)
        let url = try TestServers.shared.url(.httpbin, "/headers")
        let done = expectation(description: "response")
        let request = session.request(url, interceptor: orderAdapter("factory"))
            .adapt(using: orderAdapter("adapter"))
            .interceptor(orderAdapter("interceptor"))
        request.validate().responseData { response in
            XCTAssertNil(response.error)
            XCTAssertEqual(echoedHeaders(response.data)["X-Order"], "session,adapter,factory,interceptor")
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        XCTAssertEqual((request.interceptor as? Interceptor)?.adapters.count, 3)
    }

    func testAnAddedRetrierRetriesTheRequest() throws {
        let session = Session(responseQueue: queue)
        let url = try TestServers.shared.url(.httpbin, "/status/500")
        let asked = Mutex(0)
        let done = expectation(description: "response")
        let request = session.request(url)
            .retry(using: Retrier { request, _, _, completion in
                asked.withLock { $0 += 1 }
                completion(request.retryCount < 1 ? .retry : .doNotRetry)
            })
            .validate()
        request.responseData { response in
            XCTAssertEqual(response.error?.responseCode, 500)
            XCTAssertEqual(response.response?.statusCode, 500)
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        XCTAssertEqual(request.retryCount, 1)
        XCTAssertEqual(asked.withLock { $0 }, 2, "the retrier decides after each of the two failures")
    }

    func testAnAdapterAddedToARequestWithoutAnInterceptorAdaptsEveryAttempt() throws {
        let session = Session(responseQueue: queue)
        let url = try TestServers.shared.url(.httpbin, "/status/503")
        let adapted = Mutex(0)
        let done = expectation(description: "response")
        let request = session.request(url)
            .adapt(using: Adapter { request, _, completion in
                adapted.withLock { $0 += 1 }
                completion(.success(request))
            })
            .retry(using: Retrier { request, _, _, completion in completion(request.retryCount < 2 ? .retry : .doNotRetry) })
            .validate()
        request.response { _ in done.fulfill() }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        XCTAssertEqual(request.retryCount, 2)
        XCTAssertEqual(adapted.withLock { $0 }, 3, "one adaptation per attempt")
    }

    func testAnAddedMonitorSeesItsRequestBesideTheSessionsMonitors() throws {
        let sessionSaw = Mutex<[String]>([])
        let requestSaw = Mutex<[String]>([])
        let sessionFinished = expectation(description: "the session's monitor saw both requests finish")
        sessionFinished.expectedFulfillmentCount = 2
        let ownFinished = expectation(description: "the request's monitor saw it finish")
        let sessionMonitor = ClosureEventMonitor()
        sessionMonitor.requestDidFinish = { request in
            sessionSaw.withLock { $0.append(request.request?.url?.path ?? "") }
            sessionFinished.fulfill()
        }
        let ownMonitor = ClosureEventMonitor()
        let ownMetrics = expectation(description: "the request's monitor hears the pipeline's events too")
        ownMonitor.requestDidGatherMetrics = { _, _ in ownMetrics.fulfill() }
        ownMonitor.requestDidFinish = { request in
            requestSaw.withLock { $0.append(request.request?.url?.path ?? "") }
            ownFinished.fulfill()
        }
        let session = Session(eventMonitors: [sessionMonitor], responseQueue: queue)
        let watched = session.request(try TestServers.shared.url(.httpbin, "/get")).eventMonitor(ownMonitor)
        XCTAssertEqual((watched.eventMonitor as? CompositeEventMonitor)?.monitors.count, 2)

        watched.response { _ in }
        session.request(try TestServers.shared.url(.httpbin, "/headers")).response { _ in }
        withExtendedLifetime(session) { wait(for: [sessionFinished, ownFinished, ownMetrics], timeout: 10) }
        XCTAssertEqual(Set(sessionSaw.withLock { $0 }), ["/get", "/headers"])
        XCTAssertEqual(requestSaw.withLock { $0 }, ["/get"])
    }
}
