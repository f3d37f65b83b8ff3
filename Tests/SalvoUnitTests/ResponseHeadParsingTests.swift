import XCTest
@testable import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The response head's header lines, parsed from the bytes libcurl collected into the
/// dictionary Foundation's `HTTPURLResponse` takes, and one header found without it.
final class ResponseHeadParsingTests: XCTestCase {
    private func head(_ text: String, status: Int = 200, url: String = "http://example.test/a") -> ResponseHead {
        ResponseHead(statusCode: status, httpVersion: "1.1", url: url, contentType: nil, redirectURL: nil, rawHeaders: Array(text.utf8))
    }

    func testFieldsAreTrimmedOfSpacesAndTabsAndKeepTheirSpelling() {
        let fields = head("HTTP/1.1 200 OK\r\nContent-Type:  text/plain \r\nX-Tab:\tvalue\t\r\nETag: \"abc\"\r\n\r\n").headerFields
        XCTAssertEqual(fields, ["Content-Type": "text/plain", "X-Tab": "value", "ETag": "\"abc\""])
    }

    func testARepeatedNameIsJoinedUnderItsFirstSpellingIgnoringCase() {
        let fields = head("HTTP/1.1 200 OK\r\nVary: Accept\r\nvary: Origin\r\nVARY: Cookie\r\n\r\n").headerFields
        XCTAssertEqual(fields, ["Vary": "Accept, Origin, Cookie"])
    }

    /// Past a few dozen names the repeated ones are found through a dictionary: the same
    /// result as for a short head.
    func testManyHeadersStillJoinRepeatedNames() {
        var text = "HTTP/1.1 200 OK\r\nVary: Accept\r\n"
        for index in 0..<100 { text += "X-Field-\(index): \(index)\r\n" }
        text += "vary: Origin\r\nX-FIELD-7: again\r\n\r\n"
        let fields = head(text).headerFields
        XCTAssertEqual(fields.count, 101)
        XCTAssertEqual(fields["Vary"], "Accept, Origin")
        XCTAssertEqual(fields["X-Field-7"], "7, again")
        XCTAssertEqual(fields["X-Field-99"], "99")
    }

    /// Names are compared as the dictionary's keys are: decoded (invalid UTF-8 repaired),
    /// ignoring ASCII case only; one header is found under the same rule.
    func testNonASCIIAndInvalidNamesAreComparedAsDecoded() {
        var raw = Array("HTTP/1.1 200 OK\r\nX-\u{C9}t\u{E9}: 1\r\nx-\u{C9}T\u{E9}: 2\r\nx-\u{E9}t\u{E9}: 3\r\n".utf8)
        raw += [0x41, 0xFF, 0x3A, 0x20, 0x34, 0x0D, 0x0A, 0x61, 0xFE, 0x3A, 0x20, 0x35, 0x0D, 0x0A, 0x0D, 0x0A]
        let response = ResponseHead(statusCode: 200, httpVersion: "1.1", url: "http://example.test/a", contentType: nil,
                                    redirectURL: nil, rawHeaders: raw)
        let fields = response.headerFields
        XCTAssertEqual(fields["X-\u{C9}t\u{E9}"], "1, 2", "ASCII case folds, the accented letters do not")
        XCTAssertEqual(fields["x-\u{E9}t\u{E9}"], "3")
        XCTAssertEqual(fields["A\u{FFFD}"], "4, 5", "two invalid bytes repair to the same name")
        XCTAssertEqual(fields.count, 3)
        XCTAssertEqual(response.value(forHeader: "x-\u{C9}T\u{E9}"), "1, 2")
        XCTAssertEqual(response.value(forHeader: "a\u{FFFD}"), "4, 5")
    }

    func testStatusLineLinesWithoutAColonAndEmptyNamesAreSkipped() {
        let fields = head("HTTP/1.1 200 OK\r\nno colon here\r\n: nameless\r\nX-Empty:\r\nX-Ok: 1\r\n\r\n").headerFields
        XCTAssertEqual(fields, ["X-Empty": "", "X-Ok": "1"])
    }

    func testBareLineFeedsAndCarriageReturnsEndLinesToo() {
        let fields = head("HTTP/1.1 200 OK\nA: 1\rB: 2\r\n\nC: 3\n").headerFields
        XCTAssertEqual(fields, ["A": "1", "B": "2", "C": "3"])
    }

    /// A hostile server's 200 KiB of bare CRs before one LF: each ends a line, none holds a
    /// field, and the fields around them are read (in one pass over the block).
    func testABlockOfBareCarriageReturnsEndsOneLineEach() {
        let text = "HTTP/1.1 200 OK\r\nX: 1\r" + String(repeating: "a\r", count: 100_000) + "\nB: 2\r\n\r\n"
        let parsed = head(text)
        XCTAssertEqual(parsed.headerFields, ["X": "1", "B": "2"])
        XCTAssertEqual(parsed.value(forHeader: "b"), "2")
    }

    func testAColonInTheValueStaysInTheValue() {
        XCTAssertEqual(head("HTTP/1.1 301 Moved\r\nLocation: http://example.test:8080/b\r\n\r\n").headerFields,
                       ["Location": "http://example.test:8080/b"])
    }

    func testNonASCIIValuesDecodeAsUTF8() {
        XCTAssertEqual(head("HTTP/1.1 200 OK\r\nX-Name: caf\u{E9} \u{2603}\r\n\r\n").headerFields, ["X-Name": "caf\u{E9} \u{2603}"])
    }

    func testOneValueIsFoundIgnoringCaseAndJoinedWhenRepeated() {
        let response = head("HTTP/1.1 200 OK\r\nContent-Length: 10\r\nSet-Thing: a\r\nset-thing:  b \r\n\r\n")
        XCTAssertEqual(response.value(forHeader: "content-length"), "10")
        XCTAssertEqual(response.value(forHeader: "SET-THING"), "a, b")
        XCTAssertNil(response.value(forHeader: "Content"), "a prefix of a name is not the name")
        XCTAssertNil(response.value(forHeader: "HTTP/1.1 200 OK"))
    }

    /// One value found by name is the value the whole dictionary has under that name, in any
    /// case, for names in and out of the head, ASCII or not.
    func testOneValueAgreesWithTheParsedDictionary() {
        var generator = SystemRandomNumberGenerator()
        let names = ["ETag", "etag", "Content-Length", "X-\u{C9}t\u{E9}", "x-\u{E9}t\u{E9}", "A\u{FFFD}", "Vary", "vary", "B"]
        for _ in 0..<2_000 {
            var text = "HTTP/1.1 200 OK\r\n"
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                text += "\(names.randomElement(using: &generator)!): v\(Int.random(in: 0...9, using: &generator))\r\n"
            }
            var bytes = Array((text + "\r\n").utf8)
            // Now and then a byte that is not UTF-8 in a name.
            if Bool.random(using: &generator), let index = bytes.firstIndex(of: UInt8(ascii: "B")) { bytes[index] = 0xFF }
            let response = ResponseHead(statusCode: 200, httpVersion: "1.1", url: "http://example.test/a", contentType: nil,
                                        redirectURL: nil, rawHeaders: bytes)
            let fields = response.parsedHeaderFields
            for name in names + ["Content", "\u{FFFD}", "missing"] {
                let key = String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
                let expected = fields.first { String(decoding: $0.key.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self) == key }?.value
                XCTAssertEqual(response.value(forHeader: name), expected, "\(name) in \(text)")
            }
        }
    }

    func testTheResponseBuiltForAnAnnouncedHeadIsReusedForTheSameFinalHead() throws {
        let spec = RequestSpec(url: URL(string: "http://example.test/a")!, method: .get, headers: HTTPHeaders())
        let context = ResponseContext(spec: spec, urlRequest: nil)
        let announced = head("HTTP/1.1 200 OK\r\nX-A: 1\r\n\r\n")
        let early = try XCTUnwrap(context.response(for: announced))
        XCTAssertEqual(early.url, spec.url)
        XCTAssertEqual(early.value(forHTTPHeaderField: "x-a"), "1")
        context.complete(head: announced, metrics: TransferMetrics())
        XCTAssertTrue(context.httpResponse === early, "the same head is not built twice")

        let other = ResponseContext(spec: spec, urlRequest: nil)
        _ = other.response(for: announced)
        other.complete(head: head("HTTP/1.1 200 OK\r\nX-A: 2\r\n\r\n"), metrics: TransferMetrics())
        XCTAssertEqual(other.httpResponse?.value(forHTTPHeaderField: "X-A"), "2", "a different final head gets its own response")
    }

    func testAResponseAtAnotherURLParsesThatURL() throws {
        let spec = RequestSpec(url: URL(string: "http://example.test/a")!, method: .get, headers: HTTPHeaders())
        let context = ResponseContext(spec: spec, urlRequest: nil)
        context.complete(head: head("HTTP/1.1 200 OK\r\n\r\n", url: "http://example.test/b"), metrics: TransferMetrics())
        XCTAssertEqual(context.httpResponse?.url?.absoluteString, "http://example.test/b")
    }
}
