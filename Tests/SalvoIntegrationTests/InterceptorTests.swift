import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTestSupport

// Interceptors: `Adapter`, `Retrier`, `Interceptor` composition, their static helpers, the
// way a session applies them, and the seed `AuthInterceptor` against httpbin.

private struct AdapterFailure: Error, Equatable {
    let reason: String
}

/// Labels appended from any thread, read back in order.
private final class Trail: Sendable {
    private let items = Mutex<[String]>([])
    func append(_ item: String) { items.withLock { $0.append(item) } }
    var all: [String] { items.withLock { $0 } }
}

/// The `headers` object httpbin echoes, as strings.
func echoedHeaders(_ data: Data?) -> [String: String] {
    guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          let headers = object["headers"] as? [String: Any] else { return [:] }
    return headers.compactMapValues { $0 as? String }
}

/// An adapter that appends `label` to the `X-Order` header, so the server's echo shows the
/// order adapters ran in.
func orderAdapter(_ label: String) -> Adapter {
    Adapter { request, _, completion in
        var request = request
        let previous = request.headers.value(for: "X-Order")
        request.headers.update(name: "X-Order", value: previous.map { "\($0),\(label)" } ?? label)
        completion(.success(request))
    }
}

private func interceptorSession(interceptor: (any RequestInterceptor)? = nil) -> Session {
    Session(interceptor: interceptor, responseQueue: DispatchQueue(label: "test.interceptor.responses"))
}

/// A request that is never started (no response handler), for calling retriers directly.
private func idleRequest(on session: Session) -> Request {
    session.request("http://127.0.0.1:1/never-sent")
}

// MARK: - The seed interceptor

/// The seed's `AuthInterceptor`, as close to the text as Swift 6 allows.
///
/// One change: `tokenProvider` is `@Sendable`. `RequestInterceptor` refines `Sendable` (as
/// in Alamofire 5.9+), and a final class holding a non-`Sendable` closure cannot conform
/// under Swift 6's strict checking. The alternative, keeping the closure as written and
/// declaring the class `@unchecked Sendable`, would also compile but would hide a real
/// race if the provider captured mutable state. The `adapt` method is the seed's,
/// unchanged: its non-`@Sendable` completion parameter still satisfies the requirement.
private final class AuthInterceptor: RequestInterceptor {
    let tokenProvider: @Sendable () -> String?
    init(tokenProvider: @escaping @Sendable () -> String?) { self.tokenProvider = tokenProvider }
    func adapt(_ urlRequest: URLRequest, for session: Session,
               completion: @escaping (Result<URLRequest, Error>) -> Void) {
        var request = urlRequest
        if let token = tokenProvider() { request.headers.add(.authorization(bearerToken: token)) }
        completion(.success(request))
    }
}

/// The seed's router, pointed at httpbin: `listUsers` asks `/bearer`, which answers 200
/// only with a bearer token.
private enum APIRouter: URLRequestConvertible {
    case listUsers(page: Int)

    func asURLRequest() throws -> URLRequest {
        switch self {
        case let .listUsers(page):
            let request = try URLRequest(url: TestServers.shared.url(.httpbin, "/bearer"), method: .get)
            return try URLEncoding.default.encode(request, with: ["page": page])
        }
    }
}

final class InterceptorTests: XCTestCase {
    // MARK: Adapters against the server

    func testAdapterAddsHeaderSeenByServer() throws {
        let session = interceptorSession()
        let url = try TestServers.shared.url(.httpbin, "/headers")
        let done = expectation(description: "response")
        session.request(url, interceptor: .adapter { request, _, completion in
            var request = request
            request.headers.add(name: "X-Adapted", value: "yes")
            completion(.success(request))
        }).validate().responseData { response in
            XCTAssertNil(response.error)
            XCTAssertEqual(echoedHeaders(response.data)["X-Adapted"], "yes")
            XCTAssertEqual(response.request?.headers.value(for: "X-Adapted"), "yes")
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
    }

    func testSessionAdapterAppliesToEveryKindOfRequest() throws {
        let session = interceptorSession(interceptor: Adapter { request, _, completion in
            var request = request
            request.headers.add(name: "X-Session", value: "1")
            completion(.success(request))
        })
        let url = try TestServers.shared.url(.httpbin, "/headers")
        let plain = expectation(description: "plain URL")
        let built = expectation(description: "URLRequest")
        let encoded = expectation(description: "with parameters")
        session.request(url).responseData { response in
            XCTAssertEqual(echoedHeaders(response.data)["X-Session"], "1")
            plain.fulfill()
        }
        session.request(URLRequest(url: url)).responseData { response in
            XCTAssertEqual(echoedHeaders(response.data)["X-Session"], "1")
            built.fulfill()
        }
        session.request(url, parameters: ["q": "1"]).responseData { response in
            XCTAssertEqual(echoedHeaders(response.data)["X-Session"], "1")
            encoded.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [plain, built, encoded], timeout: 10) }
    }

    func testFailingAdapterFailsRequestWithRequestAdaptationFailed() throws {
        let session = interceptorSession()
        let url = try TestServers.shared.url(.httpbin, "/get")
        let done = expectation(description: "response")
        session.request(url, interceptor: .adapter { _, _, completion in
            completion(.failure(AdapterFailure(reason: "no token")))
        }).responseData { response in
            XCTAssertEqual(response.error?.isRequestAdaptationError, true, "\(String(describing: response.error))")
            XCTAssertEqual(response.error?.underlyingError as? AdapterFailure, AdapterFailure(reason: "no token"))
            XCTAssertNil(response.response, "nothing may be sent when adaptation fails")
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
    }

    func testAdapterMayAnswerLaterFromAnotherThread() throws {
        let session = interceptorSession()
        let url = try TestServers.shared.url(.httpbin, "/headers")
        let done = expectation(description: "response")
        session.request(url, interceptor: .adapter { request, _, completion in
            DispatchQueue.global().async {
                var request = request
                request.headers.add(name: "X-Late", value: "1")
                completion(.success(request))
            }
        }).responseData { response in
            XCTAssertEqual(echoedHeaders(response.data)["X-Late"], "1")
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
    }

    // MARK: Composition

    func testInterceptorRunsAdaptersInOrderThenInterceptors() throws {
        let session = interceptorSession()
        let url = try TestServers.shared.url(.httpbin, "/headers")
        let composed = Interceptor(adapters: [orderAdapter("a"), orderAdapter("b")],
                                   interceptors: [Interceptor(adapters: [orderAdapter("c")])])
        XCTAssertEqual(composed.adapters.count, 3)
        XCTAssertEqual(composed.retriers.count, 1, "an interceptor joins both lists")
        let done = expectation(description: "response")
        session.request(url, interceptor: composed).responseData { response in
            XCTAssertEqual(echoedHeaders(response.data)["X-Order"], "a,b,c")
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
    }

    func testAdapterChainStopsAtFirstFailure() throws {
        let session = interceptorSession()
        let trail = Trail()
        let interceptor = Interceptor(adapters: [
            Adapter { request, _, completion in trail.append("first"); completion(.success(request)) },
            Adapter { _, _, completion in trail.append("second"); completion(.failure(AdapterFailure(reason: "stop"))) },
            Adapter { request, _, completion in trail.append("third"); completion(.success(request)) },
        ])
        let done = expectation(description: "adapted")
        interceptor.adapt(URLRequest(url: URL(string: "http://example.invalid/")!), for: session) { result in
            if case let .failure(error) = result {
                XCTAssertEqual(error as? AdapterFailure, AdapterFailure(reason: "stop"))
            } else {
                XCTFail("expected the second adapter's failure")
            }
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(trail.all, ["first", "second"])
    }

    func testAdapterStateCarriesRequestID() throws {
        let session = interceptorSession()
        let url = try TestServers.shared.url(.httpbin, "/get")
        let seenID = Mutex<UUID?>(nil)

        /// Reads the state, which the closure-based `Adapter` does not expose.
        struct StateReader: RequestInterceptor {
            let seen: @Sendable (UUID) -> Void
            func adapt(_ urlRequest: URLRequest, using state: RequestAdapterState,
                       completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
                seen(state.requestID)
                completion(.success(urlRequest))
            }
        }

        let done = expectation(description: "response")
        let request = session.request(url, interceptor: Interceptor(interceptors: [StateReader { id in seenID.withLock { $0 = id } }]))
        request.responseData { _ in done.fulfill() }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        XCTAssertEqual(seenID.withLock { $0 }, request.id)
    }

    func testRetriersAreAskedInOrderUntilOneDecides() {
        let session = interceptorSession()
        let request = idleRequest(on: session)
        let trail = Trail()
        let interceptor = Interceptor(retriers: [
            Retrier { _, _, _, completion in trail.append("declines"); completion(.doNotRetry) },
            Retrier { _, _, _, completion in trail.append("decides"); completion(.retryWithDelay(3)) },
            Retrier { _, _, _, completion in trail.append("never asked"); completion(.retry) },
        ])
        let done = expectation(description: "decided")
        interceptor.retry(request, for: session, dueTo: AdapterFailure(reason: "x")) { result in
            guard case let .retryWithDelay(delay) = result else { return XCTFail("got \(result)") }
            XCTAssertEqual(delay, 3)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(trail.all, ["declines", "decides"])
    }

    func testRetrierErrorStopsTheChainAndEveryDeclineMeansDoNotRetry() {
        let session = interceptorSession()
        let request = idleRequest(on: session)
        let trail = Trail()
        let failing = Interceptor(retriers: [
            Retrier { _, _, _, completion in trail.append("fails"); completion(.doNotRetryWithError(AdapterFailure(reason: "r"))) },
            Retrier { _, _, _, completion in trail.append("never asked"); completion(.retry) },
        ])
        let declining = Interceptor(retriers: [
            Retrier { _, _, _, completion in completion(.doNotRetry) },
            Retrier { _, _, _, completion in completion(.doNotRetry) },
        ])
        let empty = Interceptor()
        let done = expectation(description: "decided")
        done.expectedFulfillmentCount = 3
        failing.retry(request, for: session, dueTo: AdapterFailure(reason: "x")) { result in
            guard case let .doNotRetryWithError(error) = result else { return XCTFail("got \(result)") }
            XCTAssertEqual(error as? AdapterFailure, AdapterFailure(reason: "r"))
            done.fulfill()
        }
        declining.retry(request, for: session, dueTo: AdapterFailure(reason: "x")) { result in
            guard case .doNotRetry = result else { return XCTFail("got \(result)") }
            done.fulfill()
        }
        empty.retry(request, for: session, dueTo: AdapterFailure(reason: "x")) { result in
            guard case .doNotRetry = result else { return XCTFail("got \(result)") }
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(trail.all, ["fails"])
    }

    func testStaticHelpersBuildTheExpectedTypes() {
        let adapt: AdaptHandler = { request, _, completion in completion(.success(request)) }
        let retry: RetryHandler = { _, _, _, completion in completion(.doNotRetry) }

        let fromClosures: Interceptor = .interceptor(adapter: adapt, retrier: retry)
        XCTAssertEqual(fromClosures.adapters.count, 1)
        XCTAssertEqual(fromClosures.retriers.count, 1)
        XCTAssertTrue(fromClosures.adapters.first is Adapter)
        XCTAssertTrue(fromClosures.retriers.first is Retrier)

        let fromValues: Interceptor = .interceptor(adapter: Adapter(adapt), retrier: RetryPolicy())
        XCTAssertTrue(fromValues.retriers.first is RetryPolicy)

        let fromLists: Interceptor = .interceptor(adapters: [Adapter(adapt)], retriers: [Retrier(retry)],
                                                  interceptors: [RetryPolicy()])
        XCTAssertEqual(fromLists.adapters.count, 2)
        XCTAssertEqual(fromLists.retriers.count, 2)
        XCTAssertTrue(fromLists.retriers.last is RetryPolicy)

        // The forms Alamofire users write at call sites, in an interceptor position.
        let asAdapter: any RequestAdapter = .adapter(using: adapt)
        let asRetrier: any RequestRetrier = .retrier(using: retry)
        let asInterceptor: any RequestInterceptor = .interceptor(adapters: [asAdapter], retriers: [asRetrier])
        XCTAssertTrue(asInterceptor is Interceptor)
        let session = Session(interceptor: .retryPolicy)
        XCTAssertTrue(session.interceptor is RetryPolicy)
    }

    // MARK: How the session applies interceptors

    /// Alamofire (5.10 and later) adapts with the session's interceptor first, then the
    /// request's (`Session.adapter(for:)` builds `Interceptor(adapters: [session, request])`).
    func testSessionInterceptorAdaptsBeforeRequestInterceptorAsInAlamofire() throws {
        let session = interceptorSession(interceptor: orderAdapter("session"))
        let url = try TestServers.shared.url(.httpbin, "/headers")
        let done = expectation(description: "response")
        session.request(url, interceptor: orderAdapter("request")).responseData { response in
            XCTAssertEqual(echoedHeaders(response.data)["X-Order"], "session,request")
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
    }

    func testSessionRetrierIsAskedBeforeRequestRetrier() throws {
        let trail = Trail()
        let session = interceptorSession(interceptor: Retrier { _, _, _, completion in
            trail.append("session")
            completion(.doNotRetry)
        })
        let url = try TestServers.shared.url(.httpbin, "/status/500")
        let done = expectation(description: "response")
        session.request(url, interceptor: Retrier { _, _, _, completion in
            trail.append("request")
            completion(.doNotRetry)
        }).validate().responseData { response in
            XCTAssertEqual(response.response?.statusCode, 500)
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        XCTAssertEqual(trail.all, ["session", "request"])
    }

    /// A request that times out and is retried once: on each attempt the session's adapter
    /// runs before one added with `adapt(using:)`, and on each failure the session's retrier
    /// is asked before one added with `retry(using:)`; each once per attempt.
    func testAddedAdapterAndRetrierComeAfterTheSessionsOnEveryAttempt() throws {
        let trail = Trail()
        let session = interceptorSession(interceptor: Interceptor(
            adapters: [Adapter { request, _, completion in
                trail.append("adapt session")
                completion(.success(request))
            }],
            retriers: [Retrier { _, _, _, completion in
                trail.append("retry session")
                completion(.doNotRetry)
            }]))
        let url = try TestServers.shared.url(.fault, "/stall-headers")
        let retries = Mutex(0)
        let done = expectation(description: "response")
        session.request(url, requestModifier: { $0.timeoutInterval = 0.3 })
            .adapt(using: Adapter { request, _, completion in
                trail.append("adapt added")
                completion(.success(request))
            })
            .retry(using: Retrier { _, _, _, completion in
                trail.append("retry added")
                let first = retries.withLock { count in
                    defer { count += 1 }
                    return count == 0
                }
                completion(first ? .retry : .doNotRetry)
            })
            .responseData { response in
                XCTAssertEqual((response.error?.underlyingError as? URLError)?.code, .timedOut)
                done.fulfill()
            }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        XCTAssertEqual(trail.all, ["adapt session", "adapt added", "retry session", "retry added",
                                   "adapt session", "adapt added", "retry session", "retry added"])
    }

    /// In Alamofire a failed adaptation goes through `retryOrFinish`, so a retrier can
    /// recover from it (the pattern behind token refresh: adapt fails for want of a token,
    /// the retrier fetches one and retries).
    func testAdaptationFailureIsOfferedToRetrierAsInAlamofire() throws {
        let attempts = Mutex(0)
        let interceptor = Interceptor(adaptHandler: { request, _, completion in
            let attempt = attempts.withLock { count -> Int in count += 1; return count }
            if attempt == 1 {
                completion(.failure(AdapterFailure(reason: "token missing")))
            } else {
                completion(.success(request))
            }
        }, retryHandler: { _, _, error, completion in
            let isAdaptation = (error as? AFError)?.isRequestAdaptationError == true
            completion(isAdaptation ? .retry : .doNotRetry)
        })
        let session = interceptorSession()
        let url = try TestServers.shared.url(.httpbin, "/get")
        let done = expectation(description: "response")
        let request = session.request(url, interceptor: interceptor)
        request.validate().responseData { response in
            XCTAssertNil(response.error)
            XCTAssertEqual(response.response?.statusCode, 200)
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        XCTAssertEqual(request.retryCount, 1)
        XCTAssertEqual(attempts.withLock { $0 }, 2)
    }

    // MARK: The seed

    func testSeedAuthInterceptorAgainstBearer() {
        let session = Session(interceptor: AuthInterceptor(tokenProvider: { "sample-token" }),
                              responseQueue: DispatchQueue(label: "test.seed.responses"))
        let done = expectation(description: "response")
        session.request(APIRouter.listUsers(page: 1))
            .validate()
            .responseData { response in
                switch response.result {
                case let .success(data):
                    XCTAssertGreaterThan(data.count, 0)
                    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                    XCTAssertEqual(object?["authenticated"] as? Bool, true)
                    XCTAssertEqual(object?["token"] as? String, "sample-token")
                case let .failure(error):
                    XCTFail("Request failed: \(error)")
                }
                done.fulfill()
            }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
    }

    func testSeedAuthInterceptorWithoutTokenFailsValidationWith401() {
        let session = Session(interceptor: AuthInterceptor(tokenProvider: { nil }),
                              responseQueue: DispatchQueue(label: "test.seed.responses"))
        let done = expectation(description: "response")
        session.request(APIRouter.listUsers(page: 1)).validate().responseData { response in
            XCTAssertEqual(response.error?.responseCode, 401)
            XCTAssertEqual(response.error?.isResponseValidationError, true)
            done.fulfill()
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
    }
}

/// `onURLRequestCreation`: every request sent, as adapted, retries included.
final class URLRequestCreationTests: XCTestCase {
    func testEachAdaptedRequestIsReportedAndALateHandlerGetsTheLast() throws {
        let adapter = Adapter { request, _, completion in
            var request = request
            request.headers.add(name: "X-Adapted", value: "yes")
            completion(.success(request))
        }
        let session = Session(interceptor: Interceptor(adapters: [adapter], retriers: [RetryPolicy(retryLimit: 1, exponentialBackoffScale: 0.01)]),
                              responseQueue: DispatchQueue(label: "test"))
        let url = try TestServers.shared.url(.fault, "/fail-twice?key=\(UUID().uuidString)&times=1")
        let seen = Collector<URLRequest>()
        let twice = expectation(description: "two requests")
        twice.expectedFulfillmentCount = 2
        let request = session.request(url).validate().onURLRequestCreation(on: .global()) { urlRequest in
            seen.append(urlRequest)
            twice.fulfill()
        }
        let response = awaitData(request)
        XCTAssertNil(response.error)
        wait(for: [twice], timeout: 10)
        XCTAssertEqual(seen.values.map(\.url), [url, url])
        XCTAssertEqual(seen.values.map { $0.value(forHTTPHeaderField: "X-Adapted") }, ["yes", "yes"])

        let late = expectation(description: "late handler")
        request.onURLRequestCreation(on: .global()) { urlRequest in
            XCTAssertEqual(urlRequest.url, url)
            late.fulfill()
        }
        wait(for: [late], timeout: 10)
    }
}
