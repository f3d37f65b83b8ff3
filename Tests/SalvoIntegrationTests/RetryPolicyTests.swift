import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

// RetryPolicy and ConnectionLostRetryPolicy: their defaults, their decisions for given
// requests and errors, and the adapt-send-validate-retry loop against the fault server.

private struct OtherError: Error {}

/// A `RetryPolicy` that records every decision it makes, in order.
private final class RecordingRetryPolicy: RetryPolicy, @unchecked Sendable { // `decisions` is a Mutex
    // `@unchecked Sendable`: the one added stored property, `decisions`, is a Mutex.
    let decisions = Mutex<[RetryResult]>([])

    override func retry(_ request: Request, for session: Session, dueTo error: any Error,
                        completion: @escaping @Sendable (RetryResult) -> Void) {
        super.retry(request, for: session, dueTo: error) { result in
            self.decisions.withLock { $0.append(result) }
            completion(result)
        }
    }

    /// The delays of the retries decided, and whether the last decision declined.
    var recorded: (delays: [TimeInterval], endedWithDoNotRetry: Bool) {
        decisions.withLock { decisions in
            let delays = decisions.compactMap { result -> TimeInterval? in
                if case let .retryWithDelay(delay) = result { return delay }
                return nil
            }
            var declined = false
            if case .doNotRetry = decisions.last { declined = true }
            return (delays, declined)
        }
    }
}

private func retrySession(interceptor: (any RequestInterceptor)? = nil) -> Session {
    Session(interceptor: interceptor, responseQueue: DispatchQueue(label: "test.retry.responses"))
}

/// A unique `/fail-twice` key, so runs and tests never share a counter on the fault server.
private func freshKey() -> String { UUID().uuidString }

/// Describes a decision in a form `XCTAssertEqual` can compare.
private func describe(_ result: RetryResult) -> String {
    switch result {
    case .retry: return "retry"
    case let .retryWithDelay(delay): return "retryWithDelay(\(delay))"
    case .doNotRetry: return "doNotRetry"
    case .doNotRetryWithError: return "doNotRetryWithError"
    }
}

final class RetryPolicyTests: XCTestCase {
    // MARK: Defaults

    func testDefaultsMatchAlamofire() {
        XCTAssertEqual(RetryPolicy.defaultRetryLimit, 2)
        XCTAssertEqual(RetryPolicy.defaultExponentialBackoffBase, 2)
        XCTAssertEqual(RetryPolicy.defaultExponentialBackoffScale, 0.5)
        XCTAssertEqual(RetryPolicy.defaultRetryableHTTPMethods, [.delete, .get, .head, .options, .put, .trace])
        XCTAssertEqual(RetryPolicy.defaultRetryableHTTPStatusCodes, [408, 500, 502, 503, 504])
        XCTAssertEqual(RetryPolicy.defaultRetryableURLErrorCodes, [
            .backgroundSessionInUseByAnotherProcess, .backgroundSessionWasDisconnected, .badServerResponse,
            .callIsActive, .cannotConnectToHost, .cannotFindHost, .cannotLoadFromNetwork, .dataNotAllowed,
            .dnsLookupFailed, .downloadDecodingFailedMidStream, .downloadDecodingFailedToComplete,
            .internationalRoamingOff, .networkConnectionLost, .notConnectedToInternet, .secureConnectionFailed,
            .serverCertificateHasBadDate, .serverCertificateNotYetValid, .timedOut,
        ])

        let policy = RetryPolicy()
        XCTAssertEqual(policy.retryLimit, 2)
        XCTAssertEqual(policy.exponentialBackoffBase, 2)
        XCTAssertEqual(policy.exponentialBackoffScale, 0.5)
        XCTAssertEqual(policy.retryableHTTPMethods, RetryPolicy.defaultRetryableHTTPMethods)
        XCTAssertEqual(policy.retryableHTTPStatusCodes, RetryPolicy.defaultRetryableHTTPStatusCodes)
        XCTAssertEqual(policy.retryableURLErrorCodes, RetryPolicy.defaultRetryableURLErrorCodes)

        let lost = ConnectionLostRetryPolicy()
        XCTAssertEqual(lost.retryLimit, 2)
        XCTAssertEqual(lost.retryableHTTPMethods, RetryPolicy.defaultRetryableHTTPMethods)
        XCTAssertEqual(lost.retryableHTTPStatusCodes, [])
        XCTAssertEqual(lost.retryableURLErrorCodes, [.networkConnectionLost])

        let helper: RetryPolicy = .retryPolicy(retryLimit: 5, exponentialBackoffBase: 3, exponentialBackoffScale: 0.25,
                                               retryableHTTPMethods: [.post], retryableHTTPStatusCodes: [429],
                                               retryableURLErrorCodes: [.timedOut])
        XCTAssertEqual(helper.retryLimit, 5)
        XCTAssertEqual(helper.exponentialBackoffBase, 3)
        XCTAssertEqual(helper.exponentialBackoffScale, 0.25)
        XCTAssertEqual(helper.retryableHTTPMethods, [.post])
        XCTAssertEqual(helper.retryableHTTPStatusCodes, [429])
        XCTAssertEqual(helper.retryableURLErrorCodes, [.timedOut])
        let lostHelper: ConnectionLostRetryPolicy = .connectionLostRetryPolicy(retryLimit: 1)
        XCTAssertEqual(lostHelper.retryLimit, 1)
        XCTAssertEqual(lostHelper.retryableURLErrorCodes, [.networkConnectionLost])
        XCTAssertTrue((RetryPolicy.retryPolicy as Any) is RetryPolicy)
        XCTAssertTrue((ConnectionLostRetryPolicy.connectionLostRetryPolicy as Any) is ConnectionLostRetryPolicy)
    }

    // MARK: Decisions for a finished request

    /// Runs a request to completion and returns it, so policies can be asked about it.
    private func finishedRequest(_ session: Session, _ path: String, method: HTTPMethod = .get) throws -> Request {
        let done = expectation(description: "finished \(method.rawValue) \(path)")
        let request = session.request(try TestServers.shared.url(.httpbin, path), method: method)
        request.response { _ in done.fulfill() }
        wait(for: [done], timeout: 10)
        return request
    }

    /// What `policy` answers for `request` and `error`; RetryPolicy answers synchronously.
    private func decision(_ policy: RetryPolicy, _ request: Request, _ session: Session, _ error: any Error) -> String {
        let answer = Mutex<RetryResult?>(nil)
        policy.retry(request, for: session, dueTo: error) { result in answer.withLock { $0 = result } }
        return answer.withLock { $0 }.map(describe) ?? "no answer"
    }

    func testDecisionsForTransportErrors() throws {
        let session = retrySession()
        let get = try finishedRequest(session, "/get")
        let post = try finishedRequest(session, "/post", method: .post)
        let policy = RetryPolicy()
        XCTAssertEqual(get.response?.statusCode, 200)

        // As Salvo's transport reports them, and as bare URLErrors.
        XCTAssertEqual(decision(policy, get, session, AFError.sessionTaskFailed(error: URLError(.timedOut))), "retryWithDelay(0.5)")
        XCTAssertEqual(decision(policy, get, session, AFError.sessionTaskFailed(error: URLError(.networkConnectionLost))), "retryWithDelay(0.5)")
        XCTAssertEqual(decision(policy, get, session, AFError.sessionTaskFailed(error: URLError(.cannotConnectToHost))), "retryWithDelay(0.5)")
        XCTAssertEqual(decision(policy, get, session, URLError(.cannotFindHost)), "retryWithDelay(0.5)")

        // Errors that retrying cannot fix.
        XCTAssertEqual(decision(policy, get, session, AFError.sessionTaskFailed(error: URLError(.cancelled))), "doNotRetry")
        XCTAssertEqual(decision(policy, get, session, AFError.sessionTaskFailed(error: URLError(.serverCertificateUntrusted))), "doNotRetry")
        XCTAssertEqual(decision(policy, get, session, AFError.sessionTaskFailed(error: URLError(.httpTooManyRedirects))), "doNotRetry")
        XCTAssertEqual(decision(policy, get, session, AFError.explicitlyCancelled), "doNotRetry")
        XCTAssertEqual(decision(policy, get, session, OtherError()), "doNotRetry")

        // POST is not idempotent, whatever the error.
        XCTAssertEqual(decision(policy, post, session, AFError.sessionTaskFailed(error: URLError(.timedOut))), "doNotRetry")
        let postPolicy = RetryPolicy(retryableHTTPMethods: [.post])
        XCTAssertEqual(decision(postPolicy, post, session, AFError.sessionTaskFailed(error: URLError(.timedOut))), "retryWithDelay(0.5)")

        // A limit of zero never retries.
        XCTAssertEqual(decision(RetryPolicy(retryLimit: 0), get, session, URLError(.timedOut)), "doNotRetry")
        withExtendedLifetime(session) {}
    }

    func testDecisionsForStatusCodes() throws {
        let session = retrySession()
        let unavailable = try finishedRequest(session, "/status/503")
        let notFound = try finishedRequest(session, "/status/404")
        let validationError = AFError.responseValidationFailed(reason: .unacceptableStatusCode(code: 503))
        let policy = RetryPolicy()

        XCTAssertTrue(policy.shouldRetry(request: unavailable, dueTo: validationError))
        XCTAssertEqual(decision(policy, unavailable, session, validationError), "retryWithDelay(0.5)")
        XCTAssertFalse(policy.shouldRetry(request: notFound, dueTo: validationError))
        XCTAssertEqual(decision(policy, notFound, session, validationError), "doNotRetry")
        XCTAssertEqual(decision(RetryPolicy(retryableHTTPStatusCodes: [404]), notFound, session, validationError), "retryWithDelay(0.5)")

        // ConnectionLostRetryPolicy ignores status codes and every error but a lost connection.
        let lost = ConnectionLostRetryPolicy()
        XCTAssertEqual(decision(lost, unavailable, session, validationError), "doNotRetry")
        XCTAssertEqual(decision(lost, notFound, session, AFError.sessionTaskFailed(error: URLError(.timedOut))), "doNotRetry")
        XCTAssertEqual(decision(lost, notFound, session, AFError.sessionTaskFailed(error: URLError(.networkConnectionLost))), "retryWithDelay(0.5)")
        withExtendedLifetime(session) {}
    }

    func testRequestNeverSentIsNotRetried() {
        let session = retrySession()
        let request = session.request("http://127.0.0.1:1/never-sent")
        XCTAssertFalse(RetryPolicy().shouldRetry(request: request, dueTo: URLError(.timedOut)),
                       "without a URLRequest there is no method to judge")
    }

    // MARK: Against the fault server

    func testRetryPolicyRecoversFromFailTwice() throws {
        let session = retrySession(interceptor: RetryPolicy())
        let key = freshKey()
        let url = try TestServers.shared.url(.fault, "/fail-twice?key=\(key)")
        let done = expectation(description: "response")
        let request = session.request(url).validate()
        request.responseData { response in
            XCTAssertNil(response.error)
            XCTAssertEqual(response.response?.statusCode, 200)
            let object = response.data.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            XCTAssertEqual(object?["attempt"] as? Int, 3)
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 30) }
        XCTAssertEqual(request.retryCount, 2)
        XCTAssertEqual(request.allMetrics.count, 3)
    }

    func testBackoffDelaysGrowExponentiallyUntilTheLimit() throws {
        let policy = RecordingRetryPolicy(retryLimit: 3, exponentialBackoffBase: 3, exponentialBackoffScale: 0.001)
        let session = retrySession()
        let key = freshKey()
        let url = try TestServers.shared.url(.fault, "/fail-twice?key=\(key)&times=10")
        let done = expectation(description: "response")
        let request = session.request(url, interceptor: policy).validate()
        request.responseData { response in
            XCTAssertEqual(response.error?.responseCode, 503)
            XCTAssertEqual(response.response?.statusCode, 503)
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 30) }
        XCTAssertEqual(request.retryCount, 3)
        let recorded = policy.recorded
        XCTAssertEqual(recorded.delays.count, 3)
        for (delay, expected) in zip(recorded.delays, [0.001, 0.003, 0.009]) {
            XCTAssertEqual(delay, expected, accuracy: 1e-12)
        }
        XCTAssertTrue(recorded.endedWithDoNotRetry, "the fourth failure exceeds the limit")
        XCTAssertEqual(try attempts(for: key), 4)
    }

    func testNonRetryableMethodIsNotRetried() throws {
        let session = retrySession(interceptor: RetryPolicy(exponentialBackoffScale: 0.001))
        let key = freshKey()
        let url = try TestServers.shared.url(.fault, "/fail-twice?key=\(key)")
        let done = expectation(description: "response")
        let request = session.request(url, method: .post).validate()
        request.responseData { response in
            XCTAssertEqual(response.error?.responseCode, 503)
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        XCTAssertEqual(request.retryCount, 0)
        XCTAssertEqual(try attempts(for: key), 1)
    }

    func testValidateMakes503Retryable() throws {
        let session = retrySession(interceptor: RetryPolicy(exponentialBackoffScale: 0.001))

        // Without validation a 503 is a response like any other: nothing to retry.
        let unvalidatedKey = freshKey()
        let unvalidated = expectation(description: "unvalidated")
        let plain = session.request(try TestServers.shared.url(.fault, "/fail-twice?key=\(unvalidatedKey)"))
        plain.responseData { response in
            XCTAssertNil(response.error)
            XCTAssertEqual(response.response?.statusCode, 503)
            unvalidated.fulfill()
        }

        // With validation the 503 fails the attempt, and the policy retries it.
        let validatedKey = freshKey()
        let validated = expectation(description: "validated")
        let checked = session.request(try TestServers.shared.url(.fault, "/fail-twice?key=\(validatedKey)")).validate()
        checked.responseData { response in
            XCTAssertNil(response.error)
            XCTAssertEqual(response.response?.statusCode, 200)
            validated.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [unvalidated, validated], timeout: 30) }
        XCTAssertEqual(plain.retryCount, 0)
        XCTAssertEqual(try attempts(for: unvalidatedKey), 1)
        XCTAssertEqual(checked.retryCount, 2)
        XCTAssertEqual(try attempts(for: validatedKey), 3)
    }

    func testConnectionLostRetryPolicyRetriesResetConnections() throws {
        let session = retrySession()
        let url = try TestServers.shared.url(.fault, "/reset")
        let done = expectation(description: "response")
        let request = session.request(url, interceptor: .connectionLostRetryPolicy(exponentialBackoffScale: 0.001))
        request.responseData { response in
            let underlying = response.error?.underlyingError as? URLError
            XCTAssertEqual(response.error?.isSessionTaskError, true, "\(String(describing: response.error))")
            XCTAssertEqual(underlying?.code, .networkConnectionLost)
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 30) }
        XCTAssertEqual(request.retryCount, 2)
    }

    /// How many requests the fault server has seen for `key` on `/fail-twice`.
    fileprivate func attempts(for key: String) throws -> Int? {
        let session = retrySession()
        let done = expectation(description: "attempts")
        let count = Mutex<Int?>(nil)
        session.request(try TestServers.shared.url(.fault, "/attempts?key=\(key)")).validate().responseData { response in
            let object = response.data.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            count.withLock { $0 = object?["attempts"] as? Int }
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        return count.withLock { $0 }
    }
}

extension RetryPolicyTests {
    /// A POST redirected by 303 to a GET that then fails must not be retried: retrying
    /// would send the POST again. Alamofire judges the method of the request as made
    /// (`Request.request` is the last *adapted* request there, never a redirect hop).
    func testPostRedirectedToFailingGetIsNotRetried() throws {
        let session = retrySession(interceptor: RetryPolicy(exponentialBackoffScale: 0.001))
        let key = freshKey()
        let failing = try TestServers.shared.url(.fault, "/fail-twice?key=\(key)").absoluteString
        let redirect = try TestServers.shared.redirect(to: failing, status: 303)
        let done = expectation(description: "response")
        let request = session.request(redirect, method: .post).validate()
        request.responseData { response in
            XCTAssertEqual(response.error?.responseCode, 503)
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        XCTAssertEqual(request.retryCount, 0)
        XCTAssertEqual(try attempts(for: key), 1)
    }
}

extension RetryPolicyTests {
    /// An adapter that fails with a transient `URLError` (fetching a token over a network
    /// that just dropped) is retried by `RetryPolicy` for an idempotent method, as in
    /// Alamofire, where `Request.request` already holds the initial request when adaptation
    /// fails, so the policy has a method to judge.
    func testAdaptationFailingWithATransientURLErrorIsRetried() throws {
        let adaptations = Mutex(0)
        let flaky = Adapter { request, _, completion in
            let count = adaptations.withLock { count -> Int in count += 1; return count }
            completion(count == 1 ? .failure(URLError(.notConnectedToInternet)) : .success(request))
        }
        let interceptor = Interceptor(adapters: [flaky], retriers: [RetryPolicy(exponentialBackoffScale: 0.001)])
        let session = retrySession(interceptor: interceptor)
        let done = expectation(description: "response")
        // A URLRequest, as a router would make: the request reaches the adapter as built.
        let request = session.request(URLRequest(url: try TestServers.shared.url(.httpbin, "/get"))).validate()
        request.responseData { response in
            XCTAssertNil(response.error, String(describing: response.error))
            XCTAssertEqual(response.response?.statusCode, 200)
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        XCTAssertEqual(request.retryCount, 1)
        XCTAssertEqual(adaptations.withLock { $0 }, 2)
    }

    /// As in Alamofire, a retried request keeps its attempt's error and its retry count
    /// through the back-off; both change, and monitors hear `requestIsRetrying`, when the
    /// next attempt starts.
    func testTheRetryIsCountedWhenTheBackOffEnds() throws {
        let duringBackOff = Mutex<(count: Int, hasError: Bool)?>(nil)
        let looked = expectation(description: "looked during the back-off")
        let retrier = Retrier { request, _, _, completion in
            guard request.retryCount == 0 else { return completion(.doNotRetry) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
                duringBackOff.withLock { $0 = (request.retryCount, request.error != nil) }
                looked.fulfill()
            }
            completion(.retryWithDelay(1.5))
        }
        let retrying = Mutex<Int?>(nil)
        let monitor = ClosureEventMonitor()
        monitor.requestIsRetrying = { request in retrying.withLock { $0 = request.retryCount } }
        let session = Session(interceptor: retrier, eventMonitors: [monitor], responseQueue: DispatchQueue(label: "test"))
        let request = session.request(try TestServers.shared.url(.fault, "/fail-twice?key=\(UUID().uuidString)&times=1")).validate()
        let response = awaitData(request)
        wait(for: [looked], timeout: 10)
        monitor.queue.sync {}
        XCTAssertNil(response.error)
        XCTAssertEqual(request.retryCount, 1)
        XCTAssertEqual(duringBackOff.withLock { $0?.count }, 0, "counted before the back-off ended")
        XCTAssertEqual(duringBackOff.withLock { $0?.hasError }, true, "the error was cleared before the back-off ended")
        XCTAssertEqual(retrying.withLock { $0 }, 1, "monitors hear of the retry once it is counted")
    }
}
