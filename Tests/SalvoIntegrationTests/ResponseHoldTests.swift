import XCTest
import Salvo
import SalvoTestSupport

/// The `onHTTPResponse` hold, and the paths where a final response's head is never
/// announced: each test states what Alamofire (over URLSession) does.
final class ResponseHoldTests: XCTestCase {
    /// A request held for its `onHTTPResponse` handler must not stop the other requests
    /// multiplexed on its HTTP/2 connection: URLSession runs other tasks while a delegate
    /// decides about one response.
    func testAHeldResponseDoesNotStallItsH2Connection() throws {
        let session = testSession(transport: TransportConfiguration(httpVersion: .http2PriorKnowledge))
        let url = try TestServers.shared.url(.nginxH2C, "/1m.bin")
        // One connection, already known to multiplex.
        XCTAssertNil(awaitData(session.request(url)).error)

        let decide = Box<@Sendable (Request.ResponseDisposition) -> Void>()
        let heldSeen = expectation(description: "held head")
        let otherDone = expectation(description: "other request")
        let other = Box<AFDataResponse<Data>>()
        _ = try TestServers.shared.largeFile()
        let held = session.request(try TestServers.shared.url(.nginxH2C, "/256m.bin")).onHTTPResponse(on: .global()) { _, completionHandler in
            decide.set(completionHandler)
            heldSeen.fulfill()
        }
        let heldDone = expectation(description: "held request")
        let heldResponse = Box<AFDataResponse<Data>>()
        held.responseData(queue: .global()) { response in
            heldResponse.set(response)
            heldDone.fulfill()
        }
        wait(for: [heldSeen], timeout: 10)
        session.request(url).responseData(queue: .global()) { response in
            other.set(response)
            otherDone.fulfill()
        }
        wait(for: [otherDone], timeout: 10)
        XCTAssertNil(other.value?.error, "the other request finished while the first was held")
        XCTAssertEqual(other.value?.data?.count, 1 << 20)
        decide.value?(.cancel)
        wait(for: [heldDone] + (other.value == nil ? [otherDone] : []), timeout: 30)
        XCTAssertTrue(heldResponse.value?.error?.isExplicitlyCancelledError == true)
    }

    /// With a credential, a final 401 that has no body (httpbin's) is still the response:
    /// `onHTTPResponse` handlers see it before the request completes, as URLSession's delegate does.
    func testAFinalChallengeWithoutBodyReachesTheHandlers() throws {
        let session = testSession()
        let order = Collector<String>()
        let request = session.request(try TestServers.shared.url(.httpbin, "/basic-auth/user/passwd"))
            .authenticate(username: "user", password: "wrong")
            .onHTTPResponse(on: .global()) { order.append("head \($0.statusCode)") }
        let response = awaitData(request)
        order.append("done")
        XCTAssertEqual(response.response?.statusCode, 401)
        XCTAssertEqual(order.values, ["head 401", "done"])
    }

    /// A stream's validators run on that final 401 too: Alamofire fails the request.
    func testAStreamValidatesAFinalChallengeWithoutBody() throws {
        let session = testSession()
        let completion = try completionOf(session.streamRequest(try TestServers.shared.url(.httpbin, "/basic-auth/user/passwd"))
            .authenticate(username: "user", password: "wrong")
            .validate())
        XCTAssertEqual(completion.response?.statusCode, 401)
        XCTAssertTrue(completion.error?.isResponseValidationError == true, String(describing: completion.error))
    }

    /// A redirect the redirect handler refuses is the final response: its handlers see it
    /// before the request completes, and may cancel it.
    func testARefusedRedirectReachesTheHandlers() throws {
        let session = testSession()
        let order = Collector<String>()
        let request = session.request(try TestServers.shared.redirect(to: "/get"))
            .redirect(using: .doNotFollow)
            .onHTTPResponse(on: .global()) { response, completionHandler in
                order.append("head \(response.statusCode)")
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { completionHandler(.allow) }
            }
        let response = awaitData(request)
        order.append("done")
        XCTAssertEqual(response.response?.statusCode, 302)
        XCTAssertFalse(response.error?.isExplicitlyCancelledError == true)
        XCTAssertEqual(order.values, ["head 302", "done"])

        let cancelled = awaitData(session.request(try TestServers.shared.redirect(to: "/get"))
            .redirect(using: .doNotFollow)
            .onHTTPResponse(on: .global()) { _, completionHandler in completionHandler(.cancel) })
        XCTAssertTrue(cancelled.error?.isExplicitlyCancelledError == true, String(describing: cancelled.error))
    }

    /// How a stream request completed (its chunks are not looked at).
    private func completionOf(_ request: DataStreamRequest) throws -> DataStreamRequest.Completion {
        let done = expectation(description: "complete")
        let completion = Box<DataStreamRequest.Completion>()
        request.responseStream(on: DispatchQueue(label: "stream")) { stream in
            if case let .complete(value) = stream.event {
                completion.set(value)
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 30)
        return try XCTUnwrap(completion.value)
    }

    /// ... and a stream validates it.
    func testAStreamValidatesARefusedRedirect() throws {
        let session = testSession()
        let completion = try completionOf(session.streamRequest(try TestServers.shared.redirect(to: "/get"))
            .redirect(using: .doNotFollow)
            .validate())
        XCTAssertEqual(completion.response?.statusCode, 302)
        XCTAssertTrue(completion.error?.isResponseValidationError == true, String(describing: completion.error))
    }

    /// The credential never shows in a followed redirect's URL, whatever its user name.
    func testRedirectURLsNeverCarryTheCredential() throws {
        let session = testSession()
        for user in ["me@example.com", "", "a b"] {
            let request = session.request(try TestServers.shared.url(.httpbin, "/redirect/1"))
                .authenticate(username: user, password: "s3cr3t")
            let response = awaitData(request)
            XCTAssertNil(response.error)
            let url = request.performedRequests.last?.url?.absoluteString ?? ""
            XCTAssertFalse(url.contains("s3cr3t"), "user \(user): \(url)")
            XCTAssertFalse(request.description.contains("s3cr3t"), "user \(user): \(request.description)")
        }
    }

    /// A response with no body (a 204, a HEAD) still waits for the handlers: a late `.cancel`
    /// cancels it, and the handler runs before the completion, as with URLSession.
    func testABodilessResponseWaitsForTheDisposition() throws {
        let h1 = testSession()
        let h2 = testSession(transport: TransportConfiguration(httpVersion: .http2PriorKnowledge))
        let targets: [(Session, HTTPMethod, URL)] = [
            (h1, .get, try TestServers.shared.url(.nginx, "/status/204")),
            (h1, .head, try TestServers.shared.url(.nginx, "/1m.bin")),
            (h2, .get, try TestServers.shared.url(.nginxH2C, "/status/204")),
            (h2, .head, try TestServers.shared.url(.nginxH2C, "/1m.bin")),
            (h2, .get, try TestServers.shared.url(.nginxH2C, "/small")),
        ]
        for (session, method, url) in targets {
            let order = Collector<String>()
            let request = session.request(url, method: method)
                .onHTTPResponse(on: .global()) { response, completionHandler in
                    order.append("head \(response.statusCode)")
                    DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
                        order.append("decided")
                        completionHandler(.cancel)
                    }
                }
            let response = awaitData(request)
            order.append("done")
            XCTAssertTrue(response.error?.isExplicitlyCancelledError == true, "\(method) \(url): \(String(describing: response.error))")
            XCTAssertEqual(order.values.dropFirst(), ["decided", "done"], "\(method) \(url)")
        }
    }

    /// With a credential, a final 401 that has a body is held from the write callback: a late
    /// `.allow` still gets its whole body, on a data request and on a stream.
    func testAFinalChallengeWithABodyIsHeldAndReleased() throws {
        let session = testSession()
        let key = UUID().uuidString
        let url = try TestServers.shared.url(.fault, "/fail-twice?key=\(key)&times=100&status=401")
        let order = Collector<String>()
        let request = session.request(url)
            .authenticate(username: "user", password: "secret")
            .onHTTPResponse(on: .global()) { response, completionHandler in
                order.append("head \(response.statusCode)")
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { completionHandler(.allow) }
            }
        let response = awaitData(request)
        order.append("done")
        XCTAssertEqual(response.response?.statusCode, 401)
        XCTAssertEqual(json(response.data)["key"] as? String, key)
        XCTAssertEqual(order.values, ["head 401", "done"])

        let done = expectation(description: "stream")
        let chunks = Collector<Data>()
        let completion = Box<DataStreamRequest.Completion>()
        session.streamRequest(url)
            .authenticate(username: "user", password: "secret")
            .onHTTPResponse(on: .global()) { _, completionHandler in
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { completionHandler(.allow) }
            }
            .responseStream(on: DispatchQueue(label: "stream")) { stream in
                switch stream.event {
                case let .stream(.success(data)): chunks.append(data)
                case let .complete(value):
                    completion.set(value)
                    done.fulfill()
                }
            }
        wait(for: [done], timeout: 30)
        XCTAssertNil(completion.value?.error)
        XCTAssertEqual(json(chunks.values.reduce(Data(), +))["key"] as? String, key)
    }

    /// Each attempt of a retried request is held and announced once, on one keep-alive
    /// connection whose handle was paused (and so is reset before the next transfer).
    func testEveryRetriedAttemptIsHeldAndAnnounced() throws {
        let session = testSession()
        let key = UUID().uuidString
        let seen = Collector<Int>()
        let request = session.request(try TestServers.shared.url(.fault, "/fail-twice?key=\(key)&times=2"),
                                      interceptor: RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.01))
            .validate()
            .onHTTPResponse(on: .global()) { response, completionHandler in
                seen.append(response.statusCode)
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { completionHandler(.allow) }
            }
        let response = awaitData(request)
        XCTAssertNil(response.error)
        XCTAssertEqual(json(response.data)["attempt"] as? Int, 3)
        XCTAssertEqual(seen.values, [503, 503, 200])
        XCTAssertEqual(request.retryCount, 2)
    }

    /// Held requests over HTTP/1.1 and one h2c connection, answered after random delays with
    /// `.allow` or `.cancel`, some also cancelled from outside: each completes once, an allowed
    /// one left alone with exactly its own body (over h2c, the bytes libcurl had buffered for a
    /// cancelled held stream once reached the next transfer of its handle).
    func testRandomDispositionsAndCancelsCompleteEveryRequestOnceWithItsOwnBody() throws {
        let h1 = TransportConfiguration(httpVersion: .http1_1), h2c = TransportConfiguration(httpVersion: .http2PriorKnowledge)
        for (transport, seed) in [(h1, 0x401D), (h2c, 0x401D), (h2c, 0x402E), (h2c, 0x403F)] as [(TransportConfiguration, UInt64)] {
            let session = testSession(transport: transport)
            let server: TestServers.Server = transport.httpVersion == .http1_1 ? .nginx : .nginxH2C
            let files = [("/small", 100), ("/1m.bin", 1 << 20)]
            var random = SplitMix64(seed: seed)
            let count = 150
            let results = Collector<(index: Int, response: AFDataResponse<Data>)>()
            var expectations: [XCTestExpectation] = []
            var plans: [(length: Int, allow: Bool, outside: Int)] = []
            for index in 0..<count {
                let (path, length) = random.pick(files)
                let allow = random.next() % 4 != 0
                let outside = Int(random.next() % 4) // 0, 1, 2: nothing; 3: cancel
                let decideAfter = Double(random.next() % 30) / 1000
                let actAfter = Double(random.next() % 30) / 1000
                plans.append((length, allow, outside))
                let done = expectation(description: "request \(index)")
                let request = session.request(try TestServers.shared.url(server, path))
                    .onHTTPResponse(on: .global()) { _, completionHandler in
                        DispatchQueue.global().asyncAfter(deadline: .now() + decideAfter) { completionHandler(allow ? .allow : .cancel) }
                    }
                request.responseData(queue: .global()) { response in
                    results.append((index, response))
                    done.fulfill()
                }
                expectations.append(done)
                if outside == 3 {
                    DispatchQueue.global().asyncAfter(deadline: .now() + actAfter) { request.cancel() }
                }
            }
            wait(for: expectations, timeout: 60)
            for (index, response) in results.values {
                let plan = plans[index]
                let what = "\(transport.httpVersion) seed \(seed) request \(index) \(plan)"
                if plan.allow && plan.outside != 3 {
                    XCTAssertNil(response.error, what)
                    XCTAssertEqual(response.data?.count, plan.length, what)
                } else if !plan.allow && plan.outside != 3 {
                    XCTAssertTrue(response.error?.isExplicitlyCancelledError == true, "\(what): \(String(describing: response.error))")
                }
            }
            XCTAssertEqual(results.values.map(\.index).sorted(), Array(0..<count), "each handler runs once")
        }
    }

    /// A held HTTP/2 response that libcurl itself ends (the session's resource timeout) leaves
    /// nothing behind on its handle: the requests that reuse the handle get their own bodies.
    /// libcurl 7.88 keeps the body bytes it buffered for a paused stream with the easy handle.
    func testAHeldH2ResponseEndedByTheResourceTimeoutLeavesNoBytesBehind() throws {
        let session = testSession({ $0.timeoutIntervalForResource = 1 },
                                  transport: TransportConfiguration(httpVersion: .http2PriorKnowledge))
        let small = try TestServers.shared.url(.nginxH2C, "/small")
        let large = try TestServers.shared.url(.nginxH2C, "/1m.bin")
        XCTAssertEqual(awaitData(session.request(small)).data?.count, 100)
        for round in 0..<3 {
            let decide = Box<@Sendable (Request.ResponseDisposition) -> Void>()
            let held = session.request(large).onHTTPResponse(on: .global()) { _, completionHandler in
                decide.set(completionHandler)
            }
            let response = awaitData(held)
            XCTAssertEqual(urlErrorCode(response.error), .timedOut, "round \(round): \(String(describing: response.error))")
            decide.value?(.allow)
            // One at a time: each takes the handle the held request gave back.
            for index in 0..<4 {
                let next = awaitData(session.request(small))
                XCTAssertNil(next.error, "round \(round) request \(index)")
                XCTAssertEqual(next.data?.count, 100, "round \(round) request \(index): another request's bytes")
            }
        }
    }
}
