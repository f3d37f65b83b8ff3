import Foundation
import XCTest

@testable import Salvo

final class URLEncodedFormParameterEncoderTests: XCTestCase {
    private struct Parameters: Encodable, Sendable {
        let property = "property"
    }

    private func request(_ url: String = "https://example.com/", method: HTTPMethod = .get) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.method = method
        return request
    }

    private func body(_ request: URLRequest) -> String? {
        request.httpBody.map { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: Destinations

    /// `.default`'s encoder, made with a shared escape table, is an encoder with every
    /// default, and a new one on each call, as in Alamofire.
    func testTheDefaultEncoderHasEveryDefault() throws {
        let made = URLEncodedFormParameterEncoder.default.encoder
        let plain = URLEncodedFormEncoder()
        XCTAssertFalse(made === URLEncodedFormParameterEncoder.default.encoder)
        XCTAssertEqual(made.alphabetizeKeyValuePairs, plain.alphabetizeKeyValuePairs)
        XCTAssertEqual(made.allowedCharacters, plain.allowedCharacters)
        XCTAssertEqual(String(describing: made.spaceEncoding), String(describing: plain.spaceEncoding))
        struct Sample: Encodable {
            var name = "a b&c/é"
            var list = [1, 2]
            var nested = ["k": "v", "x": "y z"]
            var flag = true
            var when = Date(timeIntervalSinceReferenceDate: 12)
            var data = Data([1, 2, 3])
        }
        XCTAssertEqual(try made.encode(Sample()) as String, try plain.encode(Sample()) as String)
    }

    func testPOSTGoesIntoTheBodyWithTheFormContentType() throws {
        let encoded = try URLEncodedFormParameterEncoder().encode(Parameters(), into: request(method: .post))

        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
        XCTAssertEqual(body(encoded), "property=property")
        XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/")
    }

    func testExplicitContentTypeIsKept() throws {
        var original = request(method: .post)
        original.headers.update(.contentType("type"))

        let encoded = try URLEncodedFormParameterEncoder().encode(Parameters(), into: original)

        XCTAssertEqual(encoded.headers["Content-Type"], "type")
        XCTAssertEqual(body(encoded), "property=property")
    }

    func testContentTypeIsFoundWhateverItsCase() throws {
        var original = request(method: .post)
        original.setValue("text/plain", forHTTPHeaderField: "content-type")

        let encoded = try URLEncodedFormParameterEncoder().encode(Parameters(), into: original)

        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "text/plain")
    }

    func testQueryMethodsGoIntoTheQuery() throws {
        for method in [HTTPMethod.get, .head, .delete] {
            let encoded = try URLEncodedFormParameterEncoder().encode(Parameters(), into: request(method: method))

            XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/?property=property", "\(method)")
            XCTAssertNil(encoded.httpBody, "\(method)")
            XCTAssertNil(encoded.value(forHTTPHeaderField: "Content-Type"), "\(method)")
        }
    }

    func testOtherMethodsGoIntoTheBody() throws {
        for method in [HTTPMethod.post, .put, .patch, .options, HTTPMethod(rawValue: "PURGE")] {
            let encoded = try URLEncodedFormParameterEncoder().encode(Parameters(), into: request(method: method))

            XCTAssertEqual(body(encoded), "property=property", "\(method)")
            XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/", "\(method)")
        }
    }

    func testQueryStringDestinationForPOST() throws {
        let encoder = URLEncodedFormParameterEncoder(destination: .queryString)
        let encoded = try encoder.encode(Parameters(), into: request(method: .post))

        XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/?property=property")
        XCTAssertNil(encoded.httpBody)
    }

    func testHTTPBodyDestinationForGET() throws {
        let encoder = URLEncodedFormParameterEncoder(destination: .httpBody)
        let encoded = try encoder.encode(Parameters(), into: request(method: .get))

        XCTAssertEqual(body(encoded), "property=property")
        XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/")
        XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
    }

    // MARK: Queries

    func testExistingQueryIsKeptAndJoinedWithAmpersand() throws {
        let encoded = try URLEncodedFormParameterEncoder().encode(["b": "2"], into: request("https://example.com/path?a=1"))

        XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/path?a=1&b=2")
    }

    func testFragmentStaysAfterTheQuery() throws {
        let encoded = try URLEncodedFormParameterEncoder().encode(["b": "2"], into: request("https://example.com/p?a=1#top"))

        XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/p?a=1&b=2#top")
    }

    func testEmptyParametersLeaveNoQuery() throws {
        let encoder = URLEncodedFormParameterEncoder(destination: .queryString)
        let encoded = try encoder.encode([String: String](), into: request())

        XCTAssertNil(URLComponents(url: encoded.url!, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
        XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/")
    }

    func testEmptyParametersAfterAnExistingQueryAddATrailingAmpersandAsInAlamofire() throws {
        let encoded = try URLEncodedFormParameterEncoder().encode([String: String](), into: request("https://example.com/?a=1"))

        XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/?a=1&")
    }

    func testEmptyExistingQueryIsJoinedToo() throws {
        let encoded = try URLEncodedFormParameterEncoder().encode(["b": "2"], into: request("https://example.com/?"))

        XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/?&b=2")
    }

    func testQueryJoiningMatchesURLComponentsForEveryURLShape() throws {
        // Salvo edits simple URLs' text directly; the result must be what Alamofire's
        // URLComponents round trip gives, including its normalizations of odd URLs.
        let strings = ["https://example.com", "https://example.com/", "https://example.com/a/b?x=1", "https://example.com/?",
                       "https://example.com/#", "https://example.com/?#", "https://example.com/p?a=1#frag", "https://example.com/p#frag?x",
                       "https://u:p@example.com:8080/p;params?x#y", "http://@h/p", "http://[::1]:80/p?q", "HTTP://Example.COM/A%20B?Q=%41",
                       "http://h:080/p", "http://h:/p", "http://h:0/p", "http://h:8080?x", "http://h?x", "http://h#f", "http://h/p?a=1&&b=2",
                       "http://h/%zz", "http://h/a b", "http://h/ä", "http://h/p?a=b/c?d", "file:///tmp/a%20b", "file:/tmp/x",
                       "mailto:a@b.c", "mailto:a@b.c?subject=hi", "urn:isbn:0451450523", "custom:opaque", "data:text/plain,hi"]
        var urls = strings.compactMap { URL(string: $0) }
        urls.append(URL(fileURLWithPath: "/tmp/with space/ä?#"))
        urls.append(URL(string: "p/q?x=1#f", relativeTo: URL(string: "https://h.example/base/"))!)
        XCTAssertEqual(urls.count, strings.count + 2)

        let parameterSets: [[String: String]] = [[:], ["b": "2"], ["k[]": "a b", "z": "é"]]
        for url in urls {
            for parameters in parameterSets {
                var original = URLRequest(url: url)
                original.method = .get
                let encoded = try URLEncodedFormParameterEncoder().encode(parameters, into: original)

                let query: String = try URLEncodedFormEncoder().encode(parameters)
                // The request's own URL: URLRequest may have made a relative URL absolute.
                let requestURL = try XCTUnwrap(original.url)
                if var components = URLComponents(url: requestURL, resolvingAgainstBaseURL: false) {
                    let joined = components.percentEncodedQuery.map { $0 + "&" + query } ?? query
                    components.percentEncodedQuery = joined.isEmpty ? nil : joined
                    XCTAssertEqual(encoded.url?.absoluteString, components.url?.absoluteString, "\(url) \(parameters)")
                    XCTAssertNil(encoded.httpBody)
                } else {
                    XCTAssertEqual(encoded.url, requestURL, "\(url)")
                    XCTAssertEqual(body(encoded), query, "\(url)")
                }
            }
        }
    }

    func testQueryEscapingAndStrategies() throws {
        let parameters = ["q": "a b&c", "café": "☕"]
        XCTAssertEqual(try URLEncodedFormParameterEncoder().encode(parameters, into: request()).url?.absoluteString,
                       "https://example.com/?caf%C3%A9=%E2%98%95&q=a%20b%26c")

        let plus = URLEncodedFormParameterEncoder(encoder: URLEncodedFormEncoder(spaceEncoding: .plusReplaced))
        XCTAssertEqual(try plus.encode(["q": "a b"], into: request()).url?.absoluteString, "https://example.com/?q=a+b")

        let literal = URLEncodedFormParameterEncoder(encoder: URLEncodedFormEncoder(boolEncoding: .literal))
        let components = URLComponents(url: try literal.encode(["bool": true], into: request()).url!, resolvingAgainstBaseURL: false)
        XCTAssertEqual(components?.percentEncodedQuery, "bool=true")
    }

    func testNestedParametersInTheQuery() throws {
        struct Filter: Encodable, Sendable {
            let page: Int
            let tags: [String]
            let range: [String: Int]
        }
        let encoded = try URLEncodedFormParameterEncoder().encode(Filter(page: 2, tags: ["a", "b"], range: ["min": 1]),
                                                                  into: request())

        XCTAssertEqual(encoded.url?.absoluteString,
                       "https://example.com/?page=2&range%5Bmin%5D=1&tags%5B%5D=a&tags%5B%5D=b")
    }

    // MARK: Nothing to encode

    func testNilParametersLeaveTheRequestUntouched() throws {
        let parameters: [String: String]? = nil
        let original = request(method: .post)

        let encoded = try URLEncodedFormParameterEncoder().encode(parameters, into: original)

        XCTAssertEqual(encoded, original)
        XCTAssertNil(encoded.value(forHTTPHeaderField: "Content-Type"))
    }

    // MARK: Errors

    func testMissingURLThrows() {
        var original = request()
        original.url = nil

        XCTAssertThrowsError(try URLEncodedFormParameterEncoder().encode(Parameters(), into: original)) { error in
            guard case .parameterEncoderFailed(reason: .missingRequiredComponent(.url))? = error as? AFError else {
                return XCTFail("Unexpected error: \(error)")
            }
        }
    }

    func testTopLevelArrayThrowsEncoderFailedForQueryAndBody() {
        for method in [HTTPMethod.get, .post] {
            XCTAssertThrowsError(try URLEncodedFormParameterEncoder().encode([1, 2], into: request(method: method))) { error in
                guard case let .parameterEncoderFailed(reason: .encoderFailed(error: underlying))? = error as? AFError,
                      case .invalidRootObject? = underlying as? URLEncodedFormEncoder.Error else {
                    return XCTFail("Unexpected error: \(error)")
                }
                XCTAssertTrue((error as? AFError)?.isParameterEncoderError == true)
            }
        }
    }

    func testTopLevelScalarThrowsEncoderFailed() {
        XCTAssertThrowsError(try URLEncodedFormParameterEncoder().encode("scalar", into: request(method: .post))) { error in
            guard case let .parameterEncoderFailed(reason: .encoderFailed(error: underlying))? = error as? AFError else {
                return XCTFail("Unexpected error: \(error)")
            }
            XCTAssertEqual((underlying as? URLEncodedFormEncoder.Error).map { "\($0)" },
                           "invalidRootObject(\"string(\\\"scalar\\\")\")")
        }
    }

    func testQueryTheURLCannotHoldThrowsInsteadOfCrashing() throws {
        var allowed = CharacterSet.afURLQueryAllowed
        allowed.insert(charactersIn: "[]|")
        let encoder = URLEncodedFormParameterEncoder(encoder: URLEncodedFormEncoder(allowedCharacters: allowed))

        XCTAssertThrowsError(try encoder.encode(["a": ["b": "|"]], into: request())) { error in
            guard case .parameterEncoderFailed(reason: .missingRequiredComponent(.url))? = error as? AFError else {
                return XCTFail("Unexpected error: \(error)")
            }
        }
        // The same set is fine for a body.
        XCTAssertEqual(body(try encoder.encode(["a": ["b": "|"]], into: request(method: .post))), "a[b]=|")
    }

    func testPermissiveButValidAllowedSetStillWorksInTheQuery() throws {
        var allowed = CharacterSet.afURLQueryAllowed
        allowed.insert(charactersIn: ":@!$'()*,;")
        let encoder = URLEncodedFormParameterEncoder(encoder: URLEncodedFormEncoder(allowedCharacters: allowed))

        XCTAssertEqual(try encoder.encode(["t": "10:30,(x)"], into: request()).url?.absoluteString,
                       "https://example.com/?t=10:30,(x)")
    }

    // MARK: Construction

    func testDefaultsAndStaticFactories() {
        XCTAssertEqual(URLEncodedFormParameterEncoder.default.destination, .methodDependent)

        func destination(of encoder: some ParameterEncoder) -> URLEncodedFormParameterEncoder.Destination? {
            (encoder as? URLEncodedFormParameterEncoder)?.destination
        }
        XCTAssertEqual(destination(of: .urlEncodedForm), .methodDependent)
        XCTAssertEqual(destination(of: .urlEncodedForm(destination: .httpBody)), .httpBody)

        let formEncoder = URLEncodedFormEncoder(alphabetizeKeyValuePairs: false)
        XCTAssertTrue(URLEncodedFormParameterEncoder.urlEncodedForm(encoder: formEncoder).encoder === formEncoder)
    }
}
