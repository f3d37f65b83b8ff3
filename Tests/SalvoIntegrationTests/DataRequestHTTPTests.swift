import XCTest
import Salvo
import SalvoTestSupport

/// HTTP semantics through the engine, against httpbin and nginx.
final class DataRequestHTTPTests: XCTestCase {
    func testEveryVerbReachesTheServerWithItsBody() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.httpbin, "/anything")
        for method in [HTTPMethod.get, .post, .put, .patch, .delete] {
            let parameters: Parameters? = method == .get ? nil : ["verb": method.rawValue]
            let response = awaitData(session.request(url, method: method, parameters: parameters, encoding: JSONEncoding.default).validate())
            XCTAssertNil(response.error, "\(method.rawValue): \(String(describing: response.error))")
            let echo = json(response.data)
            XCTAssertEqual(echo["method"] as? String, method.rawValue)
            if method != .get {
                XCTAssertEqual((echo["json"] as? [String: Any])?["verb"] as? String, method.rawValue)
                XCTAssertEqual((echo["headers"] as? [String: Any])?["Content-Type"] as? String, "application/json")
            }
        }
    }

    func testOptionsReturnsTheAllowedMethods() throws {
        let session = testSession()
        let done = expectation(description: "response")
        session.request(try TestServers.shared.url(.httpbin, "/get"), method: .options).response(queue: .global()) { response in
            XCTAssertEqual(response.response?.statusCode, 200)
            XCTAssertEqual(response.response?.value(forHTTPHeaderField: "Allow")?.contains("GET"), true)
            XCTAssertNil(response.data)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    func testHeadAndNoContentGiveEmptySuccess() throws {
        let session = testSession()
        let head = awaitData(session.request(try TestServers.shared.url(.nginx, "/small"), method: .head))
        XCTAssertEqual(head.response?.statusCode, 200)
        XCTAssertEqual(head.value, Data())
        let noContent = awaitData(session.request(try TestServers.shared.url(.httpbin, "/status/204")))
        XCTAssertEqual(noContent.response?.statusCode, 204)
        XCTAssertEqual(noContent.value, Data())
    }

    func testEmptyBodyWithOtherStatusIsASerializationError() throws {
        let session = testSession()
        let response = awaitData(session.request(try TestServers.shared.url(.httpbin, "/status/200")))
        guard case .responseSerializationFailed(reason: .inputDataNilOrZeroLength)? = response.error else {
            return XCTFail("expected inputDataNilOrZeroLength, got \(String(describing: response.error))")
        }
    }

    func testValidationFailureCarriesTheStatusCode() throws {
        let session = testSession()
        let response = awaitData(session.request(try TestServers.shared.url(.httpbin, "/status/418")).validate())
        XCTAssertEqual(response.error?.responseCode, 418)
        XCTAssertTrue(response.error?.isResponseValidationError == true)
        let allowed = awaitData(session.request(try TestServers.shared.url(.httpbin, "/status/418")).validate(statusCode: [418]))
        XCTAssertFalse(allowed.error?.isResponseValidationError == true)
    }

    func testContentTypeValidationUsesTheAcceptHeader() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.httpbin, "/json")
        let refused = awaitData(session.request(url, headers: [.accept("text/html")]).validate())
        guard case let .responseValidationFailed(reason: .unacceptableContentType(acceptable, actual))? = refused.error else {
            return XCTFail("expected unacceptableContentType, got \(String(describing: refused.error))")
        }
        XCTAssertEqual(acceptable, ["text/html"])
        XCTAssertEqual(actual, "application/json")
        let accepted = awaitData(session.request(url, headers: [.accept("application/*")]).validate())
        XCTAssertNil(accepted.error)
    }

    func testBasicAndDigestAuthentication() throws {
        let session = testSession()
        let basic = awaitData(session.request(try TestServers.shared.url(.httpbin, "/basic-auth/user/passwd"))
            .authenticate(username: "user", password: "passwd").validate())
        XCTAssertNil(basic.error)
        XCTAssertEqual(json(basic.data)["authenticated"] as? Bool, true)
        let wrong = awaitData(session.request(try TestServers.shared.url(.httpbin, "/basic-auth/user/passwd"))
            .authenticate(username: "user", password: "nope").validate())
        XCTAssertEqual(wrong.error?.responseCode, 401)
        let digest = awaitData(session.request(try TestServers.shared.url(.httpbin, "/digest-auth/auth/user/passwd"))
            .authenticate(username: "user", password: "passwd").validate())
        XCTAssertNil(digest.error, String(describing: digest.error))
    }

    func testCookiesPersistWithinTheSession() throws {
        let session = testSession()
        _ = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies/set?flavour=oat")))
        let cookies = awaitData(session.request(try TestServers.shared.url(.httpbin, "/cookies")))
        XCTAssertEqual((json(cookies.data)["cookies"] as? [String: Any])?["flavour"] as? String, "oat")
    }

    func testMetricsAndLazyResponse() throws {
        let session = testSession()
        let response = awaitData(session.request(try TestServers.shared.url(.nginx, "/json")))
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertEqual(response.response?.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(response.request?.httpMethod, "GET")
        let metrics = try XCTUnwrap(response.metrics)
        XCTAssertEqual(metrics.httpVersion, "1.1")
        XCTAssertEqual(metrics.bytesReceived, Int64(response.data?.count ?? -1))
        XCTAssertGreaterThan(metrics.total, 0)
    }

    func testH2CMultiplexesManyRequests() throws {
        let session = testSession({ $0.httpMaximumConnectionsPerHost = 1 }, transport: TransportConfiguration(httpVersion: .http2PriorKnowledge))
        let url = try TestServers.shared.url(.nginxH2C, "/small")
        // More at once than one connection's streams: the rest wait in Salvo's queue.
        let count = 1000
        let group = DispatchGroup()
        let collected = Collector<String>()
        for _ in 0..<count {
            group.enter()
            session.request(url).validate().responseData(queue: .global()) { response in
                collected.append(response.error == nil ? (response.metrics?.httpVersion ?? "none") : "error: \(response.error!)")
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(collected.values.count, count)
        XCTAssertEqual(Set(collected.values), ["2"], "\(Set(collected.values))")
    }

    func testThousandsOfConcurrentRequestsAllComplete() throws {
        let session = testSession({ $0.httpMaximumConnectionsPerHost = 64 })
        let url = try TestServers.shared.url(.nginx, "/small")
        let count = 3000
        let group = DispatchGroup()
        let errors = Collector<String>()
        for _ in 0..<count {
            group.enter()
            session.request(url).validate().responseData(queue: .global()) { response in
                errors.append(response.error.map { "\($0)" } ?? "")
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(errors.values.count, count)
        XCTAssertEqual(errors.values.filter { !$0.isEmpty }, [])
    }

    /// As in Alamofire, a request suspended before it starts is `.suspended` and starts on
    /// its resume.
    func testARequestSuspendedBeforeItStartsStartsOnResume() throws {
        let session = Session(startRequestsImmediately: false, responseQueue: DispatchQueue(label: "test.responses"))
        let request = session.request(try TestServers.shared.url(.httpbin, "/get")).suspend()
        XCTAssertTrue(request.isSuspended)
        let done = expectation(description: "response")
        let box = Box<AFDataResponse<Data>>()
        request.responseData(queue: .global()) { response in
            box.set(response)
            done.fulfill()
        }
        XCTAssertTrue(request.isSuspended, "adding a handler started a request its session does not start")
        request.resume()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(box.value?.response?.statusCode, 200)
        XCTAssertTrue(request.isFinished)
    }

    /// A request suspended just after it starts stays unfinished, over HTTP/1.1 and h2c,
    /// while other requests of its session run to their end, and gets its whole body once
    /// resumed. libcurl 7.88 forgets a pause made before a transfer reaches its transfer
    /// phase: such a request once ran to its end while suspended.
    func testARequestSuspendedAsItStartsWaitsForItsResume() throws {
        for (server, version) in [(TestServers.Server.nginx, HTTPVersionPolicy.http1_1), (.nginxH2C, .http2PriorKnowledge)] {
            let session = Session(transport: TransportConfiguration(httpVersion: version), startRequestsImmediately: false,
                                  responseQueue: DispatchQueue(label: "test.responses"))
            let request = session.request(try TestServers.shared.url(server, "/1m.bin"))
            request.resume()
            request.suspend()
            for _ in 0..<3 {
                let other = awaitData(session.request(try TestServers.shared.url(server, "/100k.bin")).resume())
                XCTAssertEqual(other.data?.count, 100 << 10, "\(server): \(String(describing: other.error))")
            }
            XCTAssertTrue(request.isSuspended, "\(server)")
            XCTAssertNil(request.response, "\(server): answered while suspended")
            request.resume()
            let response = awaitData(request)
            XCTAssertNil(response.error, "\(server): \(String(describing: response.error))")
            XCTAssertEqual(response.data?.count, 1 << 20, "\(server)")
        }
    }

    /// As adding a response serializer does in Alamofire, adding a handler resumes a
    /// suspended request when the session starts requests immediately.
    func testAHandlerResumesASuspendedRequestOfAnImmediateSession() throws {
        let session = testSession()
        let request = session.request(try TestServers.shared.url(.httpbin, "/get")).suspend()
        XCTAssertTrue(request.isSuspended)
        let response = awaitData(request)
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertTrue(request.isFinished)
    }

    /// Alamofire 5.11's `shouldAutomaticallyResume:` overrides the session's
    /// `startRequestsImmediately` for one request, either way.
    func testShouldAutomaticallyResumeOverridesTheSession() throws {
        let url = try TestServers.shared.url(.httpbin, "/get")
        let manual = Session(startRequestsImmediately: false, responseQueue: DispatchQueue(label: "test.responses"))
        let started = manual.request(url, shouldAutomaticallyResume: true)
        XCTAssertEqual(awaitData(started).response?.statusCode, 200)

        let automatic = testSession()
        let held = automatic.request(url, shouldAutomaticallyResume: false)
        let done = expectation(description: "response")
        let box = Box<AFDataResponse<Data>>()
        held.responseData(queue: .global()) { response in
            box.set(response)
            done.fulfill()
        }
        // Adding a handler resumes synchronously when it resumes at all.
        XCTAssertTrue(held.isInitialized, "a handler started a request asked not to start")
        held.resume()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(box.value?.response?.statusCode, 200)

        for request in [automatic.download(url, shouldAutomaticallyResume: false) as Request,
                        automatic.streamRequest(url, shouldAutomaticallyResume: false),
                        automatic.upload(Data("x".utf8), to: url, method: .put, shouldAutomaticallyResume: false)] {
            if let download = request as? DownloadRequest { download.response(queue: .global()) { _ in } }
            if let stream = request as? DataStreamRequest { stream.responseStream(on: .global()) { _ in } }
            if let upload = request as? UploadRequest { upload.response(queue: .global()) { _ in } }
            XCTAssertTrue(request.isInitialized, "\(type(of: request)) started")
            request.cancel()
        }
    }
}
