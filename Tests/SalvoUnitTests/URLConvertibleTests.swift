import Salvo
import XCTest
import SalvoTestSupport

final class URLConvertibleTests: XCTestCase {
    // MARK: String

    func testValidStringsBecomeTheirURL() throws {
        let cases = [
            ("https://example.com", "https://example.com"),
            ("https://example.com/", "https://example.com/"),
            ("https://user:pw@example.com:8443/a/b?c=d&e=f#g", "https://user:pw@example.com:8443/a/b?c=d&e=f#g"),
            ("http://127.0.0.1:8080/status/200", "http://127.0.0.1:8080/status/200"),
            ("http://[::1]:80/x", "http://[::1]:80/x"),
            ("/relative/path?x=1", "/relative/path?x=1"),
            ("mailto:someone@example.com", "mailto:someone@example.com"),
            ("file:///tmp/a%20b", "file:///tmp/a%20b"),
            // Characters a URL cannot hold are escaped, as URLComponents(string:) does.
            ("https://example.com/a b", "https://example.com/a%20b"),
            ("https://example.com/movies?hd=[1]", "https://example.com/movies?hd=%5B1%5D"),
            ("https://example.com/ä?q=ü", "https://example.com/%C3%A4?q=%C3%BC"),
            ("https://héllo.com/ü", "https://xn--hllo-bpa.com/%C3%BC"),
            ("http://example.com/%zz", "http://example.com/%25zz"),
            ("not a url", "not%20a%20url"),
            // A leading colon is an empty scheme: Alamofire's URLComponents route escapes it.
            ("://{", "%3A//%7B"),
            (":h[", "%3Ah%5B"),
            (": ", "%3A%20"),
        ]
        for (string, expected) in cases {
            XCTAssertEqual(try string.asURL().absoluteString, expected, string)
        }
    }

    func testInvalidStringsThrowInvalidURLCarryingTheString() {
        for string in ["", "http://a b.com", "http://[::1", "http://exa mple.com/path", "https://[v1.x]:bad/"] {
            XCTAssertThrowsError(try string.asURL(), string.debugDescription) { error in
                guard case let .invalidURL(url)? = error as? AFError else {
                    return XCTFail("expected AFError.invalidURL, got \(error)")
                }
                XCTAssertEqual(url as? String, string)
                XCTAssertTrue((error as? AFError)?.isInvalidURLError == true)
            }
        }
    }

    /// `String.asURL()` must give exactly `URLComponents(string:)?.url` for non-empty strings,
    /// which is Alamofire's definition, whatever shortcut it takes.
    func testStringsAgreeWithURLComponentsOnAGeneratedCorpus() {
        let pieces = [":", "//", "/", "?", "#", "@", "[", "]", "[::1]", "%", "%41", "%zz", " ", "é", "😀", "\\", "|",
                      "{", "\"", "a", "h", "1", "+", "-", ".", "x:", "http:", "https://", "example.com", ":80", ":x"]
        var generator = SplitMix64(seed: 0x5A1_70)
        var corpus = Set(pieces)
        for first in pieces {
            for second in pieces { corpus.insert(first + second) }
        }
        while corpus.count < 20_000 {
            let count = Int(generator.next() % 5) + 1
            corpus.insert((0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined())
        }
        var mismatches: [String] = []
        for string in corpus {
            let expected = URLComponents(string: string)?.url?.absoluteString
            let actual = try? string.asURL().absoluteString
            if actual != expected { mismatches.append(string) }
        }
        XCTAssertEqual(mismatches.sorted().prefix(20), [], "\(mismatches.count) strings differ")
    }

    // MARK: URL and URLComponents

    func testURLConvertsToItself() throws {
        let url = try XCTUnwrap(URL(string: "https://example.com/a?b=c"))
        XCTAssertEqual(try url.asURL(), url)
        let relative = try XCTUnwrap(URL(string: "b/c", relativeTo: url))
        XCTAssertEqual(try relative.asURL(), relative)
        XCTAssertEqual(try relative.asURL().absoluteString, "https://example.com/b/c")
    }

    func testURLComponentsConvertToTheirURL() throws {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "example.com"
        components.path = "/a b"
        components.queryItems = [URLQueryItem(name: "q", value: "x y")]
        XCTAssertEqual(try components.asURL().absoluteString, "https://example.com/a%20b?q=x%20y")
    }

    func testURLComponentsWithoutAURLThrowInvalidURLCarryingTheComponents() {
        var components = URLComponents()
        components.path = "//no-host"
        XCTAssertThrowsError(try components.asURL()) { error in
            guard case let .invalidURL(url)? = error as? AFError else {
                return XCTFail("expected AFError.invalidURL, got \(error)")
            }
            XCTAssertEqual(url as? URLComponents, components)
        }
    }

    func testCustomConvertibleCanBeUsedWherever() throws {
        let request = try URLRequest(url: Host(name: "example.com"), method: .get)
        XCTAssertEqual(request.url?.absoluteString, "https://example.com/")
        XCTAssertThrowsError(try URLRequest(url: Host(name: "bad host"), method: .get)) { error in
            guard case let .invalidURL(url)? = error as? AFError else {
                return XCTFail("expected AFError.invalidURL, got \(error)")
            }
            XCTAssertEqual(url as? String, "https://bad host/")
        }
    }

    // MARK: URLRequest(url:method:headers:)

    func testURLRequestInitializerFromEachConvertible() throws {
        let fromString = try URLRequest(url: "https://example.com/s", method: .post)
        let fromURL = try URLRequest(url: XCTUnwrap(URL(string: "https://example.com/u")), method: .put)
        let fromComponents = try URLRequest(url: XCTUnwrap(URLComponents(string: "https://example.com/c")), method: .delete)

        XCTAssertEqual(fromString.url?.absoluteString, "https://example.com/s")
        XCTAssertEqual(fromString.httpMethod, "POST")
        XCTAssertEqual(fromURL.url?.absoluteString, "https://example.com/u")
        XCTAssertEqual(fromURL.httpMethod, "PUT")
        XCTAssertEqual(fromComponents.url?.absoluteString, "https://example.com/c")
        XCTAssertEqual(fromComponents.httpMethod, "DELETE")

        for request in [fromString, fromURL, fromComponents] {
            XCTAssertNil(request.allHTTPHeaderFields)
            XCTAssertNil(request.httpBody)
            XCTAssertEqual(request.timeoutInterval, 60)
        }
    }

    func testURLRequestInitializerSetsHeadersAndCustomMethod() throws {
        let headers: HTTPHeaders = [.authorization(bearerToken: "abc"), .accept("application/json")]
        let request = try URLRequest(url: "https://example.com", method: HTTPMethod(rawValue: "PURGE"), headers: headers)
        XCTAssertEqual(request.httpMethod, "PURGE")
        XCTAssertEqual(request.method, HTTPMethod(rawValue: "PURGE"))
        XCTAssertEqual(request.allHTTPHeaderFields, ["Authorization": "Bearer abc", "Accept": "application/json"])
        XCTAssertEqual(request.headers.sorted(), [.accept("application/json"), .authorization(bearerToken: "abc")])

        let empty = try URLRequest(url: "https://example.com", method: .get, headers: HTTPHeaders())
        XCTAssertEqual(empty.allHTTPHeaderFields, [:])
    }

    func testURLRequestInitializerRethrowsTheConversionError() {
        XCTAssertThrowsError(try URLRequest(url: "http://a b.com", method: .get)) { error in
            guard case let .invalidURL(url)? = error as? AFError else {
                return XCTFail("expected AFError.invalidURL, got \(error)")
            }
            XCTAssertEqual(url as? String, "http://a b.com")
        }
        XCTAssertThrowsError(try URLRequest(url: Failing(), method: .get)) { error in
            XCTAssertEqual(error as? Failing.Failure, .boom)
        }
    }

    // MARK: URLRequestConvertible

    func testURLRequestIsItsOwnConvertible() throws {
        var request = URLRequest(url: try XCTUnwrap(URL(string: "https://example.com/x")))
        request.method = .patch
        request.httpBody = Data("body".utf8)
        request.headers = [.contentType("text/plain")]
        request.timeoutInterval = 5

        XCTAssertEqual(try request.asURLRequest(), request)
        XCTAssertEqual(request.urlRequest, request)

        let convertible: any URLRequestConvertible = request
        let rebuilt = try convertible.asURLRequest()
        XCTAssertEqual(rebuilt.httpMethod, "PATCH")
        XCTAssertEqual(rebuilt.httpBody, Data("body".utf8))
        XCTAssertEqual(rebuilt.value(forHTTPHeaderField: "Content-Type"), "text/plain")
        XCTAssertEqual(rebuilt.timeoutInterval, 5)
    }

    func testURLRequestPropertyIsNilWhenBuildingThrows() throws {
        XCTAssertNil(Failing().urlRequest)
        XCTAssertEqual(Fixed().urlRequest?.url?.absoluteString, "https://example.com/fixed")
        XCTAssertEqual(Fixed().urlRequest?.httpMethod, "OPTIONS")
    }

    // MARK: validate()

    func testValidateRejectsAGETWithABody() throws {
        var request = try URLRequest(url: "https://example.com", method: .get)
        request.httpBody = Data("abc".utf8)
        XCTAssertThrowsError(try request.validate()) { error in
            guard case let .urlRequestValidationFailed(reason: .bodyDataInGETRequest(data))? = error as? AFError else {
                return XCTFail("expected bodyDataInGETRequest, got \(error)")
            }
            XCTAssertEqual(data, Data("abc".utf8))
            XCTAssertTrue((error as? AFError)?.isURLRequestValidationError == true)
        }

        // An empty body is still a body.
        request.httpBody = Data()
        XCTAssertThrowsError(try request.validate()) { error in
            guard case let .urlRequestValidationFailed(reason: .bodyDataInGETRequest(data))? = error as? AFError else {
                return XCTFail("expected bodyDataInGETRequest, got \(error)")
            }
            XCTAssertEqual(data, Data())
        }
    }

    func testValidateAcceptsEverythingElse() throws {
        let plainGET = try URLRequest(url: "https://example.com", method: .get)
        XCTAssertNoThrow(try plainGET.validate())

        for method in [HTTPMethod.post, .put, .patch, .delete, .head, .options, HTTPMethod(rawValue: "get"), HTTPMethod(rawValue: "PURGE")] {
            var request = try URLRequest(url: "https://example.com", method: method)
            request.httpBody = Data("x".utf8)
            // Foundation spells "get" as "GET", which makes it a GET with a body.
            if request.method == .get {
                XCTAssertThrowsError(try request.validate(), method.rawValue)
            } else {
                XCTAssertNoThrow(try request.validate(), method.rawValue)
            }
        }
    }
}

// MARK: - Helpers

private struct Host: URLConvertible {
    let name: String
    func asURL() throws -> URL { try "https://\(name)/".asURL() }
}

private struct Failing: URLConvertible, URLRequestConvertible {
    enum Failure: Error, Equatable { case boom }
    func asURL() throws -> URL { throw Failure.boom }
    func asURLRequest() throws -> URLRequest { throw Failure.boom }
}

private struct Fixed: URLRequestConvertible {
    func asURLRequest() throws -> URLRequest {
        try URLRequest(url: "https://example.com/fixed", method: .options)
    }
}
