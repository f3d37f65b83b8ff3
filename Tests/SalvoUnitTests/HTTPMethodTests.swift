import Salvo
import XCTest

final class HTTPMethodTests: XCTestCase {
    func testStandardMethodsHaveTheirWireNames() {
        let methods: [(HTTPMethod, String)] = [
            (.connect, "CONNECT"), (.delete, "DELETE"), (.get, "GET"), (.head, "HEAD"),
            (.options, "OPTIONS"), (.patch, "PATCH"), (.post, "POST"), (.put, "PUT"),
            (.query, "QUERY"), (.trace, "TRACE"),
        ]
        for (method, name) in methods {
            XCTAssertEqual(method.rawValue, name)
            XCTAssertEqual(HTTPMethod(rawValue: name), method)
        }
        XCTAssertEqual(Set(methods.map(\.0)).count, 10)
    }

    func testCustomMethodKeepsItsRawValueVerbatim() {
        let purge = HTTPMethod(rawValue: "PURGE")
        XCTAssertEqual(purge.rawValue, "PURGE")
        XCTAssertEqual(purge, HTTPMethod(rawValue: "PURGE"))
        XCTAssertNotEqual(purge, .get)

        let odd = HTTPMethod(rawValue: "M-SEARCH ")
        XCTAssertEqual(odd.rawValue, "M-SEARCH ")
        XCTAssertEqual(HTTPMethod(rawValue: "").rawValue, "")
    }

    func testComparisonIsCaseSensitive() {
        XCTAssertNotEqual(HTTPMethod(rawValue: "get"), .get)
        XCTAssertNotEqual(HTTPMethod(rawValue: "Post"), .post)
        XCTAssertEqual(HTTPMethod(rawValue: "GET"), .get)
        XCTAssertEqual(Set([HTTPMethod(rawValue: "get"), .get, HTTPMethod(rawValue: "GET")]).count, 2)
    }

    func testHashableAgreesWithEquality() {
        var seen: [HTTPMethod: Int] = [:]
        seen[.post, default: 0] += 1
        seen[HTTPMethod(rawValue: "POST"), default: 0] += 1
        seen[HTTPMethod(rawValue: "post"), default: 0] += 1
        XCTAssertEqual(seen[.post], 2)
        XCTAssertEqual(seen[HTTPMethod(rawValue: "post")], 1)
        XCTAssertEqual(seen.count, 2)
    }

    func testInitializerIsNotFailableAndWorksGenerically() {
        func make<T: RawRepresentable>(_ type: T.Type, _ raw: T.RawValue) -> T? { T(rawValue: raw) }
        XCTAssertEqual(make(HTTPMethod.self, "PATCH"), .patch)
        XCTAssertEqual(make(HTTPMethod.self, "LINK")?.rawValue, "LINK")
    }

    func testMethodCrossesConcurrencyDomains() async {
        let method = HTTPMethod(rawValue: "REPORT")
        let echoed = await Task.detached { method }.value
        XCTAssertEqual(echoed.rawValue, "REPORT")
    }

    func testURLRequestMethodAccessor() throws {
        var request = URLRequest(url: try XCTUnwrap(URL(string: "https://example.com/")))
        XCTAssertEqual(request.method, .get, "Foundation's default method is GET")

        for method in [HTTPMethod.post, .put, .patch, .delete, .head, .options, .trace, .connect, .query] {
            request.method = method
            XCTAssertEqual(request.httpMethod, method.rawValue)
            XCTAssertEqual(request.method, method)
        }

        request.method = HTTPMethod(rawValue: "PURGE")
        XCTAssertEqual(request.httpMethod, "PURGE")
        XCTAssertEqual(request.method, HTTPMethod(rawValue: "PURGE"))

        // Foundation normalises the spelling of the standard methods and restores GET for nil.
        request.method = HTTPMethod(rawValue: "post")
        XCTAssertEqual(request.method, .post)
        request.method = nil
        XCTAssertEqual(request.httpMethod, "GET")
        XCTAssertEqual(request.method, .get)
    }
}
