import XCTest
import Salvo

/// CR, LF and NUL never reach the wire in a header or a method: a request carrying one fails
/// with `urlRequestValidationFailed` before it is sent, so no second request can be smuggled
/// onto the connection and no header is silently cut short.
final class HeaderInjectionTests: XCTestCase {
    private func assertRefused(_ response: AFDataResponse<Data>, _ expected: (AFError.URLRequestValidationFailureReason) -> Bool,
                               file: StaticString = #filePath, line: UInt = #line) {
        guard case let .urlRequestValidationFailed(reason)? = response.error, expected(reason) else {
            return XCTFail("expected a refused request, got \(String(describing: response.error))", file: file, line: line)
        }
        XCTAssertNil(response.response, file: file, line: line)
    }

    func testASmuggledRequestInAHeaderValueIsRefusedAndNeverSent() throws {
        let session = testSession()
        let before = try TestServers.shared.faultCount()
        let smuggled = "v\r\nContent-Length: 0\r\n\r\nGET /count HTTP/1.1\r\nHost: x\r\n\r\n"
        for name in ["X-Trace", "Cookie", "Authorization", "Proxy-Authorization"] {
            let response = awaitData(session.request(try TestServers.shared.url(.fault, "/ok"), headers: [name: smuggled]))
            assertRefused(response) { if case .invalidHeaderValue(name) = $0 { true } else { false } }
        }
        // The connection the refused requests would have used still answers its own requests.
        let next = awaitData(session.request(try TestServers.shared.url(.fault, "/ok")))
        XCTAssertEqual(next.data, Data("ok\n".utf8))
        XCTAssertEqual(try TestServers.shared.faultCount(), before, "the smuggled request reached the server")
    }

    func testALoneLineFeedOrNulIsRefused() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.fault, "/ok")
        for value in ["a\nX-Injected: 1", "a\rb", "before\0after"] {
            let response = awaitData(session.request(url, headers: ["X-Value": value]))
            assertRefused(response) { if case .invalidHeaderValue("X-Value") = $0 { true } else { false } }
        }
    }

    func testAHeaderNameThatIsNotATokenIsRefused() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.fault, "/ok")
        for name in ["X-A\r\nX-B", "X A", "X:A", "", "X\0"] {
            let response = awaitData(session.request(url, headers: [name: "1"]))
            assertRefused(response) { if case .invalidHeaderName(name) = $0 { true } else { false } }
        }
    }

    func testAMethodThatIsNotATokenIsRefused() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.fault, "/ok")
        for method in ["GET /count HTTP/1.1\r\nHost: x\r\n\r\nGET", "GET\0", "GE T", ""] {
            let response = awaitData(session.request(url, method: HTTPMethod(rawValue: method)))
            assertRefused(response) { if case .invalidHTTPMethod(method) = $0 { true } else { false } }
        }
        // Unusual but valid tokens still go out.
        let custom = awaitData(session.request(try TestServers.shared.url(.fault, "/raw-headers"), method: HTTPMethod(rawValue: "PURGE")))
        XCTAssertEqual(custom.response?.statusCode, 200)
    }

    /// Foundation drops a header value with a line break from a `URLRequest`, but keeps such
    /// a method: an adapter's request is checked like the caller's.
    func testAnAdapterCannotSmuggleEither() throws {
        let smuggling = "GET /count HTTP/1.1\r\nHost: x\r\n\r\nGET"
        let adapter = Adapter { request, _, completion in
            var request = request
            request.httpMethod = smuggling
            completion(.success(request))
        }
        let session = Session(interceptor: adapter, responseQueue: DispatchQueue(label: "test.responses"))
        let response = awaitData(session.request(try TestServers.shared.url(.fault, "/ok")))
        assertRefused(response) { if case .invalidHTTPMethod(smuggling) = $0 { true } else { false } }
    }

    func testASessionHeaderWithALineBreakFailsEveryRequest() throws {
        let session = testSession { $0.headers = ["X-Session": "a\r\nX-Evil: 1"] }
        let response = awaitData(session.request(try TestServers.shared.url(.fault, "/ok")))
        assertRefused(response) { if case .invalidHeaderValue("X-Session") = $0 { true } else { false } }
    }

    func testTheRefusalSaysWhatWasWrong() {
        let error = AFError.urlRequestValidationFailed(reason: .invalidHeaderValue(name: "X-Trace"))
        XCTAssertEqual(error.errorDescription,
                       "The URLRequest is not valid: The value of the header \"X-Trace\" holds CR, LF or NUL, so the request was not sent.")
    }
}
