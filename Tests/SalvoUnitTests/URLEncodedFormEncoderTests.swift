import Foundation
import Synchronization
import XCTest

@testable import Salvo

/// Expected strings are Alamofire 5's output for the same input, from its own test suite
/// where it has one and from tracing its encoder where it does not.
final class URLEncodedFormEncoderTests: XCTestCase {
    private func encode(_ value: some Encodable, with encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) throws -> String {
        try encoder.encode(value)
    }

    private let referenceDate = Date(timeIntervalSinceReferenceDate: 123.456)

    // MARK: Scalars

    func testStringValue() throws {
        XCTAssertEqual(try encode(["a": "a"]), "a=a")
    }

    func testIntegerTypes() throws {
        XCTAssertEqual(try encode(["a": 1]), "a=1")
        XCTAssertEqual(try encode(["a": Int8(1)]), "a=1")
        XCTAssertEqual(try encode(["a": Int16(1)]), "a=1")
        XCTAssertEqual(try encode(["a": Int32(1)]), "a=1")
        XCTAssertEqual(try encode(["a": Int64(1)]), "a=1")
        XCTAssertEqual(try encode(["a": UInt(1)]), "a=1")
        XCTAssertEqual(try encode(["a": UInt8(1)]), "a=1")
        XCTAssertEqual(try encode(["a": UInt16(1)]), "a=1")
        XCTAssertEqual(try encode(["a": UInt32(1)]), "a=1")
        XCTAssertEqual(try encode(["a": UInt64(1)]), "a=1")
    }

    func testIntegerExtremes() throws {
        XCTAssertEqual(try encode(["a": 0]), "a=0")
        XCTAssertEqual(try encode(["a": -42]), "a=-42")
        XCTAssertEqual(try encode(["a": Int64.min]), "a=-9223372036854775808")
        XCTAssertEqual(try encode(["a": UInt64.max]), "a=18446744073709551615")
        XCTAssertEqual(try encode(["a": Int8.min]), "a=-128")
    }

    func testFloatingPointValues() throws {
        XCTAssertEqual(try encode(["a": 1.0]), "a=1.0")
        XCTAssertEqual(try encode(["a": Float(1.0)]), "a=1.0")
        XCTAssertEqual(try encode(["a": 0.1]), "a=0.1")
        XCTAssertEqual(try encode(["a": -2.5e-10]), "a=-2.5e-10")
    }

    func testDecimalIsOneValue() throws {
        XCTAssertEqual(try encode(["a": Decimal(1)]), "a=1")
        XCTAssertEqual(try encode(["a": Decimal(string: "1.123456")!]), "a=1.123456")
    }

    func testRawRepresentableEnumEncodesItsRawValue() throws {
        enum Kind: String, Encodable { case first }
        XCTAssertEqual(try encode(["kind": Kind.first]), "kind=first")
    }

    // MARK: Containers

    func testNestedDictionariesHaveBracketedKeys() throws {
        XCTAssertEqual(try encode(["a": ["b": "b"]]), "a%5Bb%5D=b")
    }

    func testEncodableStruct() throws {
        let expected = "five%5Ba%5D=a&four%5B%5D=1&four%5B%5D=2&four%5B%5D=3&one=one&seven%5Ba%5D=a&six%5Ba%5D%5Bb%5D=b&three=1&two=2"
        XCTAssertEqual(try encode(EncodableStruct()), expected)
    }

    func testEncodableStructInDeclarationOrderWhenNotAlphabetized() throws {
        let encoder = URLEncodedFormEncoder(alphabetizeKeyValuePairs: false)
        let expected = "one=one&two=2&three=1&four%5B%5D=1&four%5B%5D=2&four%5B%5D=3&five%5Ba%5D=a&six%5Ba%5D%5Bb%5D=b&seven%5Ba%5D=a"
        XCTAssertEqual(try encode(EncodableStruct(), with: encoder), expected)
    }

    func testManuallyEncodedContainersReplaceEachOtherAsInAlamofire() throws {
        // The keyed container at `root` is replaced by the unkeyed one written later.
        let expected = "root%5B%5D%5B%5D%5B%5D=1&root%5B%5D%5B%5D%5B%5D=2&root%5B%5D%5B%5D%5B%5D=3&root%5B%5D%5B%5D=1&root%5B%5D%5B%5D=2&root%5B%5D%5B%5D=3&root%5B%5D%5Ba%5D%5Bstring%5D=string"
        XCTAssertEqual(try encode(ManuallyEncodableStruct()), expected)
    }

    func testManuallyEncodedContainersWithIndexInBrackets() throws {
        let encoder = URLEncodedFormEncoder(arrayEncoding: .indexInBrackets)
        let expected = "root%5B0%5D%5B0%5D=1&root%5B0%5D%5B1%5D=2&root%5B0%5D%5B2%5D=3&root%5B1%5D%5Ba%5D%5Bstring%5D=string&root%5B2%5D%5B0%5D%5B0%5D=1&root%5B2%5D%5B0%5D%5B1%5D=2&root%5B2%5D%5B0%5D%5B2%5D=3"
        XCTAssertEqual(try encode(ManuallyEncodableStruct(), with: encoder), expected)
    }

    func testClassWithoutInheritance() throws {
        XCTAssertEqual(try encode(EncodableSuperclass()), "one=one&three=1&two=2")
    }

    func testSubclassSharesItsSuperclassContainer() throws {
        let expected = "five%5Ba%5D=a&five%5Bb%5D=b&four%5B%5D=1&four%5B%5D=2&four%5B%5D=3&one=one&three=1&two=2"
        XCTAssertEqual(try encode(EncodableSubclass()), expected)
    }

    func testSuperEncodersWriteAtTheContainersPath() throws {
        XCTAssertEqual(try encode(ManuallyEncodableSubclass()),
                       "five%5Ba%5D=a&five%5Bb%5D=b&four%5Bfive%5D=2&four%5Bfour%5D=one")
    }

    func testArrayOfDictionaries() throws {
        let parameters = ["foo": [["bar": 2], ["qux": 3], ["quy": 4]]]
        XCTAssertEqual(try encode(parameters), "foo%5B%5D%5Bbar%5D=2&foo%5B%5D%5Bqux%5D=3&foo%5B%5D%5Bquy%5D=4")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(arrayEncoding: .indexInBrackets)),
                       "foo%5B0%5D%5Bbar%5D=2&foo%5B1%5D%5Bqux%5D=3&foo%5B2%5D%5Bquy%5D=4")
    }

    func testArrayOfObjectsWithIndexInBrackets() throws {
        let encoder = URLEncodedFormEncoder(arrayEncoding: .indexInBrackets)
        XCTAssertEqual(try encode(["foo": [EncodableSuperclass()]], with: encoder),
                       "foo%5B0%5D%5Bone%5D=one&foo%5B0%5D%5Bthree%5D=1&foo%5B0%5D%5Btwo%5D=2")
        XCTAssertEqual(try encode(EncodableSubclass(), with: encoder),
                       "five%5Ba%5D=a&five%5Bb%5D=b&four%5B0%5D=1&four%5B1%5D=2&four%5B2%5D=3&one=one&three=1&two=2")
    }

    func testNestedArrays() throws {
        XCTAssertEqual(try encode(["a": [[1, 2], [3]]]), "a%5B%5D%5B%5D=1&a%5B%5D%5B%5D=2&a%5B%5D%5B%5D=3")
    }

    func testAlphabetizingSortsArrayElementsAsStrings() throws {
        XCTAssertEqual(try encode(["a": [10, 9, 1]]), "a%5B%5D=1&a%5B%5D=10&a%5B%5D=9")
        XCTAssertEqual(try encode(["a": [10, 9, 1]], with: URLEncodedFormEncoder(alphabetizeKeyValuePairs: false)),
                       "a%5B%5D=10&a%5B%5D=9&a%5B%5D=1")
    }

    func testEmptyContainersWriteNothing() throws {
        XCTAssertEqual(try encode([String: String]()), "")
        XCTAssertEqual(try encode(Empty()), "")
        XCTAssertEqual(try encode(["a": [Int](), "b": [1]]), "b%5B%5D=1")
        XCTAssertEqual(try encode(["a": Empty()]), "")
    }

    func testEmptyElementsAreSkippedAndLaterIndicesSplitAsInAlamofire() throws {
        // Alamofire looks an element's index up again for every value written into it, so
        // once an empty element has been skipped, the second member of the next element
        // lands in an element of its own.
        let users = ["users": [Person(name: nil, age: nil), Person(name: "a", age: 1)]]
        XCTAssertEqual(try encode(users), "users%5B%5D%5Bage%5D=1&users%5B%5D%5Bname%5D=a")
        XCTAssertEqual(try encode(users, with: URLEncodedFormEncoder(arrayEncoding: .indexInBrackets)),
                       "users%5B0%5D%5Bname%5D=a&users%5B1%5D%5Bage%5D=1")
    }

    func testRewrittenKeysKeepTheirFirstPosition() throws {
        let encoder = URLEncodedFormEncoder(alphabetizeKeyValuePairs: false)
        let narrow = (0..<3).map { "k\($0)=\($0 == 1 ? "again" : String($0))" }.joined(separator: "&")
        XCTAssertEqual(try encode(Rewriter(count: 3, rewritten: 1), with: encoder), narrow)
        // Past sixteen members a node looks names up through an index; the result is the same.
        let wide = (0..<40).map { "k\($0)=\($0 == 3 ? "again" : String($0))" }.joined(separator: "&")
        XCTAssertEqual(try encode(Rewriter(count: 40, rewritten: 3), with: encoder), wide)
    }

    func testIntegerKeyedDictionaryBecomesAnArray() throws {
        // `[Int: V]` encodes with integer coding keys, which Alamofire treats as indices.
        XCTAssertEqual(try encode(["a": [5: "x"]]), "a%5B%5D=x")
    }

    // MARK: Root values

    func testTopLevelStringThrowsInvalidRootObject() {
        XCTAssertThrowsError(try encode("string")) { error in
            guard case let .invalidRootObject(description)? = error as? URLEncodedFormEncoder.Error else {
                return XCTFail("Unexpected error: \(error)")
            }
            XCTAssertEqual(description, "string(\"string\")")
            XCTAssertEqual(error.localizedDescription,
                           "URLEncodedFormEncoder requires keyed root object. Received string(\"string\") instead.")
        }
    }

    func testTopLevelScalarsThrow() {
        XCTAssertThrowsError(try encode(1)) { XCTAssertTrue($0 is URLEncodedFormEncoder.Error) }
        XCTAssertThrowsError(try encode(true)) { XCTAssertTrue($0 is URLEncodedFormEncoder.Error) }
        XCTAssertThrowsError(try encode(referenceDate)) { XCTAssertTrue($0 is URLEncodedFormEncoder.Error) }
    }

    func testTopLevelArrayThrowsInvalidRootObject() {
        XCTAssertThrowsError(try encode([1])) { error in
            guard case let .invalidRootObject(description)? = error as? URLEncodedFormEncoder.Error else {
                return XCTFail("Unexpected error: \(error)")
            }
            XCTAssertEqual(description, "array([Salvo.URLEncodedFormComponent.string(\"1\")])")
        }
        XCTAssertThrowsError(try encode([["a": 1]])) { XCTAssertTrue($0 is URLEncodedFormEncoder.Error) }
    }

    func testEmptyTopLevelArrayEncodesNothing() throws {
        // No element is written, so the root stays the empty object it starts as.
        XCTAssertEqual(try encode([Int]()), "")
    }

    func testDataEncodesToTheSameBytesAsString() throws {
        let encoder = URLEncodedFormEncoder()
        let data: Data = try encoder.encode(["a": "b c"])
        XCTAssertEqual(data, Data("a=b%20c".utf8))
    }

    // MARK: ArrayEncoding

    func testArrayEncodings() throws {
        let parameters = ["array": [1, 2]]
        XCTAssertEqual(try encode(parameters), "array%5B%5D=1&array%5B%5D=2")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(arrayEncoding: .noBrackets)), "array=1&array=2")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(arrayEncoding: .indexInBrackets)),
                       "array%5B0%5D=1&array%5B1%5D=2")
        let custom = URLEncodedFormEncoder(arrayEncoding: .custom { key, index in "\(key).\(index + 1)" })
        XCTAssertEqual(try encode(parameters, with: custom), "array.1=1&array.2=2")
    }

    func testCustomArrayEncodingSeesTheWholeKey() throws {
        let custom = URLEncodedFormEncoder(arrayEncoding: .custom { key, index in "<\(key)|\(index)>" })
        XCTAssertEqual(try encode(["a": ["b": [true]]], with: custom), "%3Ca%5Bb%5D%7C0%3E=1")
    }

    // MARK: BoolEncoding

    func testBoolEncodings() throws {
        XCTAssertEqual(try encode(["bool": true, "other": false]), "bool=1&other=0")
        XCTAssertEqual(try encode(["bool": true, "other": false], with: URLEncodedFormEncoder(boolEncoding: .literal)),
                       "bool=true&other=false")
        XCTAssertEqual(try encode(["foo": [["bar": true], ["qux": false]]], with: URLEncodedFormEncoder(arrayEncoding: .indexInBrackets)),
                       "foo%5B0%5D%5Bbar%5D=1&foo%5B1%5D%5Bqux%5D=0")
    }

    // MARK: DataEncoding

    func testDataIsBase64ByDefault() throws {
        XCTAssertEqual(try encode(["data": Data("data".utf8)]), "data=ZGF0YQ%3D%3D")
    }

    func testDataDeferredToItsOwnEncoding() throws {
        let encoder = URLEncodedFormEncoder(dataEncoding: .deferredToData)
        XCTAssertEqual(try encode(["data": Data("ab".utf8)], with: encoder), "data%5B%5D=97&data%5B%5D=98")
    }

    func testCustomDataEncoding() throws {
        let encoder = URLEncodedFormEncoder(dataEncoding: .custom { "\($0.count) bytes" })
        XCTAssertEqual(try encode(["data": Data("data".utf8)], with: encoder), "data=4%20bytes")
    }

    func testCustomDataEncodingErrorIsThrown() {
        struct DataEncodingError: Error {}
        let encoder = URLEncodedFormEncoder(dataEncoding: .custom { _ in throw DataEncodingError() })
        XCTAssertThrowsError(try encode(["data": Data("data".utf8)], with: encoder)) {
            XCTAssertTrue($0 is DataEncodingError)
        }
    }

    // MARK: DateEncoding

    func testDateEncodings() throws {
        let parameters = ["date": referenceDate]
        XCTAssertEqual(try encode(parameters), "date=123.456")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(dateEncoding: .secondsSince1970)),
                       "date=978307323.456")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(dateEncoding: .millisecondsSince1970)),
                       "date=978307323456.0")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(dateEncoding: .iso8601)),
                       "date=2001-01-01T00%3A02%3A03Z")
        let custom = URLEncodedFormEncoder(dateEncoding: .custom { "\($0.timeIntervalSinceReferenceDate)" })
        XCTAssertEqual(try encode(parameters, with: custom), "date=123.456")
    }

    func testFormattedDateEncoding() throws {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSSS"
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        let encoder = URLEncodedFormEncoder(dateEncoding: .formatted(formatter))
        XCTAssertEqual(try encode(["date": referenceDate], with: encoder), "date=2001-01-01%2000%3A02%3A03.4560")
    }

    func testDateStrategyAppliesInsideOptionalsAndArrays() throws {
        let encoder = URLEncodedFormEncoder(dateEncoding: .secondsSince1970)
        let optional: [String: Date?] = ["date": referenceDate]
        XCTAssertEqual(try encode(optional, with: encoder), "date=978307323.456")
        XCTAssertEqual(try encode(["dates": [referenceDate]], with: encoder), "dates%5B%5D=978307323.456")
    }

    func testCustomDateEncodingErrorIsThrown() {
        struct DateEncodingError: Error {}
        let encoder = URLEncodedFormEncoder(dateEncoding: .custom { _ in throw DateEncodingError() })
        XCTAssertThrowsError(try encode(["date": referenceDate], with: encoder)) {
            XCTAssertTrue($0 is DateEncodingError)
        }
    }

    // MARK: KeyEncoding

    func testKeyEncodings() throws {
        let parameters = ["oneTwoThree": "oneTwoThree"]
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(keyEncoding: .useDefaultKeys)), "oneTwoThree=oneTwoThree")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase)), "one_two_three=oneTwoThree")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(keyEncoding: .convertToKebabCase)), "one-two-three=oneTwoThree")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(keyEncoding: .capitalized)), "OneTwoThree=oneTwoThree")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(keyEncoding: .uppercased)), "ONETWOTHREE=oneTwoThree")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(keyEncoding: .lowercased)), "onetwothree=oneTwoThree")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(keyEncoding: .custom { _ in "A" })), "A=oneTwoThree")
    }

    func testSnakeCaseWordBoundaries() throws {
        let encoder = URLEncodedFormEncoder(alphabetizeKeyValuePairs: false, keyEncoding: .convertToSnakeCase)
        XCTAssertEqual(try encode(["myURLProperty": 1], with: encoder), "my_url_property=1")
        XCTAssertEqual(try encode(["_oneTwoThree_": 1], with: encoder), "_one_two_three_=1")
        XCTAssertEqual(try encode(["URLValue": 1], with: encoder), "u_rl_value=1")
        XCTAssertEqual(try encode(["already_snake": 1], with: encoder), "already_snake=1")
        XCTAssertEqual(try encode(["x": 1], with: encoder), "x=1")
        XCTAssertEqual(try encode(["": 1], with: encoder), "=1")
    }

    func testKeyEncodingSeesTheWholeNestedKey() throws {
        XCTAssertEqual(try encode(["userInfo": ["firstName": "x"]], with: URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase)),
                       "user_info%5Bfirst_name%5D=x")
        XCTAssertEqual(try encode(["user": ["tags": ["x"]]], with: URLEncodedFormEncoder(keyEncoding: .uppercased)),
                       "USER%5BTAGS%5D%5B%5D=x")
        XCTAssertEqual(try encode(["user": ["name": "x"]], with: URLEncodedFormEncoder(keyEncoding: .capitalized)),
                       "User%5Bname%5D=x")
    }

    // MARK: KeyPathEncoding

    func testKeyPathEncodings() throws {
        let parameters = ["a": ["b": ["c": "d"]]]
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(keyPathEncoding: .brackets)), "a%5Bb%5D%5Bc%5D=d")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(keyPathEncoding: .dots)), "a.b.c=d")
        let custom = URLEncodedFormEncoder(keyPathEncoding: KeyPathEncodingFixtures.dashes)
        XCTAssertEqual(try encode(parameters, with: custom), "a-b-c=d")
    }

    func testDotsWithArrays() throws {
        XCTAssertEqual(try encode(["a": ["b": [1]]], with: URLEncodedFormEncoder(keyPathEncoding: .dots)), "a.b%5B%5D=1")
    }

    // MARK: NilEncoding

    func testNilIsDroppedByDefault() throws {
        let parameters: [String: String?] = ["a": nil]
        XCTAssertEqual(try encode(parameters), "")
        XCTAssertEqual(try encode(OptionalStruct()), "one=one")
    }

    func testNilEncodings() throws {
        let parameters: [String: String?] = ["a": nil]
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(nilEncoding: .dropValue)), "a=")
        XCTAssertEqual(try encode(OptionalStruct(), with: URLEncodedFormEncoder(nilEncoding: .dropValue)), "one=one&two=")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(nilEncoding: .null)), "a=null")
        XCTAssertEqual(try encode(OptionalStruct(), with: URLEncodedFormEncoder(nilEncoding: .null)), "one=one&two=null")
        let custom = URLEncodedFormEncoder(nilEncoding: URLEncodedFormEncoder.NilEncoding { "-" })
        XCTAssertEqual(try encode(OptionalStruct(), with: custom), "one=one&two=-")
    }

    func testNilInArrays() throws {
        let parameters: [String: [Int?]] = ["a": [1, nil, 3]]
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(arrayEncoding: .indexInBrackets)),
                       "a%5B0%5D=1&a%5B1%5D=3")
        XCTAssertEqual(try encode(parameters, with: URLEncodedFormEncoder(arrayEncoding: .indexInBrackets, nilEncoding: .null)),
                       "a%5B0%5D=1&a%5B1%5D=null&a%5B2%5D=3")
    }

    // MARK: SpaceEncoding and escaping

    func testSpaceEncodings() throws {
        XCTAssertEqual(try encode([" foo ": " bar "]), "%20foo%20=%20bar%20")
        XCTAssertEqual(try encode(["spaces": "replace with spaces"], with: URLEncodedFormEncoder(spaceEncoding: .plusReplaced)),
                       "spaces=replace+with+spaces")
        XCTAssertEqual(try encode([" a b ": "c+d"], with: URLEncodedFormEncoder(spaceEncoding: .plusReplaced)), "+a+b+=c%2Bd")
    }

    func testUnreservedCharactersAreNotEscaped() throws {
        let parameters = ["lowercase": "abcdefghijklmnopqrstuvwxyz",
                          "numbers": "0123456789",
                          "uppercase": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                          "others": "-._~/?"]
        XCTAssertEqual(try encode(parameters),
                       "lowercase=abcdefghijklmnopqrstuvwxyz&numbers=0123456789&others=-._~/?&uppercase=ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    }

    func testReservedCharactersAreEscaped() throws {
        XCTAssertEqual(try encode(["reserved": ":#[]@!$&'()*+,;="]),
                       "reserved=%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D")
    }

    func testIllegalASCIICharactersAreEscaped() throws {
        XCTAssertEqual(try encode(["illegal": " \"#%<>[]\\^`{}|"]),
                       "illegal=%20%22%23%25%3C%3E%5B%5D%5C%5E%60%7B%7D%7C")
        XCTAssertEqual(try encode(["control": "\u{0}\t\n\u{7F}"]), "control=%00%09%0A%7F")
    }

    func testDelimitersInKeysAndValues() throws {
        XCTAssertEqual(try encode(["foo&bar": "baz&qux", "foobar": "bazqux"]), "foo%26bar=baz%26qux&foobar=bazqux")
        XCTAssertEqual(try encode(["?foo?": "?bar?"]), "?foo?=?bar?")
        XCTAssertEqual(try encode(["foo": "/bar/baz/qux"]), "foo=/bar/baz/qux")
        XCTAssertEqual(try encode(["+foo+": "+bar+"]), "%2Bfoo%2B=%2Bbar%2B")
        XCTAssertEqual(try encode(["percent%": "%25"]), "percent%25=%2525")
        XCTAssertEqual(try encode(["a[b]": "c=d"]), "a%5Bb%5D=c%3Dd")
    }

    func testNonLatinCharactersAreEscaped() throws {
        let parameters = ["french": "français", "japanese": "日本語", "arabic": "العربية", "emoji": "😃"]
        let expected = ["arabic=%D8%A7%D9%84%D8%B9%D8%B1%D8%A8%D9%8A%D8%A9",
                        "emoji=%F0%9F%98%83",
                        "french=fran%C3%A7ais",
                        "japanese=%E6%97%A5%E6%9C%AC%E8%AA%9E"].joined(separator: "&")
        XCTAssertEqual(try encode(parameters), expected)
        XCTAssertEqual(try encode(["clé": "e\u{301}"]), "cl%C3%A9=e%CC%81")
    }

    func testThousandsOfChineseCharacters() throws {
        let parameters = ["chinese": String(repeating: "一二三四五六七八九十", count: 2000)]
        let escaped = String(repeating: "%E4%B8%80%E4%BA%8C%E4%B8%89%E5%9B%9B%E4%BA%94%E5%85%AD%E4%B8%83%E5%85%AB%E4%B9%9D%E5%8D%81",
                             count: 2000)
        XCTAssertEqual(try encode(parameters), "chinese=\(escaped)")
    }

    func testCustomAllowedCharacters() throws {
        var allowed = CharacterSet.afURLQueryAllowed
        allowed.remove(charactersIn: "?/")
        XCTAssertEqual(try encode(["allowed": "?/"], with: URLEncodedFormEncoder(allowedCharacters: allowed)), "allowed=%3F%2F")

        allowed.insert(charactersIn: "[]")
        XCTAssertEqual(try encode(["a": ["b": "[x]"]], with: URLEncodedFormEncoder(allowedCharacters: allowed)), "a[b]=[x]")
    }

    func testNonASCIIAllowedCharactersAreStillEscapedAsFoundationDoes() throws {
        var allowed = CharacterSet.afURLQueryAllowed
        allowed.insert(charactersIn: "é日 ")
        let encoder = URLEncodedFormEncoder(allowedCharacters: allowed)
        XCTAssertEqual(try encode(["k": "é日 x"], with: encoder), "k=%C3%A9%E6%97%A5%20x")
        XCTAssertEqual(try encode(["k": "é日"], with: encoder), "k=\("é日".addingPercentEncoding(withAllowedCharacters: allowed)!)")
    }

    func testAllowedCharactersCanBeChangedAfterCreation() throws {
        let encoder = URLEncodedFormEncoder()
        XCTAssertEqual(encoder.allowedCharacters, .afURLQueryAllowed)
        XCTAssertEqual(try encode(["a": "b,c"], with: encoder), "a=b%2Cc")
        encoder.allowedCharacters.insert(",")
        XCTAssertEqual(try encode(["a": "b,c"], with: encoder), "a=b,c")
    }

    func testAfURLQueryAllowedMembers() {
        let ascii = (0..<128).map { UInt8($0) }.filter { CharacterSet.afURLQueryAllowed.contains(Unicode.Scalar($0)) }
        XCTAssertEqual(String(decoding: ascii, as: UTF8.self),
                       "-./0123456789?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~")
        XCTAssertFalse(CharacterSet.afURLQueryAllowed.contains("é"))
    }

    // MARK: Errors from values

    func testEncodingTwiceThroughOneSingleValueContainerThrows() {
        XCTAssertThrowsError(try encode(["a": DoubleSingleValue()])) { error in
            guard case let EncodingError.invalidValue(_, context) = error else {
                return XCTFail("Unexpected error: \(error)")
            }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["a"])
        }
    }

    func testCodingPathsReportedToValues() throws {
        let recorder = PathRecorder()
        _ = try encode(["outer": [recorder]])
        XCTAssertEqual(recorder.paths.withLock { $0 }, [["outer", "0"]])
    }

    func testEncoderIsSendableAcrossTasks() async throws {
        let encoder = URLEncodedFormEncoder()
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<8 {
                group.addTask { try encoder.encode(["i": index]) }
            }
            var results: [String] = []
            for try await result in group { results.append(result) }
            XCTAssertEqual(Set(results), Set((0..<8).map { "i=\($0)" }))
        }
    }
}

// MARK: - Fixtures

private struct EncodableStruct: Encodable {
    let one = "one"
    let two = 2
    let three = true
    let four = [1, 2, 3]
    let five = ["a": "a"]
    let six = ["a": ["b": "b"]]
    let seven = NestedEncodableStruct()
}

private struct NestedEncodableStruct: Encodable {
    let a = "a"
}

private struct Empty: Encodable {}

private struct Person: Encodable {
    let name: String?
    let age: Int?
}

private struct OptionalStruct: Encodable {
    let one = "one"
    let two: String? = nil
}

private class EncodableSuperclass: Encodable {
    let one = "one"
    let two = 2
    let three = true
}

private final class EncodableSubclass: EncodableSuperclass {
    let four = [1, 2, 3]
    let five = ["a": "a", "b": "b"]

    private enum CodingKeys: String, CodingKey {
        case four, five
    }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)

        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(four, forKey: .four)
        try container.encode(five, forKey: .five)
    }
}

private final class ManuallyEncodableSubclass: EncodableSuperclass {
    let four = [1, 2, 3]
    let five = ["a": "a", "b": "b"]

    private enum CodingKeys: String, CodingKey {
        case four, five
    }

    override func encode(to encoder: any Encoder) throws {
        var keyedContainer = encoder.container(keyedBy: CodingKeys.self)
        try keyedContainer.encode(four, forKey: .four)
        try keyedContainer.encode(five, forKey: .five)

        let superEncoder = keyedContainer.superEncoder()
        var superContainer = superEncoder.container(keyedBy: CodingKeys.self)
        try superContainer.encode(one, forKey: .four)

        let keyedSuperEncoder = keyedContainer.superEncoder(forKey: .four)
        var superKeyedContainer = keyedSuperEncoder.container(keyedBy: CodingKeys.self)
        try superKeyedContainer.encode(two, forKey: .five)

        var unkeyedContainer = keyedContainer.nestedUnkeyedContainer(forKey: .four)
        let unkeyedSuperEncoder = unkeyedContainer.superEncoder()
        var keyedUnkeyedSuperContainer = unkeyedSuperEncoder.container(keyedBy: CodingKeys.self)
        try keyedUnkeyedSuperContainer.encode(one, forKey: .four)
    }
}

private struct ManuallyEncodableStruct: Encodable {
    let a = ["string": "string"]
    let b = [1, 2, 3]

    private enum RootKey: String, CodingKey {
        case root
    }

    private enum TypeKeys: String, CodingKey {
        case a, b
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RootKey.self)

        var nestedKeyedContainer = container.nestedContainer(keyedBy: TypeKeys.self, forKey: .root)
        try nestedKeyedContainer.encode(a, forKey: .a)

        var nestedUnkeyedContainer = container.nestedUnkeyedContainer(forKey: .root)
        try nestedUnkeyedContainer.encode(b)

        var nestedUnkeyedKeyedContainer = nestedUnkeyedContainer.nestedContainer(keyedBy: TypeKeys.self)
        try nestedUnkeyedKeyedContainer.encode(a, forKey: .a)

        var nestedUnkeyedUnkeyedContainer = nestedUnkeyedContainer.nestedUnkeyedContainer()
        try nestedUnkeyedUnkeyedContainer.encode(b)
    }
}

private struct NamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private struct Rewriter: Encodable {
    let count: Int
    let rewritten: Int

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NamedKey.self)
        for index in 0..<count {
            try container.encode(index, forKey: NamedKey(stringValue: "k\(index)"))
        }
        try container.encode("again", forKey: NamedKey(stringValue: "k\(rewritten)"))
    }
}

private struct DoubleSingleValue: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(1)
        try container.encode(2)
    }
}

private final class PathRecorder: Encodable, Sendable {
    let paths = Mutex<[[String]]>([])

    func encode(to encoder: any Encoder) throws {
        let path = encoder.codingPath.map(\.stringValue)
        paths.withLock { $0.append(path) }
        var container = encoder.singleValueContainer()
        try container.encode("x")
    }
}

private enum KeyPathEncodingFixtures {
    static let dashes = URLEncodedFormEncoder.KeyPathEncoding { "-\($0)" }
}
