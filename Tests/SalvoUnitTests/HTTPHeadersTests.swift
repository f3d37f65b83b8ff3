@testable import Salvo
import XCTest

final class HTTPHeadersTests: XCTestCase {
    // MARK: Uniqueness and order

    func testNamesDifferingOnlyInCaseCollapseToOneHeaderWhicheverWayTheyAreAdded() {
        let fromDictionaryLiteral: HTTPHeaders = ["accept": "1", "Accept": "2", "ACCEPT": "3"]
        let fromDictionary = HTTPHeaders(["accept": "1", "Accept": "2", "ACCEPT": "3"])
        let fromArrayLiteral: HTTPHeaders = [
            HTTPHeader(name: "accept", value: "1"), HTTPHeader(name: "Accept", value: "2"), HTTPHeader(name: "ACCEPT", value: "3"),
        ]
        let fromArray = HTTPHeaders([
            HTTPHeader(name: "accept", value: "1"), HTTPHeader(name: "Accept", value: "2"), HTTPHeader(name: "ACCEPT", value: "3"),
        ])
        var built = HTTPHeaders()
        built.update(HTTPHeader(name: "accept", value: "1"))
        built.update(name: "Accept", value: "2")
        built.add(name: "ACCEPT", value: "3")

        for headers in [fromDictionaryLiteral, fromDictionary, fromArrayLiteral, fromArray, built] {
            XCTAssertEqual(headers.count, 1)
        }
        // Literals, arrays and updates apply in order: the last name form and value win.
        for headers in [fromDictionaryLiteral, fromArrayLiteral, fromArray, built] {
            XCTAssertEqual(Array(headers), [HTTPHeader(name: "ACCEPT", value: "3")])
            XCTAssertEqual(headers.description, "ACCEPT: 3")
        }
    }

    func testInsertionOrderIsKept() {
        let fromDictionaryLiteral: HTTPHeaders = ["Zeta": "", "alpha": "", "Mid": ""]
        let fromArrayLiteral: HTTPHeaders = [.userAgent("u"), .accept("a"), .authorization("z")]
        let fromArray = HTTPHeaders([.contentType("c"), .acceptLanguage("l"), .acceptCharset("s")])
        var built = HTTPHeaders()
        built.add(name: "c", value: "")
        built.update(name: "b", value: "")
        built.add(HTTPHeader(name: "a", value: ""))

        XCTAssertEqual(fromDictionaryLiteral.map(\.name), ["Zeta", "alpha", "Mid"])
        XCTAssertEqual(fromArrayLiteral.map(\.name), ["User-Agent", "Accept", "Authorization"])
        XCTAssertEqual(fromArray.map(\.name), ["Content-Type", "Accept-Language", "Accept-Charset"])
        XCTAssertEqual(built.map(\.name), ["c", "b", "a"])
    }

    func testUpdatingAnExistingNameReplacesItInPlace() {
        var headers: HTTPHeaders = ["a": "1", "b": "2", "c": "3"]
        headers.update(name: "B", value: "two")
        XCTAssertEqual(headers.map(\.name), ["a", "B", "c"])
        XCTAssertEqual(headers.map(\.value), ["1", "two", "3"])

        headers.add(.init(name: "A", value: "one"))
        XCTAssertEqual(headers.description, "A: one\nB: two\nc: 3")

        headers["C"] = "three"
        XCTAssertEqual(headers.description, "A: one\nB: two\nC: three")
        XCTAssertEqual(headers.count, 3)
    }

    func testSubscriptReadsWritesAndRemovesCaseInsensitively() {
        var headers: HTTPHeaders = ["c": "", "a": "", "b": ""]
        headers["C"] = "c"
        headers["a"] = "a"
        headers["B"] = "b"
        XCTAssertEqual(headers["c"], "c")
        XCTAssertEqual(headers["A"], "a")
        XCTAssertEqual(headers.map(\.value), ["c", "a", "b"])
        XCTAssertEqual(headers.map(\.name), ["C", "a", "B"])

        headers["new"] = "n"
        XCTAssertEqual(headers.map(\.name), ["C", "a", "B", "new"])

        headers["A"] = nil
        XCTAssertEqual(headers.map(\.name), ["C", "B", "new"])
        XCTAssertNil(headers["a"])

        headers["missing"] = nil
        XCTAssertEqual(headers.count, 3)
    }

    func testValueForNameAndRemove() {
        var headers: HTTPHeaders = [.contentType("text/plain"), .accept("*/*")]
        XCTAssertEqual(headers.value(for: "content-type"), "text/plain")
        XCTAssertEqual(headers.value(for: "CONTENT-TYPE"), "text/plain")
        XCTAssertNil(headers.value(for: "Content-Typ"))
        XCTAssertNil(headers.value(for: "Content-Type "))

        headers.remove(name: "ACCEPT")
        XCTAssertEqual(Array(headers), [HTTPHeader(name: "Content-Type", value: "text/plain")])
        headers.remove(name: "Accept")
        XCTAssertEqual(headers.count, 1)
        headers.remove(name: "content-TYPE")
        XCTAssertTrue(headers.isEmpty)
    }

    func testASCIIFoldingOnlyFoldsLetters() {
        // Characters that differ from each other only in bit 0x20 but are not letters
        // name different headers.
        let pairs = [("@", "`"), ("[", "{"), ("]", "}"), ("\\", "|"), ("^", "~"), ("_", "\u{7F}"), ("1", "\u{11}"), ("-", "\r")]
        for (lhs, rhs) in pairs {
            let headers: HTTPHeaders = ["X\(lhs)": "1", "x\(rhs)": "2"]
            XCTAssertEqual(headers.count, 2, "\(lhs.debugDescription) vs \(rhs.debugDescription)")
        }
        let letters: HTTPHeaders = ["abcdefghijklmnopqrstuvwxyz": "1", "ABCDEFGHIJKLMNOPQRSTUVWXYZ": "2"]
        XCTAssertEqual(Array(letters), [HTTPHeader(name: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", value: "2")])
        XCTAssertEqual(HTTPHeaders(["a": "1", "ab": "2"]).count, 2)
    }

    func testNonASCIINamesFoldLikeStringLowercased() {
        // Alamofire compares `lowercased()` names, which folds beyond ASCII.
        let accented: HTTPHeaders = ["X-Café": "1", "X-CAFÉ": "2"]
        XCTAssertEqual(Array(accented), [HTTPHeader(name: "X-CAFÉ", value: "2")])

        let kelvin: HTTPHeaders = ["\u{212A}ey": "1"]
        XCTAssertEqual(kelvin["key"], "1")
        XCTAssertEqual(kelvin["KEY"], "1")

        let decomposed: HTTPHeaders = ["e\u{301}": "1"]
        XCTAssertEqual(decomposed["\u{E9}"], "1")
        XCTAssertEqual(decomposed["\u{C9}"], "1")
        XCTAssertNil(decomposed["e"])
    }

    // MARK: Sorting

    func testSortedReturnsACopyOrderedByCaseInsensitiveName() {
        let headers: HTTPHeaders = ["c": "", "a": "", "b": ""]
        XCTAssertEqual(headers.sorted().map(\.name), ["a", "b", "c"])
        XCTAssertEqual(headers.map(\.name), ["c", "a", "b"])

        var mixed: HTTPHeaders = ["b": "", "A": "", "C": "", "a-b": ""]
        mixed.sort()
        XCTAssertEqual(mixed.map(\.name), ["A", "a-b", "b", "C"])
    }

    // MARK: Conversions

    func testDescriptionListsHeadersInOrder() {
        let headers: HTTPHeaders = ["c": "c", "a": "a", "b": "b"]
        XCTAssertEqual(headers.description, "c: c\na: a\nb: b")
        XCTAssertEqual(HTTPHeaders().description, "")
        XCTAssertEqual("\(HTTPHeader.accept("text/html"))", "Accept: text/html")
    }

    func testDictionaryRepresentation() {
        let headers: HTTPHeaders = [.accept("a"), .contentType("b"), HTTPHeader(name: "X-Empty", value: "")]
        XCTAssertEqual(headers.dictionary, ["Accept": "a", "Content-Type": "b", "X-Empty": ""])
        XCTAssertEqual(HTTPHeaders().dictionary, [:])
        XCTAssertEqual(HTTPHeaders(headers.dictionary).sorted(), headers.sorted())
    }

    func testCollectionConformance() {
        let headers: HTTPHeaders = [.accept("a"), .userAgent("u"), .contentType("c")]
        XCTAssertEqual(headers.startIndex, 0)
        XCTAssertEqual(headers.endIndex, 3)
        XCTAssertEqual(headers[1], HTTPHeader(name: "User-Agent", value: "u"))
        XCTAssertEqual(headers.index(after: 1), 2)
        XCTAssertEqual(headers.first, .accept("a"))
        XCTAssertEqual(headers.firstIndex(of: .contentType("c")), 2)
        XCTAssertFalse(headers.isEmpty)
        XCTAssertTrue(HTTPHeaders().isEmpty)

        var names: [String] = []
        for header in headers { names.append(header.name) }
        XCTAssertEqual(names, ["Accept", "User-Agent", "Content-Type"])
    }

    func testEqualityAndHashingDependOnOrder() {
        let ab: HTTPHeaders = ["a": "1", "b": "2"]
        let ba: HTTPHeaders = ["b": "2", "a": "1"]
        XCTAssertNotEqual(ab, ba)
        XCTAssertEqual(ab, HTTPHeaders([HTTPHeader(name: "a", value: "1"), HTTPHeader(name: "b", value: "2")]))
        XCTAssertEqual(ab.hashValue, HTTPHeaders(["a": "1"]).merged(with: ["b": "2"]).hashValue)
        XCTAssertNotEqual(HTTPHeaders(["a": "1"]), HTTPHeaders(["A": "1"]), "the name's spelling is part of the value")
        XCTAssertEqual(Set([ab, ba, ab]).count, 2)
    }

    // MARK: HTTPHeader constructors

    func testHeaderConstructorsUseTheStandardNames() {
        let cases: [(HTTPHeader, String, String)] = [
            (.accept("application/json"), "Accept", "application/json"),
            (.acceptCharset("utf-8"), "Accept-Charset", "utf-8"),
            (.acceptLanguage("en;q=1.0"), "Accept-Language", "en;q=1.0"),
            (.acceptEncoding("gzip"), "Accept-Encoding", "gzip"),
            (.authorization("Custom abc"), "Authorization", "Custom abc"),
            (.authorization(bearerToken: "123456"), "Authorization", "Bearer 123456"),
            (.contentDisposition("attachment"), "Content-Disposition", "attachment"),
            (.contentEncoding("br"), "Content-Encoding", "br"),
            (.contentType("text/plain"), "Content-Type", "text/plain"),
            (.userAgent("Salvo Tests"), "User-Agent", "Salvo Tests"),
            (.websocketProtocol("chat"), "Sec-WebSocket-Protocol", "chat"),
        ]
        for (header, name, value) in cases {
            XCTAssertEqual(header.name, name)
            XCTAssertEqual(header.value, value)
            XCTAssertEqual(header, HTTPHeader(name: name, value: value))
        }
    }

    func testBasicAuthorizationIsBase64OfUserColonPassword() {
        XCTAssertEqual(HTTPHeader.authorization(username: "user", password: "password").value, "Basic dXNlcjpwYXNzd29yZA==")
        XCTAssertEqual(HTTPHeader.authorization(username: "Aladdin", password: "open sesame").value, "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        XCTAssertEqual(HTTPHeader.authorization(username: "", password: "").value, "Basic Og==")
        XCTAssertEqual(HTTPHeader.authorization(username: "a:b", password: "c").value, "Basic YTpiOmM=")
        // UTF-8 bytes: "ü" is C3 BC, "ß" is C3 9F.
        XCTAssertEqual(HTTPHeader.authorization(username: "ü", password: "ß").value, "Basic w7w6w58=")
        XCTAssertEqual(HTTPHeader.authorization(username: "u", password: "p").name, "Authorization")
        XCTAssertEqual(HTTPHeader.authorization(bearerToken: "").value, "Bearer ")
    }

    // MARK: Defaults

    func testDefaultHeadersAreEncodingLanguageAndAgentInThatOrder() {
        XCTAssertEqual(HTTPHeaders.default.map(\.name), ["Accept-Encoding", "Accept-Language", "User-Agent"])
        XCTAssertEqual(Array(HTTPHeaders.default), [.defaultAcceptEncoding, .defaultAcceptLanguage, .defaultUserAgent])
    }

    func testDefaultAcceptEncodingListsWhatLibcurlDecodes() {
        let curl = CurlVersion.current
        let expected: String
        switch (curl.brotli, curl.libz, curl.zstd) {
        case (true, true, true): expected = "br;q=1.0, gzip;q=0.9, deflate;q=0.8, zstd;q=0.7"
        case (true, true, false): expected = "br;q=1.0, gzip;q=0.9, deflate;q=0.8"
        case (false, true, true): expected = "gzip;q=1.0, deflate;q=0.9, zstd;q=0.8"
        case (false, true, false): expected = "gzip;q=1.0, deflate;q=0.9"
        case (true, false, true): expected = "br;q=1.0, zstd;q=0.9"
        case (true, false, false): expected = "br;q=1.0"
        case (false, false, true): expected = "zstd;q=1.0"
        case (false, false, false): expected = ""
        }
        XCTAssertEqual(HTTPHeader.defaultAcceptEncoding, HTTPHeader(name: "Accept-Encoding", value: expected))
        // Debian 12's libcurl has all three; Alamofire's own default is the first three.
        XCTAssertTrue(HTTPHeader.defaultAcceptEncoding.value.hasPrefix("br;q=1.0, gzip;q=0.9, deflate;q=0.8"))
    }

    func testDefaultAcceptLanguageWeighsUpToSixPreferredLanguages() {
        let weights = ["1.0", "0.9", "0.8", "0.7", "0.6", "0.5"]
        let languages = Locale.preferredLanguages.prefix(6)
        let expected = zip(languages, weights).map { "\($0);q=\($1)" }.joined(separator: ", ")
        XCTAssertEqual(HTTPHeader.defaultAcceptLanguage, HTTPHeader(name: "Accept-Language", value: expected))
        XCTAssertFalse(expected.isEmpty)
    }

    func testDefaultUserAgentNamesTheProcessTheSystemAndSalvo() {
        let process = ProcessInfo.processInfo.processName
        let os = ProcessInfo.processInfo.operatingSystemVersion
        let expected = "\(process)/Unknown (\(process); build:Unknown; Linux \(os.majorVersion).\(os.minorVersion).\(os.patchVersion))"
            + " Salvo/\(SalvoInfo.version)"
        XCTAssertEqual(HTTPHeader.defaultUserAgent, HTTPHeader(name: "User-Agent", value: expected))
        XCTAssertTrue(HTTPHeader.defaultUserAgent.value.hasSuffix(") Salvo/0.1.0"))
    }

    // MARK: Foundation types

    func testURLRequestHeadersAccessor() throws {
        var request = URLRequest(url: try XCTUnwrap(URL(string: "https://example.com")))
        XCTAssertEqual(request.headers, HTTPHeaders())
        XCTAssertNil(request.allHTTPHeaderFields)

        request.headers = [.accept("a"), .contentType("b")]
        XCTAssertEqual(request.allHTTPHeaderFields, ["Accept": "a", "Content-Type": "b"])
        XCTAssertEqual(request.value(forHTTPHeaderField: "content-type"), "b")
        XCTAssertEqual(request.headers.sorted(), [.accept("a"), .contentType("b")])

        request.headers.update(.accept("c"))
        XCTAssertEqual(request.allHTTPHeaderFields, ["Accept": "c", "Content-Type": "b"])

        request.headers.remove(name: "ACCEPT")
        XCTAssertEqual(request.allHTTPHeaderFields, ["Content-Type": "b"])

        request.headers = HTTPHeaders()
        XCTAssertEqual(request.allHTTPHeaderFields, [:])
        XCTAssertTrue(request.headers.isEmpty)
    }

    func testHTTPURLResponseHeadersAccessor() throws {
        let url = try XCTUnwrap(URL(string: "https://example.com"))
        let response = try XCTUnwrap(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                                                     headerFields: ["Content-Type": "text/plain", "X-Count": "3"]))
        XCTAssertEqual(response.headers.sorted(), [.contentType("text/plain"), HTTPHeader(name: "X-Count", value: "3")])
        XCTAssertEqual(response.headers["content-type"], "text/plain")

        let bare = try XCTUnwrap(HTTPURLResponse(url: url, statusCode: 204, httpVersion: nil, headerFields: nil))
        XCTAssertTrue(bare.headers.isEmpty)
    }

    func testHeadersCrossConcurrencyDomains() async {
        let headers: HTTPHeaders = [.authorization(bearerToken: "t")]
        let copy = await Task.detached { headers }.value
        XCTAssertEqual(copy.description, "Authorization: Bearer t")
    }
}

private extension HTTPHeaders {
    func merged(with other: HTTPHeaders) -> HTTPHeaders {
        var result = self
        for header in other { result.update(header) }
        return result
    }
}
