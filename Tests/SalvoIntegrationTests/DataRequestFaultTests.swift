import XCTest
import Salvo
import SalvoTestSupport

/// Timeouts, cancellation, suspension and broken servers, against the fault server.
final class DataRequestFaultTests: XCTestCase {
    func testIdleTimeoutWhenNoBytesArrive() throws {
        let session = testSession()
        var request = URLRequest(url: try TestServers.shared.url(.fault, "/stall-headers"))
        request.timeoutInterval = 1
        let response = awaitData(session.request(request))
        XCTAssertEqual(urlErrorCode(response.error), .timedOut, String(describing: response.error))
    }

    /// A timeout below a second, set in a request modifier, is honoured: 0.01 s against a
    /// route that stalls before its headers ends in `.timedOut`.
    func testASubSecondTimeoutFromARequestModifierIsHonoured() throws {
        let session = testSession()
        let request = session.request(try TestServers.shared.url(.fault, "/stall-headers")) { $0.timeoutInterval = 0.01 }
        let response = awaitData(request, timeout: 10)
        XCTAssertEqual(urlErrorCode(response.error), .timedOut, String(describing: response.error))
    }

    /// As in Alamofire, a retry builds its request again: the request modifier runs for every
    /// attempt.
    func testARequestModifierRunsAgainOnEachRetry() throws {
        let runs = Collector<Int>()
        let session = Session(interceptor: RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.01),
                              responseQueue: DispatchQueue(label: "test.responses"))
        let url = try TestServers.shared.url(.fault, "/fail-twice?key=\(UUID().uuidString)")
        let request = session.request(url) { urlRequest in
            runs.append(runs.values.count + 1)
            urlRequest.headers.update(name: "X-Attempt", value: "\(runs.values.count)")
        }.validate()
        let response = awaitData(request)
        XCTAssertNil(response.error, String(describing: response.error))
        XCTAssertEqual(request.retryCount, 2)
        XCTAssertEqual(runs.values, [1, 2, 3])
        XCTAssertEqual(request.requests.map { $0.headers.value(for: "X-Attempt") }, ["1", "2", "3"])
    }

    func testResourceTimeoutBoundsASlowButLiveTransfer() throws {
        let session = testSession { $0.timeoutIntervalForResource = 1 }
        let url = try TestServers.shared.url(.fault, "/slow-body?chunks=100&interval=100")
        let response = awaitData(session.request(url))
        XCTAssertEqual(urlErrorCode(response.error), .timedOut, String(describing: response.error))
    }

    /// The resource timeout bounds an attempt with its redirects, as URLSession's bounds a task:
    /// a 0.8 s redirect to a 0.75 s body, or two 0.8 s redirects, end in `.timedOut` under a
    /// 1.2 s limit (each hop once got the whole limit anew). A request that fits gets through.
    func testResourceTimeoutCoversRedirectHops() throws {
        let session = testSession { $0.timeoutIntervalForResource = 1.2 }
        func redirect(to target: String) throws -> URL {
            try TestServers.shared.url(.fault, "/slow-redirect?delay=800&to=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        }
        let slowBody = "/slow-body?chunks=6&interval=150"
        for url in [try redirect(to: slowBody), try redirect(to: try redirect(to: "/ok").absoluteString)] {
            let response = awaitData(session.request(url))
            XCTAssertEqual(urlErrorCode(response.error), .timedOut, "\(url): \(String(describing: response.error))")
        }
        let fits = awaitData(session.request(try TestServers.shared.url(.fault, slowBody)))
        XCTAssertNil(fits.error)
        XCTAssertEqual(fits.data?.count, 60)
    }

    func testConnectionRefused() throws {
        let session = testSession()
        let port = try Self.closedPort()
        let response = awaitData(session.request("http://127.0.0.1:\(port)/"))
        XCTAssertEqual(urlErrorCode(response.error), .cannotConnectToHost, String(describing: response.error))
    }

    /// A host name no resolver can look up: a label longer than DNS allows (63 bytes), which
    /// glibc's resolver refuses before sending any query, so the test needs no network.
    func testAnUnresolvableHostIsCannotFindHost() throws {
        let session = testSession()
        let host = String(repeating: "a", count: 70) + ".example"
        let response = awaitData(session.request("http://\(host)/"))
        XCTAssertEqual(urlErrorCode(response.error), .cannotFindHost, String(describing: response.error))
        XCTAssertNil(response.response)
    }

    func testTruncatedBodyAndResetAreConnectionLost() throws {
        let session = testSession()
        for path in ["/truncate", "/reset", "/close-after-headers", "/empty-reply"] {
            let response = awaitData(session.request(try TestServers.shared.url(.fault, path)))
            XCTAssertEqual(urlErrorCode(response.error), .networkConnectionLost, "\(path): \(String(describing: response.error))")
        }
    }

    func testMalformedStatusLineIsABadServerResponse() throws {
        let session = testSession()
        let response = awaitData(session.request(try TestServers.shared.url(.fault, "/malformed-status")))
        XCTAssertNotNil(urlErrorCode(response.error), String(describing: response.error))
        XCTAssertEqual(urlErrorCode(response.error), .badServerResponse)
    }

    func testCancelBeforeStartCompletesOnceWithExplicitlyCancelled() throws {
        let session = Session(startRequestsImmediately: false, responseQueue: DispatchQueue(label: "test"))
        let request = session.request(try TestServers.shared.url(.nginx, "/small"))
        request.cancel()
        let response = awaitData(request)
        XCTAssertTrue(response.error?.isExplicitlyCancelledError == true)
        XCTAssertEqual(request.state, .cancelled)
        // A handler added after completion still runs, once.
        let late = awaitData(request)
        XCTAssertTrue(late.error?.isExplicitlyCancelledError == true)
    }

    func testCancelWhileWaitingForTheResponse() throws {
        let session = testSession()
        let request = session.request(try TestServers.shared.url(.fault, "/stall-headers"))
        let done = expectation(description: "response")
        request.responseData(queue: .global()) { response in
            XCTAssertTrue(response.error?.isExplicitlyCancelledError == true, String(describing: response.error))
            done.fulfill()
        }
        request.cancel()
        request.cancel()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(request.state, .cancelled)
    }

    func testCancelMidBody() throws {
        let session = testSession()
        let request = session.request(try TestServers.shared.url(.fault, "/stall"))
        request.onHTTPResponse(on: .global()) { [request] response in
            XCTAssertEqual(response.statusCode, 200)
            request.cancel()
        }
        let response = awaitData(request)
        XCTAssertTrue(response.error?.isExplicitlyCancelledError == true, String(describing: response.error))
    }

    func testSuspendAndResumeDeliverTheWholeBody() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.fault, "/slow-body?chunks=6&interval=50&size=1000")
        let request = session.request(url)
        let suspended = expectation(description: "suspended")
        request.onHTTPResponse(on: .global()) { [request] _ in
            request.suspend()
            XCTAssertEqual(request.state, .suspended)
            suspended.fulfill()
        }
        let done = expectation(description: "response")
        let box = Box<AFDataResponse<Data>>()
        let resumed = Box<Bool>()
        let completedWhileSuspended = Box<Bool>()
        request.responseData(queue: .global()) { response in
            box.set(response)
            completedWhileSuspended.set(resumed.value != true)
            done.fulfill()
        }
        wait(for: [suspended], timeout: 10)
        // The body takes ~250 ms to arrive; held paused for a second, the request must not
        // complete before it is resumed.
        let paused = expectation(description: "pause held")
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { paused.fulfill() }
        wait(for: [paused], timeout: 5)
        resumed.set(true)
        request.resume()
        wait(for: [done], timeout: 20)
        XCTAssertEqual(completedWhileSuspended.value, false, "the transfer went on while suspended")
        XCTAssertNil(box.value?.error)
        XCTAssertEqual(box.value?.data?.count, 6000)
        XCTAssertEqual(request.state, .finished)
    }

    func testReleasedSessionFailsInFlightRequestsOnce() throws {
        var session: Session? = testSession()
        let url = try TestServers.shared.url(.fault, "/stall-headers")
        var expectations: [XCTestExpectation] = []
        let collected = Collector<AFError?>()
        for index in 0..<5 {
            let done = expectation(description: "request \(index)")
            expectations.append(done)
            session!.request(url).responseData(queue: .global()) { response in
                collected.append(response.error)
                done.fulfill()
            }
        }
        session = nil
        wait(for: expectations, timeout: 10)
        XCTAssertEqual(collected.values.count, 5)
        for error in collected.values {
            XCTAssertTrue(error?.isSessionDeinitializedError == true, String(describing: error))
        }
    }

    /// A request whose session is gone before a handler is added still completes, once, with
    /// `sessionDeinitialized` (it was never started, and waited forever).
    func testAHandlerAddedAfterTheSessionIsGoneCompletes() throws {
        let request = testSession().request(try TestServers.shared.url(.nginx, "/small"))
        let response = awaitData(request, timeout: 10)
        XCTAssertTrue(response.error?.isSessionDeinitializedError == true, String(describing: response.error))
    }

    func testARequestResumedAfterItsSessionIsGoneFailsOnce() throws {
        var session: Session? = Session(startRequestsImmediately: false, responseQueue: DispatchQueue(label: "test"))
        let request = session!.request(try TestServers.shared.url(.nginx, "/small"))
        session = nil
        let done = expectation(description: "response")
        request.responseData(queue: .global()) { response in
            XCTAssertTrue(response.error?.isSessionDeinitializedError == true, String(describing: response.error))
            done.fulfill()
        }
        request.resume()
        wait(for: [done], timeout: 10)
    }

    /// A loopback port with nothing listening: bound, then closed.
    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return Int(UInt16(bigEndian: try bindToLoopback(fd).sin_port))
    }

    /// Binds a socket to a free loopback port; returns the address it is bound to.
    static func bindToLoopback(_ fd: Int32) throws -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard fd >= 0, bound else { throw URLError(.cannotConnectToHost) }
        return address
    }
}

extension DataRequestFaultTests {
    /// A request left at URLRequest's default timeout takes the session's
    /// `timeoutIntervalForRequest`, and an adapter that passes it through must not undo that:
    /// the adapter sees the request as built (60 s), as in Alamofire, where URLSession then
    /// applies the configuration's timeout to the task.
    func testSessionTimeoutStillAppliesAfterAnAdapter() throws {
        let passThrough = Adapter { request, _, completion in completion(.success(request)) }
        let configuration = URLSessionConfiguration.af.default
        configuration.timeoutIntervalForRequest = 1
        let session = Session(configuration: configuration, interceptor: passThrough,
                              responseQueue: DispatchQueue(label: "test.responses"))
        let request = URLRequest(url: try TestServers.shared.url(.fault, "/stall-headers"))
        XCTAssertEqual(request.timeoutInterval, 60, "the request keeps URLRequest's default")
        // Well under the 60 s the adapted request carries: only the session's 1 s fits.
        let response = awaitData(session.request(request), timeout: 15)
        XCTAssertEqual(urlErrorCode(response.error), .timedOut, String(describing: response.error))
    }
}

extension DataRequestFaultTests {
    /// URLSession's `timeoutInterval` also bounds a connection that never completes: a host
    /// that drops the SYN fails the request with `.timedOut` after that long, not after the
    /// transport's much longer connect timeout.
    func testIdleTimeoutBoundsAConnectThatNeverCompletes() throws {
        let listener = try SaturatedListener()
        defer { listener.close() }
        let session = testSession()
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/")!)
        request.timeoutInterval = 1
        // Well under TransportConfiguration's 60 s connect timeout.
        let response = awaitData(session.request(request), timeout: 15)
        XCTAssertEqual(urlErrorCode(response.error), .timedOut, String(describing: response.error))
    }
}

/// A loopback listener whose accept queue is full: the kernel drops further SYNs, so a
/// client's connect stays pending, as with a host that silently drops packets.
private struct SaturatedListener {
    let port: Int
    private var descriptors: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw URLError(.cannotConnectToHost) }
        descriptors.append(listener)
        var address = try DataRequestFaultTests.bindToLoopback(listener)
        port = Int(UInt16(bigEndian: address.sin_port))
        // A backlog of 0 holds one connection that is never accepted.
        guard listen(listener, 0) == 0 else { throw URLError(.cannotConnectToHost) }
        // Non-blocking, so the connects that find the queue full do not block the test; more
        // than the queue holds, whatever slack the kernel allows.
        for _ in 0..<3 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard client >= 0 else { throw URLError(.cannotConnectToHost) }
            descriptors.append(client)
            _ = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
    }

    func close() {
        for descriptor in descriptors { _ = Glibc.close(descriptor) }
    }
}
