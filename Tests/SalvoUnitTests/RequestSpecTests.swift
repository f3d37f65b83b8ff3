import XCTest
@testable import Salvo

/// Origin keys of URL text, and the session's cache of the last one.
final class RequestSpecTests: XCTestCase {
    func testPlainHTTPOriginKeys() {
        XCTAssertTrue(RequestSpec.isPlainHTTP(originKey: RequestSpec.originKeyAndLength(of: "http://a.example/x").key))
        XCTAssertTrue(RequestSpec.isPlainHTTP(originKey: RequestSpec.originKeyAndLength(of: "HTTP://A.example").key))
        XCTAssertFalse(RequestSpec.isPlainHTTP(originKey: RequestSpec.originKeyAndLength(of: "https://a.example/x").key))
        XCTAssertFalse(RequestSpec.isPlainHTTP(originKey: RequestSpec.originKeyAndLength(of: "htt").key))
        XCTAssertFalse(RequestSpec.isPlainHTTP(originKey: ""))
        // A substring in the middle of a larger string (not at its start) still reads its own bytes.
        let text = "xxhttp://b"
        XCTAssertTrue(RequestSpec.isPlainHTTP(originKey: text.dropFirst(2)))
        XCTAssertFalse(RequestSpec.isPlainHTTP(originKey: text.dropFirst(1)))
    }

    func testPlainURLTextIsRecognisedOnlyWhenFoundationParsesItTheSameWay() {
        let plain = ["http://127.0.0.1:8080/small", "https://api.example.com/users?page=1&x=y", "http://host", "http://h-1.example.org/a_b~c"]
        for text in plain {
            XCTAssertTrue(RequestSpec.isPlainHTTPURL(text), text)
            XCTAssertEqual(URL(string: text)?.absoluteString, text)
        }
        let notPlain = ["ftp://x/", "http://", "http:///x", "http://host:abc/", "http://host:123456/", "http://a b/", "http://h/é",
                        "http://user@host/", "http://h/%20", "http://[::1]/", "HTTP://host/", "http://h/#f"]
        for text in notPlain { XCTAssertFalse(RequestSpec.isPlainHTTPURL(text), text) }
    }

    func testOriginKey() {
        XCTAssertEqual(RequestSpec.originKey(of: "http://127.0.0.1:8080/small?x=1"), "http://127.0.0.1:8080")
        XCTAssertEqual(RequestSpec.originKey(of: "HTTPS://Example.COM/a"), "https://example.com")
        XCTAssertEqual(RequestSpec.originKey(of: "http://h?q"), "http://h")
    }

    func testOriginKeyCacheReusesOnlyTheSameOrigin() {
        let cache = OriginKeyCache()
        let cases: [(String, Substring)] = [
            ("http://127.0.0.1:8080/small", "http://127.0.0.1:8080"),
            ("http://127.0.0.1:8080/other?x=1", "http://127.0.0.1:8080"),
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
            ("http://127.0.0.1:80801/a", "http://127.0.0.1:80801"),
            ("http://127.0.0.1:8080#f", "http://127.0.0.1:8080"),
            ("http://a.b/x", "http://a.b"),
            ("http://a.bc/x", "http://a.bc"),
            ("HTTP://A.B/x", "http://a.b"),
            ("HTTP://A.B?y", "http://a.b"),
            ("https://a.b/x", "https://a.b"),
            ("http:/typo/path", RequestSpec.originKey(of: "http:/typo/path")),
            ("http://a.example/x", "http://a.example"),
            ("http:/", RequestSpec.originKey(of: "http:/")),
            ("http://b.example:8080/y", "http://b.example:8080"),
        ]
        for (url, key) in cases {
            XCTAssertEqual(cache.key(of: url), key, url)
            XCTAssertEqual(cache.key(of: url), RequestSpec.originKey(of: url), url)
        }
    }
}
