import XCTest
import Salvo
import SalvoTestSupport

/// `onHTTPResponse` holds the transfer until its handlers have seen the response: a
/// `ResponseDisposition` of `.cancel` ends the request before any body arrives, `.allow`
/// (however late) lets the whole body through, and the handlers always run before the
/// request completes.
final class ResponseDispositionTests: XCTestCase {
    private var oneMegabyte: Data {
        get throws { try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("1m.bin")) }
    }

    func testCancelStopsTheRequestBeforeItsBody() throws {
        let session = testSession()
        let seen = Collector<Int>()
        let request = session.request(try TestServers.shared.url(.nginx, "/1m.bin"))
            .onHTTPResponse(on: .global()) { response, completionHandler in
                seen.append(response.statusCode)
                completionHandler(.cancel)
            }
        let response = awaitData(request)
        XCTAssertTrue(response.error?.isExplicitlyCancelledError == true, String(describing: response.error))
        XCTAssertEqual(seen.values, [200])
        XCTAssertTrue(response.data?.isEmpty ?? true, "no body byte was kept: \(response.data?.count ?? 0)")
    }

    /// A late `.allow`, given from another thread, over HTTP/1.1 and h2c: the body arrives
    /// whole, after the handler, and nothing stalls (libcurl 7.88 can sit on an unpaused HTTP/2
    /// stream; the loop's brisk polling covers it).
    func testALateAllowLetsTheWholeBodyThrough() throws {
        for transport in [TransportConfiguration(httpVersion: .http1_1), TransportConfiguration(httpVersion: .http2PriorKnowledge)] {
            let session = testSession(transport: transport)
            let server: TestServers.Server = transport.httpVersion == .http1_1 ? .nginx : .nginxH2C
            let order = Collector<String>()
            let request = session.request(try TestServers.shared.url(server, "/1m.bin"))
                .onHTTPResponse(on: .global()) { _, completionHandler in
                    order.append("head")
                    DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { completionHandler(.allow) }
                }
            let response = awaitData(request)
            order.append("done")
            XCTAssertNil(response.error)
            XCTAssertEqual(response.data, try oneMegabyte)
            XCTAssertEqual(order.values, ["head", "done"])
        }
    }

    /// Handlers that only look at the response run before the request completes, whatever
    /// queues they and the completion use (they once could run after it).
    func testObservingHandlersRunBeforeCompletion() async throws {
        let session = testSession()
        for _ in 0..<50 {
            let seen = Collector<Int>()
            let request = session.request(try TestServers.shared.url(.nginx, "/small"))
                .onHTTPResponse(on: .global()) { seen.append($0.statusCode) }
            let response = await request.serializingData().response
            XCTAssertNil(response.error)
            XCTAssertEqual(seen.values, [200])
        }
    }

    /// Several handlers: one `.cancel` is enough; a handler answering twice counts once.
    func testOneCancelAmongSeveralHandlersWins() throws {
        let session = testSession()
        let request = session.request(try TestServers.shared.url(.nginx, "/1m.bin"))
            .onHTTPResponse(on: .global()) { _, completionHandler in
                completionHandler(.allow)
                completionHandler(.allow)
            }
            .onHTTPResponse(on: .global()) { _, completionHandler in completionHandler(.cancel) }
        let response = awaitData(request)
        XCTAssertTrue(response.error?.isExplicitlyCancelledError == true, String(describing: response.error))
    }

    /// Suspended while held, then allowed, the transfer stays paused until resumed.
    func testASuspendWhileHeldOutlastsTheAllow() throws {
        let session = testSession()
        let allowed = expectation(description: "allowed")
        let request = session.request(try TestServers.shared.url(.nginx, "/1m.bin"))
        request.onHTTPResponse(on: .global()) { _, completionHandler in
            request.suspend()
            completionHandler(.allow)
            allowed.fulfill()
        }
        let done = expectation(description: "response")
        let box = Box<AFDataResponse<Data>>()
        request.responseData(queue: .global()) { response in
            box.set(response)
            done.fulfill()
        }
        wait(for: [allowed], timeout: 10)
        XCTAssertTrue(request.isSuspended)
        // Nothing to observe but an absence: long enough for a 1 MB loopback body to arrive
        // many times over had the allow unpaused the suspended transfer.
        let quiet = expectation(description: "no completion while suspended")
        quiet.isInverted = true
        wait(for: [quiet], timeout: 0.5)
        XCTAssertNil(box.value, "a suspended request completed once allowed")
        request.resume()
        wait(for: [done], timeout: 10)
        XCTAssertNil(box.value?.error)
        XCTAssertEqual(box.value?.data, try oneMegabyte)
    }

    func testAsyncHandlers() async throws {
        let session = testSession()
        let cancelled = await session.request(try TestServers.shared.url(.nginx, "/1m.bin"))
            .onHTTPResponse { (response: HTTPURLResponse) async -> Request.ResponseDisposition in
                response.statusCode == 200 ? .cancel : .allow
            }
            .serializingData().response
        XCTAssertTrue(cancelled.error?.isExplicitlyCancelledError == true, String(describing: cancelled.error))

        let seen = Collector<Int>()
        let allowed = await session.request(try TestServers.shared.url(.nginx, "/small"))
            .onHTTPResponse { (response: HTTPURLResponse) async in
                await Task.yield()
                seen.append(response.statusCode)
            }
            .serializingData().response
        XCTAssertNil(allowed.error)
        XCTAssertEqual(seen.values, [200], "the async handler finished before the request did")
    }

    /// A stream whose handler cancels gets no chunk; one that allows gets the whole body.
    func testStreamsWaitForTheDisposition() throws {
        let session = testSession()
        for disposition in [Request.ResponseDisposition.cancel, .allow] {
            let received = Collector<Int>()
            let done = expectation(description: "complete")
            let completion = Box<DataStreamRequest.Completion>()
            session.streamRequest(try TestServers.shared.url(.nginx, "/1m.bin"))
                .onHTTPResponse(on: .global()) { _, completionHandler in completionHandler(disposition) }
                .responseStream(on: DispatchQueue(label: "stream")) { stream in
                    switch stream.event {
                    case let .stream(.success(data)): received.append(data.count)
                    case let .complete(value):
                        completion.set(value)
                        done.fulfill()
                    }
                }
            wait(for: [done], timeout: 30)
            if disposition == .cancel {
                XCTAssertTrue(completion.value?.error?.isExplicitlyCancelledError == true)
                XCTAssertEqual(received.values, [], "no chunk after .cancel")
            } else {
                XCTAssertNil(completion.value?.error)
                XCTAssertEqual(received.values.reduce(0, +), 1 << 20)
            }
        }
    }
}
