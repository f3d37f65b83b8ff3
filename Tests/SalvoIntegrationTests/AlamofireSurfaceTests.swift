import XCTest
import Salvo
import SalvoTestSupport

/// Alamofire API that code written for Alamofire names and that Salvo once lacked: each test
/// uses it as Alamofire's callers do, so a missing or misspelt declaration fails to compile.
final class AlamofireSurfaceTests: XCTestCase {
    private struct Wrapped: Error, Equatable {
        let code: Int?
    }

    private struct Thrown: Error {}

    func testAFResultAndTryMapErrorOnDataResponses() throws {
        let session = testSession()
        let failed = awaitData(session.request(try TestServers.shared.url(.httpbin, "/status/418")).validate())
        let result: AFResult<Data> = failed.result
        XCTAssertEqual(result.failure?.responseCode, 418)

        let mapped = failed.tryMapError { Wrapped(code: $0.responseCode) }
        XCTAssertEqual(mapped.error as? Wrapped, Wrapped(code: 418))
        XCTAssertEqual(mapped.response?.statusCode, 418, "the response travels with the new result")
        let thrown = failed.tryMapError { _ -> Wrapped in throw Thrown() }
        XCTAssertTrue(thrown.error is Thrown)

        let succeeded = awaitData(session.request(try TestServers.shared.url(.nginx, "/small")))
        let untouched = succeeded.tryMapError { _ -> Wrapped in throw Thrown() }
        XCTAssertEqual(untouched.value, succeeded.value)
    }

    func testTryMapErrorOnDownloadResponses() throws {
        let session = testSession()
        let failed = awaitDownload(session.download(try TestServers.shared.url(.httpbin, "/status/404")).validate())
        let mapped = failed.tryMapError { Wrapped(code: $0.responseCode) }
        XCTAssertEqual(mapped.error as? Wrapped, Wrapped(code: 404))
        XCTAssertNil(mapped.fileURL, "a failed download keeps no file")
    }

    /// `ResponseSerializer` has a primary associated type, so opaque and existential
    /// serializers can name what they make.
    func testResponseSerializerNamesItsObject() throws {
        let serializer: some ResponseSerializer<String> = StringResponseSerializer()
        let any: any ResponseSerializer<Data> = DataResponseSerializer()
        XCTAssertEqual(try serializer.serialize(request: nil, response: nil, data: Data("hi".utf8), error: nil), "hi")
        XCTAssertEqual(try any.serialize(request: nil, response: nil, data: Data("hi".utf8), error: nil), Data("hi".utf8))
    }

    /// `Stream.result` and the `DataStreamTask.Stream` alias, as a `switch` over events uses them.
    func testStreamResultAndTaskStreamAlias() async throws {
        let session = testSession()
        let task = session.streamRequest(try TestServers.shared.url(.nginx, "/small")).streamTask()
        let stream: DataStreamTask.Stream<Data, Never> = task.streamingData()
        var bytes = 0
        var completions = 0
        for await event in stream {
            switch event.result {
            case let .success(data)?: bytes += data.count
            case nil: completions += 1
            }
        }
        XCTAssertEqual(bytes, 100)
        XCTAssertEqual(completions, 1)
    }
}

extension AlamofireSurfaceTests {
    /// `withAllRequests` sees started, unfinished requests; `cancelAllRequests` cancels them
    /// and then calls back; finished requests leave the registry.
    func testCancelAllRequestsCancelsWhatIsRunning() throws {
        let session = testSession()
        let stalled = try TestServers.shared.url(.fault, "/stall-headers")
        let requests = (0..<3).map { _ in session.request(stalled) }
        let responses = requests.map { request -> XCTestExpectation in
            let done = expectation(description: "response")
            request.response(queue: .global()) { response in
                XCTAssertTrue(response.error?.isExplicitlyCancelledError == true, String(describing: response.error))
                done.fulfill()
            }
            return done
        }
        let unstarted = session.request(stalled)
        let seen = expectation(description: "all requests")
        session.withAllRequests { all in
            XCTAssertEqual(all, Set(requests), "started requests only")
            seen.fulfill()
        }
        wait(for: [seen], timeout: 10)
        let cancelled = expectation(description: "cancelled")
        session.cancelAllRequests(completingOnQueue: DispatchQueue(label: "test.cancel")) { cancelled.fulfill() }
        wait(for: [cancelled] + responses, timeout: 10)
        XCTAssertTrue(requests.allSatisfy(\.isCancelled))
        XCTAssertFalse(unstarted.isCancelled, "never started, so never registered")
        let empty = expectation(description: "none left")
        session.withAllRequests { all in
            XCTAssertTrue(all.isEmpty, "finished requests are forgotten: \(all)")
            empty.fulfill()
        }
        wait(for: [empty], timeout: 10)
    }

    /// `description`, `firstMetrics`, `lastMetrics`, `performedRequests` and `credential`, and
    /// the `didCreateURLRequest` event once per attempt (not per redirect hop).
    func testRequestReportsItsAttempts() throws {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.monitor"))
        let created = Collector<String>()
        monitor.requestDidCreateURLRequest = { _, urlRequest in created.append(urlRequest.url?.path ?? "") }
        let session = Session(eventMonitors: [monitor], responseQueue: DispatchQueue(label: "test.responses"))
        XCTAssertEqual(session.eventMonitor.monitors.count, 1)
        // A session made without monitors has Alamofire's default: the notifications.
        XCTAssertEqual(testSession().eventMonitor.monitors.map { "\(type(of: $0))" }, ["AlamofireNotifications"])

        let request = session.request(try TestServers.shared.url(.httpbin, "/redirect/1"))
        XCTAssertEqual(request.description, "No request created yet.")
        XCTAssertNil(request.credential)
        request.authenticate(username: "user", password: "secret")
        XCTAssertEqual(request.credential?.user, "user")
        XCTAssertEqual(request.credential?.password, "secret")
        let response = awaitData(request)
        XCTAssertNil(response.error)
        XCTAssertEqual(request.performedRequests.map { $0.url?.path }, ["/get"], "the attempt ended at the redirect's target")
        // libcurl puts the credential into the redirect URL it resolves; it must not show.
        XCTAssertNil(request.performedRequests.last?.url?.user)
        XCTAssertNil(request.performedRequests.last?.url?.password)
        XCTAssertEqual(request.requests.map { $0.url?.path }, ["/redirect/1"])
        XCTAssertEqual(request.description, "GET \(try TestServers.shared.url(.httpbin, "/get").absoluteString) (200)")
        XCTAssertNotNil(request.firstMetrics)
        XCTAssertEqual(request.lastMetrics, request.metrics)
        monitor.queue.sync {}
        XCTAssertEqual(created.values, ["/redirect/1"])
    }
}

extension AlamofireSurfaceTests {
    /// `debugDescription` in Alamofire's layout: request line, headers and textual body
    /// indented under it; status, headers and body under the response; durations; result.
    func testDebugDescriptionHasAlamofiresLayout() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.httpbin, "/anything")
        let response = awaitData(session.request(url, method: .post, parameters: ["flavour": "oat"], encoding: JSONEncoding.default,
                                                 headers: ["X-Probe": "1"]))
        let text = response.debugDescription
        XCTAssertTrue(text.hasPrefix("[Request]: POST \(url.absoluteString)\n    [Headers]:\n        "), text)
        XCTAssertTrue(text.contains("\n        Content-Type: application/json\n"), text)
        XCTAssertTrue(text.contains("\n        X-Probe: 1"), text)
        XCTAssertTrue(text.contains("\n    [Body]:\n        {\"flavour\":\"oat\"}\n[Response]:\n    [Status Code]: 200\n    [Headers]:\n"), text)
        XCTAssertTrue(text.contains("\n    [Body]:\n        {\n"), "the JSON answer, indented: \(text)")
        XCTAssertTrue(text.contains("\n[Network Duration]: "), text)
        XCTAssertTrue(text.contains("s\n[Serialization Duration]: "), text)
        XCTAssertTrue(text.hasSuffix("[Result]: \(response.result)"), text)

        let binary = awaitData(session.request(try TestServers.shared.url(.nginx, "/1m.bin")))
        XCTAssertTrue(binary.debugDescription.contains("\n    [Body]: 1048576 bytes\n"), binary.debugDescription)
        XCTAssertTrue(binary.debugDescription.contains("\n    [Body]: None\n[Response]:"), "no request body: \(binary.debugDescription)")

        let download = awaitDownload(session.download(try TestServers.shared.url(.httpbin, "/status/404")).validate())
        XCTAssertTrue(download.debugDescription.contains("\n[Response]:\n    [Status Code]: 404\n"), download.debugDescription)
        XCTAssertTrue(download.debugDescription.contains("\n[File URL]: None\n[Resume Data]: None\n"), download.debugDescription)
    }
}

private extension Result {
    var failure: Failure? {
        guard case let .failure(error) = self else { return nil }
        return error
    }
}
