import XCTest
@testable import Salvo

/// Plain requests (a GET of URL text with no adapter, modifier or body), which skip building
/// a `URLRequest` until someone asks for one.
final class PlainRequestPathTests: XCTestCase {
    func testGetFromNginxThroughTheLoop() throws {
        let session = Session(responseQueue: DispatchQueue(label: "test.responses"))
        let url = try TestServers.shared.url(.nginx, "/small")
        let done = expectation(description: "response")
        session.request(url).responseData { response in
            XCTAssertEqual(response.response?.statusCode, 200)
            XCTAssertEqual(response.value.map { String(decoding: $0, as: UTF8.self) }?.isEmpty, false)
            XCTAssertNotNil(response.metrics)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    /// A plain request keeps no convertible; the one it reports builds the same `URLRequest`
    /// as the convertible of the same request made without the plain path (here through a
    /// request modifier that changes nothing), field by field: Foundation's `==` on Linux
    /// ignores headers and body.
    func testAPlainRequestsConvertibleBuildsTheSameURLRequest() throws {
        let session = Session(startRequestsImmediately: false)
        let cases: [(any URLConvertible, HTTPMethod, HTTPHeaders?)] = [
            ("http://example.com/a/b?c=d", .put, ["X-One": "1"]),
            ("http://example.com/ü path", .get, nil),
            (try XCTUnwrap(URL(string: "http://example.com:8080/x")), .delete, ["A": "b", "C": ""]),
        ]
        for (url, method, headers) in cases {
            let plain = try session.request(url, method: method, headers: headers).convertible.asURLRequest()
            let general = try session.request(url, method: method, headers: headers, requestModifier: { _ in }).convertible.asURLRequest()
            XCTAssertEqual(plain.url, general.url)
            XCTAssertEqual(plain.httpMethod, general.httpMethod)
            XCTAssertEqual(plain.allHTTPHeaderFields ?? [:], general.allHTTPHeaderFields ?? [:])
            XCTAssertEqual(plain.httpBody, general.httpBody)
            XCTAssertEqual(plain.timeoutInterval, general.timeoutInterval)
        }
    }

    /// Alamofire asks a custom encoding even without parameters; only the built-in encodings,
    /// which then change nothing, let a request skip building its `URLRequest`.
    func testACustomEncodingIsAskedWithoutParameters() throws {
        struct MarkingEncoding: ParameterEncoding {
            func encode(_ urlRequest: any URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
                var request = try urlRequest.asURLRequest()
                request.setValue(parameters == nil ? "none" : "some", forHTTPHeaderField: "X-Encoded")
                return request
            }
        }
        let session = testSession()
        let response = awaitData(session.request(try TestServers.shared.url(.httpbin, "/headers"), encoding: MarkingEncoding()))
        XCTAssertEqual((json(response.data)["headers"] as? [String: Any])?["X-Encoded"] as? String, "none")
    }

    func testARequestsOwnAcceptEncodingWinsAndResponsesAreStillDecoded() throws {
        let session = Session(responseQueue: DispatchQueue(label: "test.responses"))
        let url = try TestServers.shared.url(.httpbin, "/gzip")
        let response = awaitData(session.request(url, headers: [.acceptEncoding("gzip")]).validate())
        let json = json(response.data)
        XCTAssertEqual(json["gzipped"] as? Bool, true)
        XCTAssertEqual((json["headers"] as? [String: Any])?["Accept-Encoding"] as? String, "gzip")
    }

    func testHttpbinEchoesHeadersAndQuery() throws {
        let session = Session(responseQueue: DispatchQueue(label: "test.responses"))
        let url = try TestServers.shared.url(.httpbin, "/get")
        let done = expectation(description: "response")
        session.request(url, parameters: ["a": "b c"], headers: ["X-Test": "1"]).validate().responseData { response in
            guard let data = response.value,
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                XCTFail("no JSON: \(response.debugDescription)")
                done.fulfill()
                return
            }
            XCTAssertEqual((json["args"] as? [String: Any])?["a"] as? String, "b c")
            XCTAssertEqual((json["headers"] as? [String: Any])?["X-Test"] as? String, "1")
            let headers = json["headers"] as? [String: Any]
            XCTAssertEqual(headers?["User-Agent"] as? String, HTTPHeaders.default["User-Agent"])
            XCTAssertEqual(headers?["Accept-Encoding"] as? String, HTTPHeaders.default["Accept-Encoding"])
            XCTAssertEqual(headers?["Accept-Language"] as? String, HTTPHeaders.default["Accept-Language"])
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    /// `URLSessionConfiguration.headers` reads and writes `httpAdditionalHeaders`, as in
    /// Alamofire; a session whose configuration has none sends no default headers, and one
    /// with its own sends those.
    func testConfigurationHeadersReplaceTheDefaults() throws {
        let configuration = URLSessionConfiguration.af.default
        XCTAssertEqual(configuration.headers["User-Agent"], HTTPHeaders.default["User-Agent"])
        configuration.headers = HTTPHeaders()
        XCTAssertEqual(configuration.httpAdditionalHeaders?.count, 0)
        let bare = Session(configuration: configuration, responseQueue: DispatchQueue(label: "test.responses"))
        let bareHeaders = try echoedHeaders(bare)
        XCTAssertNil(bareHeaders["Accept-Language"])
        // With decoding on, libcurl names what it decodes itself, as URLSession adds its own
        // Accept-Encoding to a request without one.
        // (libcurl's list, e.g. "deflate, gzip, br, zstd", carries no quality weights).
        let encoding = try XCTUnwrap(bareHeaders["Accept-Encoding"] as? String)
        XCTAssertFalse(encoding.contains("q="), encoding)
        XCTAssertTrue(encoding.contains("gzip"), encoding)
        XCTAssertNotEqual(bareHeaders["User-Agent"] as? String, HTTPHeaders.default["User-Agent"])

        configuration.headers = ["X-Session": "on", "User-Agent": "Custom/1.0"]
        XCTAssertEqual(configuration.headers.sorted(), HTTPHeaders(["X-Session": "on", "User-Agent": "Custom/1.0"]).sorted())
        let custom = Session(configuration: configuration, responseQueue: DispatchQueue(label: "test.responses"))
        let customHeaders = try echoedHeaders(custom)
        XCTAssertEqual(customHeaders["X-Session"] as? String, "on")
        XCTAssertEqual(customHeaders["User-Agent"] as? String, "Custom/1.0")
        XCTAssertNil(customHeaders["Accept-Language"])
    }

    /// The request headers httpbin saw.
    private func echoedHeaders(_ session: Session) throws -> [String: Any] {
        let response = awaitData(session.request(try TestServers.shared.url(.httpbin, "/headers")).validate())
        let data = try XCTUnwrap(response.value, response.debugDescription)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(json["headers"] as? [String: Any])
    }
}
