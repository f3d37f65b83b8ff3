import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTestSupport

// `AuthenticationInterceptor` against httpbin: `/bearer` (200 with any bearer token, which it
// echoes; 401 without), `/basic-auth/user/passwd` (200 only with those credentials, 401
// otherwise) and `/status/401` (always 401).

/// A credential that is a whole `Authorization` header value.
private struct TestCredential: AuthenticationCredential, Sendable, Equatable {
    let authorization: String
    var requiresRefresh = false

    static func bearer(_ token: String, requiresRefresh: Bool = false) -> TestCredential {
        TestCredential(authorization: "Bearer \(token)", requiresRefresh: requiresRefresh)
    }

    static func basic(_ user: String, _ password: String) -> TestCredential {
        TestCredential(authorization: HTTPHeader.authorization(username: user, password: password).value)
    }
}

private struct RefreshFailure: Error, Equatable {}

/// Counts what the interceptor asks of it. A 401 is an authentication failure; a request is
/// authenticated with a credential when its `Authorization` header is the credential's.
private final class TestAuthenticator: Authenticator {
    private let refreshes = Mutex(0)
    private let authenticationChecks = Mutex(0)
    private let refreshed: @Sendable (Int) -> Result<TestCredential, any Error>
    private let deliver: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// - Parameters:
    ///   - refreshed: The outcome of the n-th refresh (counting from 1).
    ///   - deliver: Runs the refresh's completion; later, on another thread, by default.
    init(refreshed: @escaping @Sendable (Int) -> Result<TestCredential, any Error>,
         deliver: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { DispatchQueue.global().async(execute: $0) }) {
        self.refreshed = refreshed
        self.deliver = deliver
    }

    var refreshCount: Int { refreshes.withLock { $0 } }
    var authenticationCheckCount: Int { authenticationChecks.withLock { $0 } }

    func apply(_ credential: TestCredential, to urlRequest: inout URLRequest) {
        urlRequest.headers.update(.authorization(credential.authorization))
    }

    func refresh(_ credential: TestCredential, for session: Session,
                 completion: @escaping @Sendable (Result<TestCredential, any Error>) -> Void) {
        let count = refreshes.withLock { count -> Int in count += 1; return count }
        let result = refreshed(count)
        deliver { completion(result) }
    }

    func didRequest(_ urlRequest: URLRequest, with response: HTTPURLResponse, failDueToAuthenticationError error: any Error) -> Bool {
        authenticationChecks.withLock { $0 += 1 }
        return response.statusCode == 401
    }

    func isRequest(_ urlRequest: URLRequest, authenticatedWith credential: TestCredential) -> Bool {
        urlRequest.headers.value(for: "Authorization") == credential.authorization
    }
}

private func authSession(_ interceptor: any RequestInterceptor) -> Session {
    Session(interceptor: interceptor, responseQueue: DispatchQueue(label: "test.authentication.responses"))
}

final class AuthenticationInterceptorTests: XCTestCase {
    /// Adds a handler to every request first (so they run together), then waits for all.
    private func awaitAll(_ requests: [DataRequest], file: StaticString = #filePath, line: UInt = #line) -> [AFDataResponse<Data>] {
        let done = expectation(description: "responses")
        done.expectedFulfillmentCount = requests.count
        let boxes = requests.map { _ in Box<AFDataResponse<Data>>() }
        for (request, box) in zip(requests, boxes) {
            request.responseData(queue: .global()) { response in
                box.set(response)
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 30)
        let responses = boxes.compactMap(\.value)
        XCTAssertEqual(responses.count, requests.count, "every request must complete", file: file, line: line)
        return responses
    }

    // MARK: Types

    func testRefreshWindowDefaultsAndCredentialAccessor() {
        let window = AuthenticationInterceptor<TestAuthenticator>.RefreshWindow()
        XCTAssertEqual(window.interval, 30)
        XCTAssertEqual(window.maximumAttempts, 5)
        let custom = AuthenticationInterceptor<TestAuthenticator>.RefreshWindow(interval: 2, maximumAttempts: 1)
        XCTAssertEqual(custom.interval, 2)
        XCTAssertEqual(custom.maximumAttempts, 1)

        let interceptor = AuthenticationInterceptor(authenticator: TestAuthenticator(refreshed: { _ in .failure(RefreshFailure()) }))
        XCTAssertNil(interceptor.credential, "no credential by default")
        interceptor.credential = .bearer("set")
        XCTAssertEqual(interceptor.credential, .bearer("set"))
        interceptor.credential = nil
        XCTAssertNil(interceptor.credential)
    }

    // MARK: Adapting

    func testCredentialIsAppliedToTheRequest() throws {
        let authenticator = TestAuthenticator(refreshed: { _ in .failure(RefreshFailure()) })
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: .bearer("token-1"))
        let session = authSession(interceptor)
        let response = awaitData(session.request(try TestServers.shared.url(.httpbin, "/bearer")).validate())
        withExtendedLifetime(session) {}

        XCTAssertNil(response.error)
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertEqual(json(response.data)["authenticated"] as? Bool, true)
        XCTAssertEqual(json(response.data)["token"] as? String, "token-1")
        XCTAssertEqual(response.request?.headers.value(for: "Authorization"), "Bearer token-1")
        XCTAssertEqual(authenticator.refreshCount, 0)
    }

    func testMissingCredentialFailsAdaptationAndSendsNothing() throws {
        let authenticator = TestAuthenticator(refreshed: { _ in .failure(RefreshFailure()) })
        let interceptor = AuthenticationInterceptor(authenticator: authenticator)
        let session = authSession(interceptor)
        let url = try TestServers.shared.url(.httpbin, "/bearer")
        let request = session.request(url).validate()
        let response = awaitData(request)
        withExtendedLifetime(session) {}

        XCTAssertEqual(response.error?.isRequestAdaptationError, true, "\(String(describing: response.error))")
        guard case .missingCredential? = response.error?.underlyingError as? AuthenticationError else {
            return XCTFail("expected missingCredential, got \(String(describing: response.error))")
        }
        XCTAssertNil(response.response, "nothing may be sent without a credential")
        // As in Alamofire, the request as it was before adapting is still reported.
        XCTAssertEqual(response.request?.url, url)
        XCTAssertEqual(request.request?.url, url)
        XCTAssertNil(response.request?.headers.value(for: "Authorization"))
        XCTAssertEqual(request.retryCount, 0)
        XCTAssertEqual(authenticator.authenticationCheckCount, 0, "no response, so nothing to judge")
        XCTAssertEqual(authenticator.refreshCount, 0)
    }

    /// Requests adapted while an expired credential is being refreshed wait for that one
    /// refresh, and all go out with its result.
    func testExpiredCredentialIsRefreshedOnceForConcurrentRequests() throws {
        let count = 4
        let finishRefresh = Box<@Sendable () -> Void>()
        let refreshStarted = expectation(description: "refresh started")
        let authenticator = TestAuthenticator(refreshed: { n in .success(.bearer("fresh-\(n)")) },
                                              deliver: { finish in
                                                  finishRefresh.set(finish)
                                                  refreshStarted.fulfill()
                                              })
        let auth = AuthenticationInterceptor(authenticator: authenticator,
                                             credential: .bearer("expired", requiresRefresh: true))
        // Runs just before the authentication adapter and reports once that adapter has
        // returned, so the test knows every request reached it while the refresh is held.
        let reached = expectation(description: "authentication adapter reached")
        reached.expectedFulfillmentCount = count
        let probe = Adapter { request, _, completion in
            completion(.success(request))
            reached.fulfill()
        }
        let session = authSession(Interceptor(adapters: [probe, auth], retriers: [auth]))
        let url = try TestServers.shared.url(.httpbin, "/bearer")
        let requests = (0..<count).map { _ in session.request(url).validate() }
        for request in requests { request.resume() }

        wait(for: [reached, refreshStarted], timeout: 30)
        XCTAssertEqual(authenticator.refreshCount, 1, "one refresh for every waiting request")
        XCTAssertTrue(requests.allSatisfy { $0.response == nil }, "nothing is sent before the refresh ends")
        guard let finish = finishRefresh.value else { return XCTFail("refresh completion not captured") }
        finish()

        let responses = awaitAll(requests)
        withExtendedLifetime(session) {}
        for response in responses {
            XCTAssertNil(response.error)
            XCTAssertEqual(json(response.data)["token"] as? String, "fresh-1")
        }
        XCTAssertEqual(authenticator.refreshCount, 1)
        XCTAssertEqual(auth.credential, .bearer("fresh-1"))
    }

    func testCredentialThatStaysExpiredFailsAdaptationWithExcessiveRefresh() throws {
        let authenticator = TestAuthenticator(refreshed: { n in .success(.bearer("still-expired-\(n)", requiresRefresh: true)) })
        let auth = AuthenticationInterceptor(authenticator: authenticator,
                                             credential: .bearer("expired", requiresRefresh: true),
                                             refreshWindow: .init(interval: 30, maximumAttempts: 3))
        let session = authSession(auth)
        let response = awaitData(session.request(try TestServers.shared.url(.httpbin, "/bearer")))
        withExtendedLifetime(session) {}

        XCTAssertEqual(response.error?.isRequestAdaptationError, true, "\(String(describing: response.error))")
        guard case .excessiveRefresh? = response.error?.underlyingError as? AuthenticationError else {
            return XCTFail("expected excessiveRefresh, got \(String(describing: response.error))")
        }
        XCTAssertNil(response.response)
        XCTAssertEqual(authenticator.refreshCount, 3, "the fourth refresh in the window is refused")
    }

    func testFailedRefreshWhileAdaptingFailsTheRequestWithItsError() throws {
        let authenticator = TestAuthenticator(refreshed: { _ in .failure(RefreshFailure()) })
        let auth = AuthenticationInterceptor(authenticator: authenticator,
                                             credential: .bearer("expired", requiresRefresh: true))
        let session = authSession(auth)
        let response = awaitData(session.request(try TestServers.shared.url(.httpbin, "/bearer")))
        withExtendedLifetime(session) {}

        XCTAssertEqual(response.error?.isRequestAdaptationError, true, "\(String(describing: response.error))")
        XCTAssertEqual(response.error?.underlyingError as? RefreshFailure, RefreshFailure())
        XCTAssertNil(response.response)
        XCTAssertEqual(authenticator.refreshCount, 1)
    }

    // MARK: Retrying

    /// The server rejects the credential: it is refreshed and the request retried with the
    /// new one, which the server accepts.
    func testRejectedCredentialIsRefreshedAndTheRequestRetried() throws {
        let authenticator = TestAuthenticator(refreshed: { _ in .success(.basic("user", "passwd")) })
        let auth = AuthenticationInterceptor(authenticator: authenticator, credential: .basic("user", "revoked"))
        let session = authSession(auth)
        let request = session.request(try TestServers.shared.url(.httpbin, "/basic-auth/user/passwd")).validate()
        let response = awaitData(request)
        withExtendedLifetime(session) {}

        XCTAssertNil(response.error)
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertEqual(json(response.data)["user"] as? String, "user")
        XCTAssertEqual(request.retryCount, 1)
        XCTAssertEqual(request.requests.map { $0.headers.value(for: "Authorization") },
                       [TestCredential.basic("user", "revoked").authorization, TestCredential.basic("user", "passwd").authorization])
        XCTAssertEqual(authenticator.refreshCount, 1)
        XCTAssertEqual(auth.credential, .basic("user", "passwd"))
    }

    /// Several requests rejected together: whichever way their retries interleave with the
    /// refresh (waiting for it, or arriving after it), there is only one.
    func testConcurrentRejectionsShareOneRefresh() throws {
        let authenticator = TestAuthenticator(refreshed: { _ in .success(.basic("user", "passwd")) })
        let auth = AuthenticationInterceptor(authenticator: authenticator, credential: .basic("user", "revoked"))
        let session = authSession(auth)
        let url = try TestServers.shared.url(.httpbin, "/basic-auth/user/passwd")
        let requests = (0..<4).map { _ in session.request(url).validate() }
        let responses = awaitAll(requests)
        withExtendedLifetime(session) {}

        for response in responses {
            XCTAssertNil(response.error)
            XCTAssertEqual(response.response?.statusCode, 200)
        }
        XCTAssertEqual(authenticator.refreshCount, 1)
        // A request adapted after the refresh never met a 401; every other one retried once.
        XCTAssertTrue(requests.allSatisfy { $0.retryCount <= 1 })
    }

    /// A request sent with a credential that has since been replaced is retried with the
    /// replacement straight away, without refreshing.
    func testRequestAuthenticatedWithOlderCredentialIsRetriedWithoutRefresh() throws {
        let authenticator = TestAuthenticator(refreshed: { _ in .failure(RefreshFailure()) })
        let auth = AuthenticationInterceptor(authenticator: authenticator, credential: .basic("user", "old"))
        // Asked before the authentication interceptor: replaces the credential, as a sign-in
        // elsewhere in the app would while the first attempt was in flight.
        let replaced = Mutex(false)
        let replacer = Retrier { _, _, _, completion in
            let first = replaced.withLock { done -> Bool in defer { done = true }; return !done }
            if first { auth.credential = .basic("user", "passwd") }
            completion(.doNotRetry)
        }
        let session = authSession(Interceptor(adapters: [auth], retriers: [replacer, auth]))
        let request = session.request(try TestServers.shared.url(.httpbin, "/basic-auth/user/passwd")).validate()
        let response = awaitData(request)
        withExtendedLifetime(session) {}

        XCTAssertNil(response.error, "\(String(describing: response.error))")
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertEqual(request.retryCount, 1)
        XCTAssertEqual(request.requests.last?.headers.value(for: "Authorization"), TestCredential.basic("user", "passwd").authorization)
        XCTAssertEqual(authenticator.refreshCount, 0, "a newer credential exists, so no refresh")
    }

    /// A server that rejects every credential: refreshes continue until the window is full,
    /// then the request fails with `excessiveRefresh` inside `requestRetryFailed`.
    func testEndlessRejectionEndsWithExcessiveRefresh() throws {
        let authenticator = TestAuthenticator(refreshed: { n in .success(.bearer("token-\(n)")) })
        let auth = AuthenticationInterceptor(authenticator: authenticator, credential: .bearer("token-0"),
                                             refreshWindow: .init(interval: 30, maximumAttempts: 2))
        let session = authSession(auth)
        let request = session.request(try TestServers.shared.url(.httpbin, "/status/401")).validate()
        let response = awaitData(request)
        withExtendedLifetime(session) {}

        XCTAssertEqual(response.error?.isRequestRetryError, true, "\(String(describing: response.error))")
        guard case let .requestRetryFailed(retryError, originalError)? = response.error else {
            return XCTFail("expected requestRetryFailed, got \(String(describing: response.error))")
        }
        guard case .excessiveRefresh? = retryError as? AuthenticationError else {
            return XCTFail("expected excessiveRefresh, got \(retryError)")
        }
        XCTAssertEqual((originalError as? AFError)?.responseCode, 401)
        XCTAssertEqual(authenticator.refreshCount, 2)
        XCTAssertEqual(request.retryCount, 2, "three attempts: the first, and one after each refresh")
        XCTAssertEqual(request.requests.map { $0.headers.value(for: "Authorization") },
                       ["Bearer token-0", "Bearer token-1", "Bearer token-2"])
        XCTAssertEqual(authenticator.authenticationCheckCount, 3)
    }

    /// A failed refresh fails the request that asked for it; a later rejection of the same
    /// credential refreshes again, as in Alamofire, and a new credential set meanwhile is used.
    func testAFailedRefreshFailsItsRetryAndALaterRejectionRefreshesAgain() throws {
        let authenticator = TestAuthenticator(refreshed: { _ in .failure(RefreshFailure()) })
        let auth = AuthenticationInterceptor(authenticator: authenticator, credential: .basic("user", "revoked"))
        let session = authSession(auth)
        let url = try TestServers.shared.url(.httpbin, "/basic-auth/user/passwd")

        for attempt in 1...2 {
            let request = session.request(url).validate()
            let response = awaitData(request)
            XCTAssertEqual(response.error?.isRequestRetryError, true, "attempt \(attempt): \(String(describing: response.error))")
            XCTAssertEqual(response.error?.underlyingError as? RefreshFailure, RefreshFailure(), "attempt \(attempt)")
            XCTAssertEqual(response.response?.statusCode, 401)
            XCTAssertEqual(request.retryCount, 0)
        }
        // As in Alamofire, a failed refresh is not remembered: the next rejection tries again.
        XCTAssertEqual(authenticator.refreshCount, 2)

        auth.credential = .basic("user", "passwd")
        let recovered = awaitData(session.request(url).validate())
        withExtendedLifetime(session) {}
        XCTAssertNil(recovered.error)
        XCTAssertEqual(recovered.response?.statusCode, 200)
    }

    func testFailuresThatAreNotAuthenticationFailuresAreNotRetried() throws {
        let authenticator = TestAuthenticator(refreshed: { n in .success(.bearer("token-\(n)")) })
        let auth = AuthenticationInterceptor(authenticator: authenticator, credential: .bearer("token-0"))
        let session = authSession(auth)

        let forbidden = session.request(try TestServers.shared.url(.httpbin, "/status/403")).validate()
        let forbiddenResponse = awaitData(forbidden)
        XCTAssertEqual(forbiddenResponse.error?.responseCode, 403)
        XCTAssertEqual(forbiddenResponse.error?.isResponseValidationError, true)
        XCTAssertEqual(forbidden.retryCount, 0)
        XCTAssertEqual(authenticator.authenticationCheckCount, 1, "the authenticator judged the 403")

        // Nothing listens on port 1: the attempt fails without a response to judge.
        let unreachable = session.request("http://127.0.0.1:1/bearer").validate()
        let unreachableResponse = awaitData(unreachable)
        withExtendedLifetime(session) {}
        XCTAssertEqual(unreachableResponse.error?.isSessionTaskError, true, "\(String(describing: unreachableResponse.error))")
        XCTAssertNil(unreachableResponse.response)
        XCTAssertEqual(unreachable.retryCount, 0)
        XCTAssertEqual(authenticator.authenticationCheckCount, 1, "no response, so the authenticator is not asked")
        XCTAssertEqual(authenticator.refreshCount, 0)
    }
}
