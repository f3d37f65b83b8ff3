@testable import Salvo
import XCTest
import SalvoTestSupport

final class JSONEncodingTests: XCTestCase {
    private let base = URLRequest(url: URL(string: "https://example.com/")!)

    private func body(_ request: URLRequest) -> String? {
        request.httpBody.map { String(decoding: $0, as: UTF8.self) }
    }

    private func assertJSONEncodingFailed(_ expression: @autoclosure () throws -> URLRequest,
                                          file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard case let .parameterEncodingFailed(reason: .jsonEncodingFailed(error: underlying))? = error as? AFError else {
                return XCTFail("expected jsonEncodingFailed, got \(error)", file: file, line: line)
            }
            XCTAssertEqual(underlying as? JSONEncoding.Error, .invalidJSONObject, file: file, line: line)
            XCTAssertTrue((error as? AFError)?.isParameterEncodingError == true, file: file, line: line)
        }
    }

    // MARK: Nil and empty

    func testNilParametersLeaveTheRequestUntouched() throws {
        let encoded = try JSONEncoding.default.encode(base, with: nil)
        XCTAssertEqual(encoded, base)
        XCTAssertNil(encoded.url?.query)
        XCTAssertNil(encoded.value(forHTTPHeaderField: "Content-Type"))
        XCTAssertNil(encoded.httpBody)

        XCTAssertEqual(try JSONEncoding.default.encode(base, withJSONObject: nil), base)
        XCTAssertEqual(try JSONEncoding.default.encode(base), base)
    }

    func testEmptyParametersGiveAnEmptyObject() throws {
        let encoded = try JSONEncoding.default.encode(base, with: [:])
        XCTAssertEqual(body(encoded), "{}")
        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(body(try JSONEncoding.prettyPrinted.encode(base, with: [:])), "{\n\n}")
        XCTAssertEqual(body(try JSONEncoding.default.encode(base, withJSONObject: [Any]())), "[]")
        XCTAssertEqual(body(try JSONEncoding.prettyPrinted.encode(base, withJSONObject: [Any]())), "[\n\n]")
    }

    // MARK: Output

    func testCompactAndPrettyOutput() throws {
        XCTAssertEqual(body(try JSONEncoding.default.encode(base, with: ["foo": "bar"])), #"{"foo":"bar"}"#)
        XCTAssertEqual(body(try JSONEncoding.prettyPrinted.encode(base, with: ["foo": "bar"])), "{\n  \"foo\" : \"bar\"\n}")

        let nested: Parameters = ["a": [1, ["b": [true, NSNull()] as [any Sendable]], [String: Int](), [Int]()] as [any Sendable]]
        XCTAssertEqual(body(try JSONEncoding.default.encode(base, with: nested)), #"{"a":[1,{"b":[true,null]},{},[]]}"#)
        XCTAssertEqual(body(try JSONEncoding.prettyPrinted.encode(base, with: nested)), """
        {
          "a" : [
            1,
            {
              "b" : [
                true,
                null
              ]
            },
            {

            },
            [

            ]
          ]
        }
        """)
    }

    func testScalarsAreWrittenAsJSONSerializationWritesThem() throws {
        let cases: [(any Sendable, String)] = [
            ("text", #""text""#), (42, "42"), (-7, "-7"), (Int.max, "9223372036854775807"), (Int64.min, "-9223372036854775808"),
            (UInt64.max, "18446744073709551615"), (1.5, "1.5"), (1.0, "1"), (-0.0, "-0"), (0.1, "0.1"), (1e16, "1e+16"),
            (1e-7, "1e-07"), (Float(0.1), "0.1"), (true, "true"), (false, "false"), (NSNull(), "null"),
            (NSNumber(value: 1), "1"), (NSNumber(value: 0), "0"), (NSNumber(value: true), "true"), (NSNumber(value: 2.0), "2"),
            (NSNumber(value: Float(0.1)), "0.1"), (Int?.none, "null"), (Int?.some(3), "3"), (String?.some("s"), #""s""#),
        ]
        for (value, expected) in cases {
            XCTAssertEqual(body(try JSONEncoding.default.encode(base, with: ["k": value])), "{\"k\":\(expected)}", "\(value)")
        }
    }

    func testStringEscaping() throws {
        let cases: [(String, String)] = [
            ("quote\"backslash\\slash/", #""quote\"backslash\\slash\/""#),
            ("\u{8}\u{C}\n\r\t", #""\b\f\n\r\t""#),
            ("\u{0}\u{1}\u{1F}\u{7F}", #""\u0000\u0001\u001f\#u{7F}""#),
            ("é日本😀", "\"é日本😀\""),
            ("\u{2028}\u{2029}", "\"\u{2028}\u{2029}\""),
        ]
        for (string, expected) in cases {
            XCTAssertEqual(body(try JSONEncoding.default.encode(base, withJSONObject: [string])), "[\(expected)]")
        }
    }

    func testWithoutEscapingSlashes() throws {
        let parameters: Parameters = ["url": "https://example.com/a/b"]
        XCTAssertEqual(body(try JSONEncoding.default.encode(base, with: parameters)), #"{"url":"https:\/\/example.com\/a\/b"}"#)
        XCTAssertEqual(body(try JSONEncoding(options: .withoutEscapingSlashes).encode(base, with: parameters)),
                       #"{"url":"https://example.com/a/b"}"#)
        XCTAssertEqual(body(try JSONEncoding(options: [.withoutEscapingSlashes, .prettyPrinted]).encode(base, with: parameters)),
                       "{\n  \"url\" : \"https://example.com/a/b\"\n}")
    }

    func testSortedKeysGoesThroughJSONSerialization() throws {
        let parameters: Parameters = ["c": 3, "a": 1, "b": ["z": 0, "y": NSNumber(value: 1.5)]]
        XCTAssertEqual(body(try JSONEncoding(options: .sortedKeys).encode(base, with: parameters)), #"{"a":1,"b":{"y":1.5,"z":0},"c":3}"#)
        XCTAssertEqual(body(try JSONEncoding(options: [.sortedKeys, .prettyPrinted]).encode(base, with: ["b": 1, "a": [2]])),
                       "{\n  \"a\" : [\n    2\n  ],\n  \"b\" : 1\n}")
    }

    func testComplexParametersRoundTrip() throws {
        let parameters: Parameters = ["foo": "bar", "baz": ["a", 1, true] as [any Sendable], "qux": ["a": 1, "b": [2, 2], "c": [3, 3, 3]] as [String: any Sendable]]
        let encoded = try JSONEncoding.default.encode(base, with: parameters)
        XCTAssertNil(encoded.url?.query)
        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/json")
        let decoded = try JSONSerialization.jsonObject(with: XCTUnwrap(encoded.httpBody)) as? NSDictionary
        XCTAssertEqual(decoded, parameters as NSDictionary)
    }

    func testWithJSONObjectArray() throws {
        let encoded = try JSONEncoding.default.encode(base, withJSONObject: ["foo", "bar", "baz"])
        XCTAssertEqual(body(encoded), #"["foo","bar","baz"]"#)
        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertNil(encoded.url?.query)
        XCTAssertEqual(body(try JSONEncoding.prettyPrinted.encode(base, withJSONObject: ["foo", "bar"])), "[\n  \"foo\",\n  \"bar\"\n]")
        XCTAssertEqual(body(try JSONEncoding.default.encode(base, withJSONObject: ["k": [1, 2]])), #"{"k":[1,2]}"#)
        XCTAssertEqual(body(try JSONEncoding.default.encode(base, withJSONObject: NSArray(array: [1, "a"]))), #"[1,"a"]"#)
    }

    func testTheBodyGoesIntoEveryMethodAndTheURLIsUntouched() throws {
        for method in [HTTPMethod.get, .post, .put, .patch, .delete, HTTPMethod(rawValue: "PURGE")] {
            var request = URLRequest(url: URL(string: "https://example.com/p?x=1")!)
            request.method = method
            let encoded = try JSONEncoding.default.encode(request, with: ["a": 1])
            XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/p?x=1")
            XCTAssertEqual(body(encoded), #"{"a":1}"#)
            XCTAssertEqual(encoded.httpMethod, method.rawValue)
        }
    }

    // MARK: Content-Type

    func testAnExplicitContentTypeIsKept() throws {
        var custom = base
        custom.setValue("application/custom-json-type+json", forHTTPHeaderField: "Content-Type")
        XCTAssertEqual(try JSONEncoding.default.encode(custom, with: ["foo": "bar"]).value(forHTTPHeaderField: "Content-Type"),
                       "application/custom-json-type+json")
        XCTAssertEqual(try JSONEncoding.default.encode(custom, withJSONObject: [1]).value(forHTTPHeaderField: "Content-Type"),
                       "application/custom-json-type+json")

        var lowercase = base
        lowercase.headers = ["content-type": "text/json", "Accept": "x"]
        let encoded = try JSONEncoding.default.encode(lowercase, with: ["a": 1])
        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "text/json")
        XCTAssertEqual(encoded.headers.count, 2)
    }

    func testOtherHeadersSurvive() throws {
        var request = base
        request.headers = [.authorization(bearerToken: "t")]
        request.timeoutInterval = 3
        let encoded = try JSONEncoding.default.encode(request, with: ["a": 1])
        XCTAssertEqual(encoded.headers.sorted(), [.authorization(bearerToken: "t"), .contentType("application/json")])
        XCTAssertEqual(encoded.timeoutInterval, 3)
    }

    // MARK: Errors

    func testValuesJSONCannotRepresentThrow() {
        struct Opaque {}
        assertJSONEncodingFailed(try JSONEncoding.default.encode(base, with: ["key": Double.nan]))
        assertJSONEncodingFailed(try JSONEncoding.default.encode(base, with: ["key": Double.infinity]))
        assertJSONEncodingFailed(try JSONEncoding.default.encode(base, with: ["key": -Double.infinity]))
        assertJSONEncodingFailed(try JSONEncoding.default.encode(base, with: ["key": Float.nan]))
        assertJSONEncodingFailed(try JSONEncoding.default.encode(base, with: ["key": [1, ["deep": [Double.nan]]] as [any Sendable]]))
        assertJSONEncodingFailed(try JSONEncoding.default.encode(base, with: ["key": Opaque()]))
        assertJSONEncodingFailed(try JSONEncoding.default.encode(base, with: ["key": [1: "a"]]))
        assertJSONEncodingFailed(try JSONEncoding.prettyPrinted.encode(base, with: ["key": Double.nan]))
        assertJSONEncodingFailed(try JSONEncoding(options: .sortedKeys).encode(base, with: ["key": Double.nan]))
        assertJSONEncodingFailed(try JSONEncoding.default.encode(base, withJSONObject: [Opaque()]))
        assertJSONEncodingFailed(try JSONEncoding.default.encode(base, withJSONObject: Opaque()))
        assertJSONEncodingFailed(try JSONEncoding.default.encode(base, withJSONObject: [1: "a"]))
    }

    func testTopLevelScalarsThrow() {
        for scalar: Any in ["string", 5, 1.5, true, NSNull(), NSNumber(value: 1)] {
            assertJSONEncodingFailed(try JSONEncoding.default.encode(base, withJSONObject: scalar))
            assertJSONEncodingFailed(try JSONEncoding(options: .fragmentsAllowed).encode(base, withJSONObject: scalar))
        }
    }

    func testConvertibleErrorsPropagate() {
        XCTAssertThrowsError(try JSONEncoding.default.encode(Unbuildable(), with: ["a": 1])) { error in
            XCTAssertEqual(error as? Unbuildable.Failure, .cannotBuild)
        }
        XCTAssertThrowsError(try JSONEncoding.default.encode(Unbuildable(), withJSONObject: [1]))
    }

    func testErrorDescription() {
        XCTAssertEqual(JSONEncoding.Error.invalidJSONObject.localizedDescription,
                       "The parameters or object given to JSONEncoding are not valid JSON: a value JSON cannot represent (NaN, infinity, a type JSONSerialization does not know) or a top-level value that is neither an array nor a dictionary.")
    }

    func testNamedEncodingsAndProtocolUse() throws {
        XCTAssertEqual(JSONEncoding.default.options, [])
        XCTAssertEqual(JSONEncoding.prettyPrinted.options, .prettyPrinted)
        XCTAssertEqual(JSONEncoding(options: [.sortedKeys, .withoutEscapingSlashes]).options, [.sortedKeys, .withoutEscapingSlashes])
        let encoding: any ParameterEncoding = JSONEncoding.default
        XCTAssertEqual(body(try encoding.encode(base, with: ["a": "/"])), #"{"a":"\/"}"#)
    }
}

// MARK: - Differential tests against JSONSerialization

/// Salvo's `JSONWriter` must write exactly the bytes `JSONSerialization` writes (which is what
/// Alamofire sends) for the same value and options.
final class JSONEncodingDifferentialTests: XCTestCase {
    private static let optionSets: [JSONSerialization.WritingOptions] = [
        [], .prettyPrinted, .withoutEscapingSlashes, [.prettyPrinted, .withoutEscapingSlashes],
    ]

    private static let stringPieces: [String] = {
        var pieces = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        pieces += ["é", "ß", "ÿ", "\u{80}", "\u{9F}", "\u{A0}", "\u{AD}", "中文", "日本語", "العربية", "😀", "👨‍👩‍👧", "🇫🇷",
                   "e\u{301}", "\r\n", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "\u{10FFFF}", "\u{E000}",
                   "\\u0041", "\\/", "</script>", "http://a/b", ""]
        return pieces
    }()

    private static var integers: [Any] { [
        0, 1, -1, 10, 100, 1234567890, Int.max, Int.min, Int64.max, Int64.min, Int32.max, Int32.min, UInt.max, UInt64.max,
        UInt64(0), Int8.min, Int16.max, UInt8.max, UInt16.max, UInt32.max,
    ] }

    private static var floatingPoint: [Any] { [
        0.0, -0.0, 0.1, 0.2, 0.3, 0.1 + 0.2, 1.0, -1.0, 1.5, 100.0, 1e15, 1e16, 1e17, 1e21, 1e22, 1e-5, 1e-6, 1e-7,
        123.456, -987.654e-3, Double.pi, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude,
        Double.leastNormalMagnitude, Double.leastNonzeroMagnitude, Double(Int64.max), 9007199254740993.0,
        Float(0.1), Float(1.0), Float(-0.0), Float(1e16), Float(3.4e38), Float.leastNonzeroMagnitude, Float(16777217),
    ] }

    private static var others: [Any] { [
        true, false, NSNull(), NSNumber(value: true), NSNumber(value: false), NSNumber(value: 0), NSNumber(value: 1),
        NSNumber(value: 2), NSNumber(value: -1), NSNumber(value: 2.0), NSNumber(value: 2.5), NSNumber(value: Float(0.1)),
        NSNumber(value: Int8(1)), NSNumber(value: UInt64.max), NSNumber(value: Int64.min), Int?.none as Any, Int?.some(1) as Any,
        Bool?.some(true) as Any, String?.some("x") as Any, [Int]?.some([1]) as Any, [String: Int]?.some(["k": 1]) as Any,
        NSNull?.some(NSNull()) as Any, [Int](), [String: Int](), [[Int]](), ["": [String: Int]()],
        Decimal(string: "1.25")!, NSString(string: "ns/string"), NSArray(array: [1, "a"]), NSDictionary(dictionary: ["k": 1]),
    ] }

    private func serialize(_ object: Any, _ options: JSONSerialization.WritingOptions) -> Data? {
        guard JSONSerialization.isValidJSONObject(object) else { return nil }
        return try? JSONSerialization.data(withJSONObject: object, options: options)
    }

    private func salvoBody(_ object: Any, _ options: JSONSerialization.WritingOptions) -> Data? {
        let request = URLRequest(url: URL(string: "https://example.com/")!)
        return try? JSONEncoding(options: options).encode(request, withJSONObject: object).httpBody
    }

    /// Compares one value both through `JSONEncoding` and, when the writer models it, through
    /// `JSONWriter` directly; returns false on any difference.
    @discardableResult
    private func check(_ object: Any, _ options: JSONSerialization.WritingOptions,
                       file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let expected = serialize(object, options)
        let actual = salvoBody(object, options)
        guard actual == expected else {
            XCTFail("""
                JSONEncoding differs for \(object) with options \(options.rawValue):
                expected \(expected.map { String(decoding: $0, as: UTF8.self) } ?? "an error")
                got      \(actual.map { String(decoding: $0, as: UTF8.self) } ?? "an error")
                """, file: file, line: line)
            return false
        }
        guard let writer = JSONWriter(options: options) else {
            XCTFail("JSONWriter should model options \(options.rawValue)", file: file, line: line)
            return false
        }
        switch writer.write(object) {
        case let .written(bytes):
            guard let expected, Data(bytes) == expected else {
                XCTFail("JSONWriter wrote \(String(decoding: bytes, as: UTF8.self)) for \(object)", file: file, line: line)
                return false
            }
        case .invalid:
            guard expected == nil else {
                XCTFail("JSONWriter rejected \(object), which JSONSerialization writes", file: file, line: line)
                return false
            }
        case .unsupported:
            break
        case .tooDeep:
            XCTFail("JSONWriter found \(object) too deep", file: file, line: line)
            return false
        }
        return true
    }

    func testEveryASCIICharacterAndSelectedUnicodeInValuesAndKeys() {
        for options in Self.optionSets {
            for piece in Self.stringPieces {
                check([piece], options)
                check(["k": piece], options)
                check([piece: 1], options)
                check(["a\(piece)b\(piece)\(piece)"], options)
            }
        }
    }

    func testEveryControlCharacterIsEscapedAsJSONSerializationDoes() throws {
        for value in 0..<0x20 {
            let character = String(UnicodeScalar(UInt8(value)))
            let expected = try JSONSerialization.data(withJSONObject: [character])
            let written = try JSONEncoding.default.encode(URLRequest(url: URL(string: "https://example.com/")!), withJSONObject: [character])
            XCTAssertEqual(written.httpBody, expected, "U+\(String(value, radix: 16))")
        }
    }

    func testGeneratedStrings() {
        var generator = SplitMix64(seed: 2024)
        for options in Self.optionSets {
            for _ in 0..<1500 {
                let count = Int(generator.next() % 12)
                let string = (0..<count).map { _ in Self.stringPieces[Int(generator.next() % UInt64(Self.stringPieces.count))] }.joined()
                guard check([string], options), check([string: string], options) else { return }
            }
        }
    }

    func testNumbers() {
        var generator = SplitMix64(seed: 7)
        var numbers: [Any] = Self.integers + Self.floatingPoint
        for _ in 0..<2000 {
            let bits = generator.next()
            let double = Double(bitPattern: bits)
            if double.isFinite { numbers.append(double) }
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: bits >> 16))
            if float.isFinite { numbers.append(float) }
            numbers.append(Int(bitPattern: UInt(bits)))
            numbers.append(Int64(bitPattern: bits) >> (bits % 64))
            numbers.append(Double(Int64(bitPattern: bits) % 1_000_000) / 1000)
        }
        for options in Self.optionSets {
            for number in numbers {
                guard check([number], options), check(["n": number], options) else { return }
            }
        }
    }

    func testOtherValueKinds() {
        for options in Self.optionSets {
            for value in Self.others {
                check([value], options)
                check(["v": value], options)
                check([[value]], options)
            }
        }
    }

    func testNonFiniteNumbersAreRejectedAsJSONSerializationRejectsThem() {
        for options in Self.optionSets {
            for value: Any in [Double.nan, Double.infinity, -Double.infinity, Float.nan, Float.infinity, Double.signalingNaN] {
                XCTAssertFalse(JSONSerialization.isValidJSONObject([value]))
                check([value], options)
                check(["x": [1, ["y": value]]], options)
            }
        }
    }

    func testTopLevelScalarsAreRejected() {
        for options in Self.optionSets {
            for value: Any in ["s", 1, 1.5, true, NSNull(), NSNumber(value: 3)] {
                check(value, options)
                guard let writer = JSONWriter(options: options), case .invalid = writer.write(value) else {
                    return XCTFail("JSONWriter should reject a top-level \(value)")
                }
            }
        }
    }

    /// Nested single-key dictionaries and arrays have only one possible byte order.
    func testGeneratedNestedContainers() {
        var generator = SplitMix64(seed: 99)
        let leaves: [Any] = Self.integers + Self.floatingPoint + Self.others + Self.stringPieces.map { $0 as Any }
        func make(_ depth: Int) -> Any {
            let pick = generator.next() % 4
            if depth == 0 || pick == 0 { return leaves[Int(generator.next() % UInt64(leaves.count))] }
            if pick == 1 {
                let key = Self.stringPieces[Int(generator.next() % UInt64(Self.stringPieces.count))]
                return [key: make(depth - 1)] as [String: Any]
            }
            let count = Int(generator.next() % 4)
            return (0..<count).map { _ in make(depth - 1) } as [Any]
        }
        for options in Self.optionSets {
            for _ in 0..<1000 {
                let value = make(5)
                guard check([value], options), check(["root": value], options) else { return }
            }
        }
    }

    /// With several keys the order is unspecified, so these compare the parsed results, and
    /// check that the writer's bytes are one of the orders JSONSerialization could produce.
    func testMultiKeyDictionariesParseToTheSameValue() throws {
        var generator = SplitMix64(seed: 5)
        for options in Self.optionSets {
            for _ in 0..<300 {
                var dictionary: [String: Any] = [:]
                for index in 0..<Int(generator.next() % 6) {
                    let key = "k\(index)" + Self.stringPieces[Int(generator.next() % UInt64(Self.stringPieces.count))]
                    dictionary[key] = index.isMultiple(of: 2) ? ["inner": index, "other": [true, "x/y"]] as [String: Any] : "v\(index)"
                }
                let expected = try XCTUnwrap(serialize(dictionary, options))
                let actual = try XCTUnwrap(salvoBody(dictionary, options))
                XCTAssertEqual(try JSONSerialization.jsonObject(with: actual) as? NSDictionary,
                               try JSONSerialization.jsonObject(with: expected) as? NSDictionary)
                XCTAssertEqual(actual.count, expected.count)
                XCTAssertEqual(actual.sorted(), expected.sorted(), "same bytes in some order")
            }
        }
    }

    func testOptionsTheWriterDoesNotModelFallBackToJSONSerialization() {
        XCTAssertNil(JSONWriter(options: .sortedKeys))
        XCTAssertNil(JSONWriter(options: .fragmentsAllowed))
        XCTAssertNil(JSONWriter(options: [.prettyPrinted, .sortedKeys]))
        XCTAssertNotNil(JSONWriter(options: [.prettyPrinted, .withoutEscapingSlashes]))
        for options: JSONSerialization.WritingOptions in [.sortedKeys, [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]] {
            let value: [String: Any] = ["b": ["y": 1.5, "x": "a/b"], "a": [NSNull(), false]]
            XCTAssertEqual(salvoBody(value, options), serialize(value, options))
        }
    }
}

// MARK: - Helpers

private struct Unbuildable: URLRequestConvertible {
    enum Failure: Error, Equatable { case cannotBuild }
    func asURLRequest() throws -> URLRequest { throw Failure.cannotBuild }
}
