import XCTest
import Salvo
import SalvoTestSupport

/// An interim response (a challenge libcurl answers, a redirect Salvo follows) is never
/// reported as the response, and a cancel that lands late (in a retry's back-off, after
/// resume data was asked for) still completes once and leaves nothing behind.
final class InterimResponseAndCancelTests: XCTestCase {
    /// With credentials, libcurl's first 401 is a challenge it answers itself; the response
    /// the caller hears about is the one after it.
    func testAuthenticationChallengeIsNotReportedAsTheResponse() throws {
        let session = testSession()
        let statuses = Collector<Int>()
        // Over-fulfilling fails the test: a call for the 401 as well would be caught.
        let heard = expectation(description: "onHTTPResponse")
        let request = session.request(try TestServers.shared.url(.httpbin, "/basic-auth/user/passwd"))
            .authenticate(username: "user", password: "passwd")
            .onHTTPResponse(on: .global()) { response in
                statuses.append(response.statusCode)
                heard.fulfill()
            }
            .validate()
        let response = awaitData(request)
        XCTAssertNil(response.error)
        wait(for: [heard], timeout: 10)
        XCTAssertEqual(statuses.values, [200])
    }

    /// A redirect that is followed is not the response `onHTTPResponse` reports: only the
    /// final one is (the redirect was once told from CURLINFO_REDIRECT_URL, which libcurl
    /// 7.88 fills in only when the transfer ends).
    func testAFollowedRedirectIsNotReportedAsTheResponse() throws {
        let session = testSession()
        let statuses = Collector<Int>()
        let redirect = try TestServers.shared.redirect(to: try TestServers.shared.url(.nginx, "/small").absoluteString)
        let heard = expectation(description: "onHTTPResponse")
        let request = session.request(redirect)
            .onHTTPResponse(on: .global()) { response in
                statuses.append(response.statusCode)
                heard.fulfill()
            }
        let response = awaitData(request)
        XCTAssertNil(response.error)
        wait(for: [heard], timeout: 10)
        XCTAssertEqual(statuses.values, [200])
    }

    /// A download cancelled while it waits to retry leaves no partial file.
    func testDownloadCancelledDuringRetryBackoffLeavesNoPartialFile() throws {
        let before = Set(DownloadRequestTests.partialFiles())
        let retrying = DispatchSemaphore(value: 0)
        let monitor = ClosureEventMonitor()
        monitor.requestIsRetrying = { _ in retrying.signal() }
        let session = Session(interceptor: RetryPolicy(retryLimit: 2, exponentialBackoffScale: 1),
                              eventMonitors: [monitor], responseQueue: DispatchQueue(label: "test"))
        let url = try TestServers.shared.url(.fault, "/fail-twice?key=\(UUID().uuidString)")
        let request = session.download(url).validate()
        let done = expectation(description: "response")
        request.response(queue: .global()) { response in
            // The cancel lands in the retried attempt (explicitly cancelled) or, when that
            // attempt already failed again, in the next back-off, which keeps the attempt's
            // error as Alamofire does; either way the request completes once, with no file.
            let cancelled = response.error?.isExplicitlyCancelledError == true
            let failedAgain = response.error?.isResponseValidationError == true
            XCTAssertTrue(cancelled || failedAgain, String(describing: response.error))
            XCTAssertNil(response.fileURL)
            done.fulfill()
        }
        XCTAssertEqual(retrying.wait(timeout: .now() + 10), .success)
        request.cancel()
        wait(for: [done], timeout: 10)
        // The retry's timer still fires after the cancel and starts nothing: the lifecycle's
        // rule, tested in RequestLifecycleTests.
        let after = Set(DownloadRequestTests.partialFiles())
        XCTAssertEqual(after.subtracting(before), [])
        withExtendedLifetime(session) {}
    }

    /// `cancel(byProducingResumeData:)` after a plain `cancel()` answers exactly once.
    func testResumeDataHandlerRunsOnceAfterAnEarlierCancel() throws {
        let session = testSession()
        let request = session.download(try TestServers.shared.url(.fault, "/slow-body?chunks=200&interval=50&size=1000"))
        let answered = expectation(description: "resume data handler")
        answered.assertForOverFulfill = true
        let finished = expectation(description: "response")
        request.response(queue: .global()) { _ in finished.fulfill() }
        request.cancel()
        request.cancel(byProducingResumeData: { _ in answered.fulfill() })
        wait(for: [answered, finished], timeout: 10)
        // Anything queued after the finish has had its chance by the time this hop returns.
        let drained = expectation(description: "drained")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { drained.fulfill() }
        wait(for: [drained], timeout: 5)
    }
}
