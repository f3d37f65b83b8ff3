import XCTest
@testable import Salvo

/// The engine skips `curl_easy_reset` when a plain GET follows a plain GET with the same
/// options on a pooled handle. One request at a time on one connection reuses one handle, so
/// these sequences check that nothing a previous transfer set leaks into the next.
final class HandleReuseTests: XCTestCase {
    private func oneConnectionSession() -> Session {
        testSession { $0.httpMaximumConnectionsPerHost = 1 }
    }

    func testPlainGetsBetweenOtherRequestsSendOnlyWhatTheyAsk() throws {
        let session = oneConnectionSession()
        let anything = try TestServers.shared.url(.httpbin, "/anything")

        let first = awaitData(session.request(anything))
        XCTAssertEqual(json(first.data)["method"] as? String, "GET")

        let head = awaitData(session.request(anything, method: .head))
        XCTAssertEqual(head.response?.statusCode, 200)
        XCTAssertEqual(head.data?.count ?? 0, 0)

        // After HEAD (CURLOPT_NOBODY): a GET gets its body again.
        let afterHead = awaitData(session.request(anything))
        XCTAssertEqual(json(afterHead.data)["method"] as? String, "GET")

        let post = awaitData(session.request(anything, method: .post, parameters: ["a": "1"]))
        XCTAssertEqual((json(post.data)["form"] as? [String: Any])?["a"] as? String, "1")

        // After POST (POSTFIELDS): a GET sends no body and no method override.
        let afterPost = awaitData(session.request(anything))
        let echo = json(afterPost.data)
        XCTAssertEqual(echo["method"] as? String, "GET")
        XCTAssertEqual(echo["data"] as? String, "")
        XCTAssertEqual((echo["form"] as? [String: Any])?.isEmpty ?? true, true)

        let delete = awaitData(session.request(anything, method: .delete))
        XCTAssertEqual(json(delete.data)["method"] as? String, "DELETE")
        XCTAssertEqual(json(awaitData(session.request(anything)).data)["method"] as? String, "GET")
    }

    func testCredentialsAndExtraHeadersDoNotCarryOver() throws {
        let session = oneConnectionSession()
        let anything = try TestServers.shared.url(.httpbin, "/anything")
        let basic = try TestServers.shared.url(.httpbin, "/basic-auth/user/secret")

        XCTAssertEqual(awaitData(session.request(basic).authenticate(username: "user", password: "secret")).response?.statusCode, 200)
        let afterAuth = json(awaitData(session.request(anything)).data)["headers"] as? [String: Any]
        XCTAssertNil(afterAuth?["Authorization"])

        let withHeader = json(awaitData(session.request(anything, headers: ["X-Once": "1"])).data)["headers"] as? [String: Any]
        XCTAssertEqual(withHeader?["X-Once"] as? String, "1")
        let afterHeader = json(awaitData(session.request(anything)).data)["headers"] as? [String: Any]
        XCTAssertNil(afterHeader?["X-Once"])
        XCTAssertEqual(afterHeader?["User-Agent"] as? String, HTTPHeaders.default["User-Agent"])
    }

    func testDownloadsAndDataRequestsTakeTurnsOnOneHandle() throws {
        let session = oneConnectionSession()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-reuse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = try TestServers.shared.url(.nginx, "/1m.bin")
        let expected = try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("1m.bin"))
        let small = try TestServers.shared.url(.nginx, "/small")
        // The data request opens the connection; the first download resets the handle (another
        // profile), the next ones reuse it as it is; the data requests after them reset it again.
        XCTAssertEqual(awaitData(session.request(small)).data?.count, 100)
        let before = session.loop.fullConfigurations.load(ordering: .relaxed)
        for (index, thenData) in [false, false, false, true, false, false, true].enumerated() {
            let target = scratch.appendingPathComponent("copy-\(index)")
            let download = awaitDownload(session.download(file, to: { _, _ in (target, []) }))
            XCTAssertNil(download.error, "download \(index)")
            XCTAssertEqual(try Data(contentsOf: target), expected, "download \(index)")
            if thenData {
                XCTAssertEqual(awaitData(session.request(small)).data?.count, 100, "data request after download \(index)")
            }
        }
        // 9 transfers; resets: the first download, the data requests (2) and the downloads right
        // after them (1): 4. The other 5 downloads took the fast path.
        XCTAssertEqual(session.loop.fullConfigurations.load(ordering: .relaxed) - before, 4)
    }

    func testManySilentReconnectsOnOneHandleDoNotFailARequest() throws {
        // Each connection answers one request and is found dead by the next, which libcurl
        // then sends again on a new connection. libcurl counts those re-sends per handle and
        // fails the sixth unless the handle is reset in between.
        let session = oneConnectionSession()
        let url = try TestServers.shared.url(.fault, "/one-per-connection")
        for attempt in 1...12 {
            let response = awaitData(session.request(url))
            XCTAssertNil(response.error, "request \(attempt): \(String(describing: response.error))")
            XCTAssertEqual(response.data.map { String(decoding: $0, as: UTF8.self) }, "fresh\n", "request \(attempt)")
        }
    }

    func testResendsOnAnotherPooledConnectionDoNotAddUp() throws {
        // Each round leaves two idle connections, then a request whose first connection is
        // dropped: libcurl re-sends it on the other one, opening nothing. Those re-sends add
        // up per handle unless it is reset, and the sixth failed the request.
        let session = testSession { $0.httpMaximumConnectionsPerHost = 2 }
        // The first of the pair takes the idle connection and finishes last, so its handle is
        // back on top of the pool for the next request; the second opens the other connection.
        let long = try TestServers.shared.url(.fault, "/slow-body?chunks=3&interval=40&size=10")
        let short = try TestServers.shared.url(.fault, "/slow-body?chunks=1&interval=0&size=10")
        let flaky = try TestServers.shared.url(.fault, "/drop-every-other-reused?key=\(UUID().uuidString)")
        for round in 1...12 {
            let both = expectation(description: "two at once")
            both.expectedFulfillmentCount = 2
            for url in [long, short] { session.request(url).response(queue: .global()) { _ in both.fulfill() } }
            wait(for: [both], timeout: 30)
            let response = awaitData(session.request(flaky))
            XCTAssertNil(response.error, "round \(round): \(String(describing: response.error))")
        }
    }

    func testAPlainGetAfterAFailureAndAfterACancelStillWorks() throws {
        let session = oneConnectionSession()
        let anything = try TestServers.shared.url(.httpbin, "/anything")
        let slow = try TestServers.shared.url(.httpbin, "/delay/5")

        let timedOut = awaitData(session.request(slow) { $0.timeoutInterval = 0.5 })
        XCTAssertEqual(urlErrorCode(timedOut.error), .timedOut)
        XCTAssertEqual(json(awaitData(session.request(anything)).data)["method"] as? String, "GET")

        let suspended = session.request(slow)
        let cancelled = expectation(description: "cancelled")
        suspended.response(queue: .global()) { response in
            XCTAssertEqual(response.error?.isExplicitlyCancelledError, true)
            cancelled.fulfill()
        }
        suspended.suspend()
        suspended.cancel()
        wait(for: [cancelled], timeout: 10)
        XCTAssertEqual(awaitData(session.request(anything)).response?.statusCode, 200)
    }
}
