@testable import Salvo
import XCTest

final class URLEncodingTests: XCTestCase {
    private let base = URLRequest(url: URL(string: "https://example.com/")!)

    private func request(_ method: HTTPMethod, _ url: String = "https://example.com/") -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.method = method
        return request
    }

    private func query(_ parameters: Parameters, _ encoding: URLEncoding = .default) throws -> String? {
        try encoding.encode(base, with: parameters).url?.query
    }

    private func body(_ request: URLRequest) -> String? {
        request.httpBody.map { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: Nil and empty parameters

    func testNilParametersLeaveTheRequestUntouched() throws {
        for method in [HTTPMethod.get, .post] {
            var original = request(method, "https://example.com/p?x=1")
            original.timeoutInterval = 7
            let encoded = try URLEncoding.default.encode(original, with: nil)
            XCTAssertEqual(encoded, original)
            XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/p?x=1")
            XCTAssertNil(encoded.httpBody)
            XCTAssertNil(encoded.allHTTPHeaderFields)
        }
    }

    func testEmptyParametersLeaveTheURLAlone() throws {
        let encoded = try URLEncoding.default.encode(base, with: [:])
        XCTAssertNil(encoded.url?.query)
        XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/")
        XCTAssertNil(encoded.httpBody)
        XCTAssertNil(encoded.value(forHTTPHeaderField: "Content-Type"))

        let withQuery = try URLEncoding.queryString.encode(request(.post, "https://example.com/?a=1"), with: [:])
        XCTAssertEqual(withQuery.url?.absoluteString, "https://example.com/?a=1")
    }

    func testEmptyParametersStillGiveABodyRequestAnEmptyBodyAndContentType() throws {
        let encoded = try URLEncoding.default.encode(request(.post), with: [:])
        XCTAssertEqual(encoded.httpBody, Data())
        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
        XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/")
    }

    func testParametersThatProduceNoPairsStillSetAnEmptyQuery() throws {
        // Non-empty parameters whose values are empty containers give no pairs: the query
        // becomes empty (or gains a trailing "&"), as Alamofire's string joining does.
        let none: Parameters = ["a": [String](), "b": [String: Int]()]
        XCTAssertEqual(try URLEncoding.default.encode(base, with: none).url?.absoluteString, "https://example.com/?")
        XCTAssertEqual(try URLEncoding.default.encode(request(.get, "https://example.com/?x=1"), with: none).url?.absoluteString,
                       "https://example.com/?x=1&")
        XCTAssertEqual(body(try URLEncoding.httpBody.encode(base, with: none)), "")
    }

    // MARK: Value types

    func testScalarValues() throws {
        XCTAssertEqual(try query(["foo": "bar"]), "foo=bar")
        XCTAssertEqual(try query(["foo": "bar", "baz": "qux"]), "baz=qux&foo=bar")
        XCTAssertEqual(try query(["foo": 1]), "foo=1")
        XCTAssertEqual(try query(["foo": -42]), "foo=-42")
        XCTAssertEqual(try query(["foo": Int.max]), "foo=9223372036854775807")
        XCTAssertEqual(try query(["foo": Int.min]), "foo=-9223372036854775808")
        XCTAssertEqual(try query(["foo": UInt64.max]), "foo=18446744073709551615")
        XCTAssertEqual(try query(["foo": Int8(5)]), "foo=5")
        XCTAssertEqual(try query(["foo": UInt8(200)]), "foo=200")
        XCTAssertEqual(try query(["foo": 1.1]), "foo=1.1")
        XCTAssertEqual(try query(["foo": 0.1 + 0.2]), "foo=0.30000000000000004")
        XCTAssertEqual(try query(["foo": 1e16]), "foo=1e%2B16")
        XCTAssertEqual(try query(["foo": Float(0.1)]), "foo=0.1")
        XCTAssertEqual(try query(["foo": true]), "foo=1")
        XCTAssertEqual(try query(["foo": false]), "foo=0")
        XCTAssertEqual(try query(["foo": ""]), "foo=")
        XCTAssertEqual(try query(["": "bar"]), "=bar")
    }

    func testWholeDoublesAreWrittenTheWayNSNumberDescribesThem() throws {
        // Alamofire formats non-Bool numbers with "\(NSNumber)", which on Linux keeps ".0".
        XCTAssertEqual(try query(["foo": 1.0]), "foo=\(NSNumber(value: 1.0))")
        XCTAssertEqual(try query(["foo": 1.0]), "foo=1.0")
        XCTAssertEqual(try query(["foo": -0.0]), "foo=-0.0")
    }

    func testNSNumberValues() throws {
        XCTAssertEqual(try query(["foo": NSNumber(value: 25)]), "foo=25")
        XCTAssertEqual(try query(["foo": NSNumber(value: false)]), "foo=0")
        XCTAssertEqual(try query(["foo": NSNumber(value: true)]), "foo=1")
        XCTAssertEqual(try query(["foo": NSNumber(value: 2.5)]), "foo=2.5")
        XCTAssertEqual(try query(["foo": NSNumber(value: 2.0)]), "foo=2.0")
        XCTAssertEqual(try query(["foo": NSNumber(value: Int8(3))]), "foo=3")
    }

    func testNegativeInt8IsMistakenForABoolAsInAlamofire() throws {
        // Alamofire recognises a Bool by the NSNumber's objCType "c", which Foundation on
        // Linux also gives a bridged negative Int8; Salvo keeps the same output.
        XCTAssertEqual(String(cString: (Int8(-5) as Any as! NSNumber).objCType), "c")
        XCTAssertEqual(try query(["foo": Int8(-5)]), "foo=1")
        XCTAssertEqual(try query(["foo": Int8(-5)], URLEncoding(boolEncoding: .literal)), "foo=true")
    }

    func testLiteralBoolEncodingLeavesNumbersAlone() throws {
        let parameters: Parameters = [
            "a": 1, "b": 0, "c": 1.0, "d": 0.0,
            "e": NSNumber(value: 1), "f": NSNumber(value: 0), "g": NSNumber(value: 1.0), "h": NSNumber(value: 0.0),
            "i": true, "j": false, "k": NSNumber(value: true), "l": NSNumber(value: false),
        ]
        XCTAssertEqual(try query(parameters, URLEncoding(boolEncoding: .literal)),
                       "a=1&b=0&c=1.0&d=0.0&e=1&f=0&g=1.0&h=0.0&i=true&j=false&k=true&l=false")
        XCTAssertEqual(try query(parameters, URLEncoding(boolEncoding: .numeric)),
                       "a=1&b=0&c=1.0&d=0.0&e=1&f=0&g=1.0&h=0.0&i=1&j=0&k=1&l=0")
    }

    func testOtherValuesUseTheirDescription() throws {
        XCTAssertEqual(try query(["u": URL(string: "https://x.com/a?b")!]), "u=https%3A//x.com/a?b")
        XCTAssertEqual(try query(["c": Described(text: "a b&c")]), "c=a%20b%26c")
        XCTAssertEqual(try query(["s": Substring("sub")]), "s=sub")
        XCTAssertEqual(try query(["ch": Character("é")]), "ch=%C3%A9")
        XCTAssertEqual(try query(["n": NSNull()]), "n=%3Cnull%3E")
        // Foundation traps describing a NaN date (found by fuzzing); it is written as an
        // infinite one is.
        XCTAssertEqual(try query(["d": Date(timeIntervalSinceReferenceDate: .nan)]), "d=%3Cdescription%20unavailable%3E")
        XCTAssertEqual(try query(["d": Date(timeIntervalSinceReferenceDate: .infinity)]), "d=%3Cdescription%20unavailable%3E")
    }

    func testOptionalValuesAreWrittenAsAlamofireWritesThem() throws {
        // Wrapped numbers and Bools bridge to NSNumber; anything else is "\(value)".
        XCTAssertEqual(try query(["o": Int?.some(5)]), "o=5")
        XCTAssertEqual(try query(["o": Bool?.some(true)]), "o=1")
        XCTAssertEqual(try query(["o": Int?.none]), "o=nil")
        XCTAssertEqual(try query(["o": String?.some("x")]), "o=Optional%28%22x%22%29")
        XCTAssertEqual(try query(["o": [String: Int]?.some(["k": 1])]), "o%5Bk%5D=1")
    }

    // MARK: Collections

    func testArraysUseBracketsByDefault() throws {
        XCTAssertEqual(try query(["foo": ["a", 1, true] as [any Sendable]]), "foo%5B%5D=a&foo%5B%5D=1&foo%5B%5D=1")
        XCTAssertEqual(try query(["foo": [String]()]), "")
        XCTAssertEqual(try query(["foo": [[1, 2], [3]]]), "foo%5B%5D%5B%5D=1&foo%5B%5D%5B%5D=2&foo%5B%5D%5B%5D=3")
    }

    func testArrayEncodingWithoutBrackets() throws {
        let encoding = URLEncoding(arrayEncoding: .noBrackets)
        XCTAssertEqual(try query(["foo": ["a", 1, true] as [any Sendable]], encoding), "foo=a&foo=1&foo=1")
        XCTAssertEqual(try query(["foo": ["bar": ["baz": ["a", 1, true] as [any Sendable]]]], encoding),
                       "foo%5Bbar%5D%5Bbaz%5D=a&foo%5Bbar%5D%5Bbaz%5D=1&foo%5Bbar%5D%5Bbaz%5D=1")
    }

    func testArrayEncodingWithIndexInBrackets() throws {
        let encoding = URLEncoding(arrayEncoding: .indexInBrackets)
        let parameters: Parameters = ["foo": ["a", 1, true, ["bar": 2], ["qux": 3], ["quy": ["quz": 3]]] as [any Sendable]]
        XCTAssertEqual(try query(parameters, encoding),
                       "foo%5B0%5D=a&foo%5B1%5D=1&foo%5B2%5D=1&foo%5B3%5D%5Bbar%5D=2&foo%5B4%5D%5Bqux%5D=3&foo%5B5%5D%5Bquy%5D%5Bquz%5D=3")
        XCTAssertEqual(try query(["m": [["x", "y"], ["z"]]], encoding),
                       "m%5B0%5D%5B0%5D=x&m%5B0%5D%5B1%5D=y&m%5B1%5D%5B0%5D=z")
    }

    func testArrayEncodingWithACustomClosure() throws {
        let encoding = URLEncoding(arrayEncoding: .custom { key, index in "\(key).\(index + 1)" })
        XCTAssertEqual(try query(["foo": ["a", 1, true] as [any Sendable]], encoding), "foo.1=a&foo.2=1&foo.3=1")

        // The closure's result is escaped like any other name.
        let spaced = URLEncoding(arrayEncoding: .custom { key, index in "\(key) #\(index)" })
        XCTAssertEqual(try query(["k": ["v"]], spaced), "k%20%230=v")
    }

    func testDictionariesNestWithBracketedKeys() throws {
        XCTAssertEqual(try query(["foo": ["bar": 1]]), "foo%5Bbar%5D=1")
        XCTAssertEqual(try query(["foo": ["bar": ["baz": 1]]]), "foo%5Bbar%5D%5Bbaz%5D=1")
        XCTAssertEqual(try query(["foo": ["bar": ["baz": ["a", 1, true] as [any Sendable]]]]),
                       "foo%5Bbar%5D%5Bbaz%5D%5B%5D=a&foo%5Bbar%5D%5Bbaz%5D%5B%5D=1&foo%5Bbar%5D%5Bbaz%5D%5B%5D=1")
        XCTAssertEqual(try query(["list": [["id": 1], ["id": 2]]]), "list%5B%5D%5Bid%5D=1&list%5B%5D%5Bid%5D=2")
    }

    /// The query is written straight into bytes for the common types and through the
    /// general walk for the others: both give what `queryComponents(fromKey:value:)` gives,
    /// also for keys that need escaping and for the other types nested inside common ones.
    func testTheQueryIsWhatTheComponentWalkGives() throws {
        let parameters: Parameters = [
            "plain": "a b&c",
            "ключ": ["ä ö": "ü", "[x]": "%41"],
            "mixed": ["s", 1, 2.5, true, ["k": NSNumber(value: 7)] as [String: any Sendable]] as [any Sendable],
            "ints": [1, 2, 3],
            "doubles": [1.0, 2.25],
            "nested": ["counts": ["a": 1, "b": 2], "when": Date(timeIntervalSinceReferenceDate: 0),
                       "none": String?.none as any Sendable] as [String: any Sendable],
            "flag": false,
            "number": NSNumber(value: 3.5),
        ]
        for encoding in [URLEncoding.default, URLEncoding(arrayEncoding: .noBrackets), URLEncoding(arrayEncoding: .indexInBrackets),
                         URLEncoding(boolEncoding: .literal)] {
            let expected = parameters.keys.sorted()
                .flatMap { encoding.queryComponents(fromKey: $0, value: parameters[$0]!) }
                .map { "\($0.0)=\($0.1)" }
                .joined(separator: "&")
            XCTAssertEqual(try query(parameters, encoding), expected)
        }
    }

    func testNestedDictionaryKeysAreSorted() throws {
        // Alamofire leaves nested keys in dictionary order, which varies between runs; Salvo
        // sorts them, which is one of Alamofire's possible outputs.
        XCTAssertEqual(try query(["p": ["b": 2, "a": 1, "c": 3]]), "p%5Ba%5D=1&p%5Bb%5D=2&p%5Bc%5D=3")
        XCTAssertEqual(try query(["z": 0, "a": ["y": ["n": 1, "m": 2], "x": 3] as [String: any Sendable]]),
                       "a%5Bx%5D=3&a%5By%5D%5Bm%5D=2&a%5By%5D%5Bn%5D=1&z=0")
    }

    func testTopLevelKeysSortByUnicodeScalarsNotLocale() throws {
        XCTAssertEqual(try query(["b": 1, "B": 2, "a": 3, "A": 4, "_": 5, "é": 6, "1": 7]),
                       "1=7&A=4&B=2&_=5&a=3&b=1&%C3%A9=6")
    }

    func testLiteralBoolsInsideCollections() throws {
        let encoding = URLEncoding(arrayEncoding: .indexInBrackets, boolEncoding: .literal)
        XCTAssertEqual(try query(["flags": [true, false], "set": ["on": true]], encoding),
                       "flags%5B0%5D=true&flags%5B1%5D=false&set%5Bon%5D=true")
    }

    // MARK: Escaping

    func testReservedCharactersAreEscapedExceptQuestionMarkAndSlash() throws {
        XCTAssertEqual(try query(["reserved": ":#[]@!$&'()*+,;="]), "reserved=%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D")
        XCTAssertEqual(try query(["reserved": "?/"]), "reserved=?/")
    }

    func testUnreservedCharactersAreKept() throws {
        XCTAssertEqual(try query(["numbers": "0123456789"]), "numbers=0123456789")
        XCTAssertEqual(try query(["lowercase": "abcdefghijklmnopqrstuvwxyz"]), "lowercase=abcdefghijklmnopqrstuvwxyz")
        XCTAssertEqual(try query(["uppercase": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]), "uppercase=ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        XCTAssertEqual(try query(["marks": "-._~"]), "marks=-._~")
    }

    func testIllegalASCIIIsEscaped() throws {
        XCTAssertEqual(try query(["illegal": " \"#%<>[]\\^`{}|"]), "illegal=%20%22%23%25%3C%3E%5B%5D%5C%5E%60%7B%7D%7C")
        XCTAssertEqual(try query(["ctl": "\u{0}\u{1}\t\n\r\u{1F}\u{7F}"]), "ctl=%00%01%09%0A%0D%1F%7F")
    }

    func testSpecialCharactersInKeysAndValues() throws {
        XCTAssertEqual(try query(["foo&bar": "baz&qux", "foobar": "bazqux"]), "foo%26bar=baz%26qux&foobar=bazqux")
        XCTAssertEqual(try query(["?foo?": "?bar?"]), "?foo?=?bar?")
        XCTAssertEqual(try query(["foo": "/bar/baz/qux"]), "foo=/bar/baz/qux")
        XCTAssertEqual(try query([" foo ": " bar "]), "%20foo%20=%20bar%20")
        XCTAssertEqual(try query(["+foo+": "+bar+"]), "%2Bfoo%2B=%2Bbar%2B")
        XCTAssertEqual(try query(["percent": "%25"]), "percent=%2525")
        XCTAssertEqual(try query(["k[x]": "v=w"]), "k%5Bx%5D=v%3Dw")
        XCTAssertEqual(try query(["k": ["in[ner]": "v"]]), "k%5Bin%5Bner%5D%5D=v")
    }

    func testNonLatinCharactersAndEmoji() throws {
        let parameters: Parameters = ["french": "français", "japanese": "日本語", "arabic": "العربية", "emoji": "😃"]
        XCTAssertEqual(try query(parameters), [
            "arabic=%D8%A7%D9%84%D8%B9%D8%B1%D8%A8%D9%8A%D8%A9",
            "emoji=%F0%9F%98%83",
            "french=fran%C3%A7ais",
            "japanese=%E6%97%A5%E6%9C%AC%E8%AA%9E",
        ].joined(separator: "&"))
        XCTAssertEqual(try query(["👨‍👩‍👧": "🇫🇷"]), "%F0%9F%91%A8%E2%80%8D%F0%9F%91%A9%E2%80%8D%F0%9F%91%A7=%F0%9F%87%AB%F0%9F%87%B7")
        XCTAssertEqual(try query(["nfd": "e\u{301}", "nfc": "\u{E9}"]), "nfc=%C3%A9&nfd=e%CC%81")
        XCTAssertEqual(try query(["max": "\u{10FFFF}", "bom": "\u{FEFF}"]), "bom=%EF%BB%BF&max=%F4%8F%BF%BF")
    }

    func testThousandsOfChineseCharacters() throws {
        let repeated = String(repeating: "一二三四五六七八九十", count: 2000)
        let expected = "chinese=" + String(repeating: "%E4%B8%80%E4%BA%8C%E4%B8%89%E5%9B%9B%E4%BA%94%E5%85%AD%E4%B8%83%E5%85%AB%E4%B9%9D%E5%8D%81", count: 2000)
        XCTAssertEqual(try query(["chinese": repeated]), expected)
    }

    // MARK: Existing queries

    func testParametersAreAppendedToAnExistingQuery() throws {
        var components = URLComponents(url: base.url!, resolvingAgainstBaseURL: false)!
        components.query = "baz=qux"
        var existing = base
        existing.url = components.url
        XCTAssertEqual(try URLEncoding.default.encode(existing, with: ["foo": "bar"]).url?.query, "baz=qux&foo=bar")

        let precomposed = request(.get, "https://example.com/movies?hd=[1]")
        XCTAssertEqual(try URLEncoding.default.encode(precomposed, with: ["page": "0"]).url?.query, "hd=%5B1%5D&page=0")
        XCTAssertEqual(try URLEncoding.default.encode(precomposed, with: ["+foo+": "+bar+"]).url?.query, "hd=%5B1%5D&%2Bfoo%2B=%2Bbar%2B")
    }

    func testExistingQueryIsKeptVerbatimAndFragmentSurvives() throws {
        let encoded = try URLEncoding.default.encode(request(.get, "https://example.com/p?q=a%20b&z=1#frag"), with: ["a": "x y"])
        XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/p?q=a%20b&z=1&a=x%20y#frag")

        let emptyQuery = try URLEncoding.default.encode(request(.get, "https://example.com/?"), with: ["a": 1])
        XCTAssertEqual(emptyQuery.url?.absoluteString, "https://example.com/?&a=1")

        let noPath = try URLEncoding.default.encode(request(.get, "https://example.com"), with: ["a": 1])
        XCTAssertEqual(noPath.url?.absoluteString, "https://example.com?a=1")

        let withPort = try URLEncoding.default.encode(request(.get, "http://user@127.0.0.1:8080/x/y"), with: ["b": "c"])
        XCTAssertEqual(withPort.url?.absoluteString, "http://user@127.0.0.1:8080/x/y?b=c")
    }

    // MARK: Destinations

    func testMethodDependentDestination() throws {
        let parameters: Parameters = ["foo": 1, "bar": 2]
        for method in [HTTPMethod.get, .head, .delete] {
            let encoded = try URLEncoding.default.encode(request(method), with: parameters)
            XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/?bar=2&foo=1", method.rawValue)
            XCTAssertNil(encoded.value(forHTTPHeaderField: "Content-Type"), method.rawValue)
            XCTAssertNil(encoded.httpBody, method.rawValue)
            XCTAssertEqual(encoded.httpMethod, method.rawValue)
        }
        for method in [HTTPMethod.post, .put, .patch, .options, .trace, .connect, .query, HTTPMethod(rawValue: "PURGE")] {
            let encoded = try URLEncoding.default.encode(request(method), with: parameters)
            XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/", method.rawValue)
            XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8", method.rawValue)
            XCTAssertEqual(body(encoded), "bar=2&foo=1", method.rawValue)
            XCTAssertEqual(encoded.httpMethod, method.rawValue)
        }
    }

    func testQueryStringDestinationPutsEveryMethodsParametersInTheURL() throws {
        for method in [HTTPMethod.get, .post, .put, HTTPMethod(rawValue: "PURGE")] {
            let encoded = try URLEncoding.queryString.encode(request(method), with: ["foo": 1, "bar": 2])
            XCTAssertEqual(encoded.url?.query, "bar=2&foo=1", method.rawValue)
            XCTAssertNil(encoded.value(forHTTPHeaderField: "Content-Type"), method.rawValue)
            XCTAssertNil(encoded.httpBody, method.rawValue)
        }
    }

    func testHTTPBodyDestinationPutsEveryMethodsParametersInTheBody() throws {
        for method in [HTTPMethod.get, .head, .delete, .post] {
            let encoded = try URLEncoding.httpBody.encode(request(method, "https://example.com/?keep=1"), with: ["foo": 1, "bar": "a b"])
            XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/?keep=1", method.rawValue)
            XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
            XCTAssertEqual(encoded.httpBody, Data("bar=a%20b&foo=1".utf8), method.rawValue)
        }
    }

    func testBodyBytesAreUTF8() throws {
        let encoded = try URLEncoding.httpBody.encode(base, with: ["name": "Zoë 😀", "tags": ["a", "b"]])
        XCTAssertEqual(encoded.httpBody, Data("name=Zo%C3%AB%20%F0%9F%98%80&tags%5B%5D=a&tags%5B%5D=b".utf8))
    }

    func testAnExplicitContentTypeIsKept() throws {
        var custom = request(.post)
        custom.setValue("application/custom-form", forHTTPHeaderField: "Content-Type")
        let encoded = try URLEncoding.default.encode(custom, with: ["foo": "bar"])
        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/custom-form")
        XCTAssertEqual(encoded.allHTTPHeaderFields, ["Content-Type": "application/custom-form"])
        XCTAssertEqual(body(encoded), "foo=bar")

        var lowercase = request(.put)
        lowercase.headers = ["content-type": "text/plain", "X-Other": "1"]
        let kept = try URLEncoding.httpBody.encode(lowercase, with: ["a": 1])
        XCTAssertEqual(kept.value(forHTTPHeaderField: "Content-Type"), "text/plain")
        XCTAssertEqual(kept.headers.count, 2)
        XCTAssertEqual(kept.value(forHTTPHeaderField: "X-Other"), "1")
    }

    func testOtherHeadersAndPropertiesSurviveEncoding() throws {
        var original = request(.post)
        original.headers = [.authorization(bearerToken: "t"), .accept("text/html")]
        original.timeoutInterval = 12
        original.cachePolicy = .reloadIgnoringLocalCacheData
        let encoded = try URLEncoding.default.encode(original, with: ["a": 1])
        XCTAssertEqual(encoded.headers.sorted(), [
            .accept("text/html"), .authorization(bearerToken: "t"), .contentType("application/x-www-form-urlencoded; charset=utf-8"),
        ])
        XCTAssertEqual(encoded.timeoutInterval, 12)
        XCTAssertEqual(encoded.cachePolicy, .reloadIgnoringLocalCacheData)
    }

    func testEncodingReplacesAnExistingBody() throws {
        var original = request(.post)
        original.httpBody = Data("old".utf8)
        XCTAssertEqual(body(try URLEncoding.default.encode(original, with: ["new": 1])), "new=1")
    }

    // MARK: Errors

    func testAQueryDestinationWithoutAURLThrowsMissingURL() throws {
        var noURL = base
        noURL.url = nil
        XCTAssertThrowsError(try URLEncoding.default.encode(noURL, with: ["a": 1])) { error in
            guard case .parameterEncodingFailed(reason: .missingURL)? = error as? AFError else {
                return XCTFail("expected missingURL, got \(error)")
            }
            XCTAssertTrue((error as? AFError)?.isParameterEncodingError == true)
        }
        XCTAssertThrowsError(try URLEncoding.queryString.encode(noURL, with: [:]))

        // Nil parameters return before the URL is looked at. (A body destination needs no URL,
        // but Foundation on Linux traps when a URLRequest without a URL is mutated, so that
        // case cannot be exercised.)
        XCTAssertNoThrow(try URLEncoding.default.encode(noURL, with: nil))
    }

    func testConvertibleErrorsPropagate() {
        XCTAssertThrowsError(try URLEncoding.default.encode(Unbuildable(), with: ["a": 1])) { error in
            XCTAssertEqual(error as? Unbuildable.Failure, .cannotBuild)
        }
        XCTAssertThrowsError(try URLEncoding.default.encode(Unbuildable(), with: nil))
    }

    // MARK: queryComponents and escape

    func testQueryComponentsReturnsEscapedPairs() {
        let encoding = URLEncoding.default
        XCTAssertTrue(encoding.queryComponents(fromKey: "k", value: "v") == [("k", "v")])
        XCTAssertTrue(encoding.queryComponents(fromKey: "a b", value: "c&d") == [("a%20b", "c%26d")])
        XCTAssertTrue(encoding.queryComponents(fromKey: "list", value: [1, 2]) == [("list%5B%5D", "1"), ("list%5B%5D", "2")])
        XCTAssertTrue(encoding.queryComponents(fromKey: "d", value: ["y": true, "x": ["z"]])
            == [("d%5Bx%5D%5B%5D", "z"), ("d%5By%5D", "1")])
        XCTAssertTrue(encoding.queryComponents(fromKey: "e", value: [Int]()).isEmpty)
        XCTAssertTrue(URLEncoding(arrayEncoding: .noBrackets, boolEncoding: .literal)
            .queryComponents(fromKey: "b", value: [false, NSNumber(value: true)]) == [("b", "false"), ("b", "true")])
        XCTAssertTrue(encoding.queryComponents(fromKey: "n", value: NSNumber(value: 3.5)) == [("n", "3.5")])
        XCTAssertTrue(encoding.queryComponents(fromKey: "é", value: "😀") == [("%C3%A9", "%F0%9F%98%80")])
    }

    func testEscape() {
        let encoding = URLEncoding.default
        XCTAssertEqual(encoding.escape(""), "")
        XCTAssertEqual(encoding.escape("a b&c=d"), "a%20b%26c%3Dd")
        XCTAssertEqual(encoding.escape(":#[]@!$&'()*+,;="), "%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D")
        XCTAssertEqual(encoding.escape("-._~/?"), "-._~/?")
        XCTAssertEqual(encoding.escape("%"), "%25")
        XCTAssertEqual(encoding.escape("é😀"), "%C3%A9%F0%9F%98%80")
    }

    func testEscapeLeavesExactlyLettersDigitsAndDashDotUnderscoreTildeSlashQuestionMark() {
        var kept = ""
        for byte in UInt8(0)..<128 {
            let character = String(UnicodeScalar(byte))
            if URLEncoding.default.escape(character) == character {
                kept += character
            } else {
                XCTAssertEqual(URLEncoding.default.escape(character), String(format: "%%%02X", byte))
            }
        }
        XCTAssertEqual(kept, "-./0123456789?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~")
    }

    /// `escape` must give what Alamofire's `addingPercentEncoding(withAllowedCharacters:)`
    /// gives, for every Unicode scalar.
    func testEscapeMatchesFoundationForEveryScalar() {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: ":#[]@!$&'()*+,;=")
        var chunk = ""
        var mismatches: [UInt32] = []
        func flush() {
            if URLEncoding.default.escape(chunk) != chunk.addingPercentEncoding(withAllowedCharacters: allowed) {
                for scalar in chunk.unicodeScalars
                where URLEncoding.default.escape(String(scalar)) != String(scalar).addingPercentEncoding(withAllowedCharacters: allowed) {
                    mismatches.append(scalar.value)
                }
            }
            chunk = ""
        }
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            chunk.unicodeScalars.append(scalar)
            if chunk.utf8.count > 4096 { flush() }
        }
        flush()
        XCTAssertEqual(mismatches.prefix(10), [], "\(mismatches.count) scalars differ")
    }

    /// The escaper behind `escape` (and available to the form encoders) with other allowed
    /// sets: Foundation on Linux keeps allowed ASCII and escapes every non-ASCII byte, even
    /// when the set contains the character.
    func testPercentEscaperWithOtherSetsMatchesFoundation() {
        var custom = CharacterSet(charactersIn: "aé😀 ")
        custom.insert(charactersIn: "\u{10FFFF}")
        // Not .urlPathAllowed or .urlHostAllowed: Foundation recognises those two sets and
        // escapes ":" (and "[", "]" outside an IP literal) although they are members;
        // PercentEscaper follows the set's membership.
        let sets: [CharacterSet] = [.alphanumerics, .letters, .urlFragmentAllowed, .urlQueryAllowed, .urlUserAllowed,
                                    .urlPasswordAllowed, .whitespaces, .afURLQueryAllowed, custom, CharacterSet()]
        let samples = ["", "plain", "a b+c&d=e/f?g#h", "é", "Zoë 😀 日本語", "e\u{301}", "\u{10FFFF}\u{0}\u{7F}", "%41%",
                       String((0..<128).map { Character(UnicodeScalar(UInt8($0))) }), "ÀÉÎÕÜ ß ñ ç ø"]
        for set in sets {
            let escaper = PercentEscaper(allowedCharacters: set)
            for sample in samples {
                XCTAssertEqual(escaper.escape(sample), sample.addingPercentEncoding(withAllowedCharacters: set), sample.debugDescription)
            }
        }
        XCTAssertEqual(PercentEscaper(allowedCharacters: .alphanumerics).escape("Zoë"), "Zo%C3%AB")
        XCTAssertEqual(PercentEscaper(allowedCharacters: custom).escape("aé😀 b"), "a%C3%A9%F0%9F%98%80 %62")
    }

    func testPercentEscaperPlusForSpace() {
        var bytes: [UInt8] = []
        PercentEscaper.query.append("a b+c", to: &bytes, plusForSpace: true)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "a+b%2Bc")

        bytes = Array("prefix=".utf8)
        PercentEscaper.query.append("é é", to: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "prefix=%C3%A9%20%C3%A9")
    }

    func testDestinationsOfTheNamedEncodings() {
        XCTAssertEqual(URLEncoding.default.destination, .methodDependent)
        XCTAssertEqual(URLEncoding.queryString.destination, .queryString)
        XCTAssertEqual(URLEncoding.httpBody.destination, .httpBody)
        XCTAssertEqual(URLEncoding().destination, .methodDependent)
        XCTAssertEqual(URLEncoding.default.boolEncoding, .numeric)
        guard case .brackets = URLEncoding.default.arrayEncoding else {
            return XCTFail("default array encoding should be brackets")
        }
    }

    func testUsableThroughTheProtocol() throws {
        let encodings: [any ParameterEncoding] = [URLEncoding.default, URLEncoding.queryString, URLEncoding.httpBody]
        let results = try encodings.map { try $0.encode(request(.post), with: ["k": "v"]) }
        XCTAssertEqual(results.map { $0.url?.absoluteString }, ["https://example.com/", "https://example.com/?k=v", "https://example.com/"])
        XCTAssertEqual(results.map(body), ["k=v", nil, "k=v"])
    }
}

// MARK: - Helpers

private struct Described: CustomStringConvertible, Sendable {
    let text: String
    var description: String { text }
}

private struct Unbuildable: URLRequestConvertible {
    enum Failure: Error, Equatable { case cannotBuild }
    func asURLRequest() throws -> URLRequest { throw Failure.cannotBuild }
}

private func == (lhs: [(String, String)], rhs: [(String, String)]) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0 == $1 }
}
