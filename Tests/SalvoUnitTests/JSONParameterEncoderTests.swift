import Foundation
import XCTest

@testable import Salvo

final class JSONParameterEncoderTests: XCTestCase {
    private struct Parameters: Encodable, Sendable {
        let property = "property"
    }

    private func request(_ url: String = "https://example.com/", method: HTTPMethod = .post) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.method = method
        return request
    }

    private func body(_ request: URLRequest) -> String? {
        request.httpBody.map { String(decoding: $0, as: UTF8.self) }
    }

    func testBodyAndContentType() throws {
        let encoded = try JSONParameterEncoder().encode(Parameters(), into: request())

        XCTAssertEqual(encoded.headers["Content-Type"], "application/json")
        XCTAssertEqual(body(encoded), "{\"property\":\"property\"}")
    }

    func testExplicitContentTypeIsKept() throws {
        var original = request()
        original.headers.update(.contentType("type"))

        let encoded = try JSONParameterEncoder().encode(Parameters(), into: original)

        XCTAssertEqual(encoded.headers["Content-Type"], "type")
        XCTAssertEqual(body(encoded), "{\"property\":\"property\"}")
    }

    func testDefault() throws {
        XCTAssertEqual(body(try JSONParameterEncoder.default.encode(Parameters(), into: request())), "{\"property\":\"property\"}")
    }

    func testPrettyPrinted() throws {
        let encoded = try JSONParameterEncoder.prettyPrinted.encode(Parameters(), into: request())

        XCTAssertEqual(body(encoded), "{\n  \"property\" : \"property\"\n}")
    }

    func testSortedKeys() throws {
        let encoded = try JSONParameterEncoder.sortedKeys.encode(["z": "z", "a": "a", "p": "p"], into: request())

        XCTAssertEqual(body(encoded), "{\"a\":\"a\",\"p\":\"p\",\"z\":\"z\"}")
    }

    func testCustomJSONEncoder() throws {
        struct Person: Encodable, Sendable {
            let firstName: String
            let bornAt: Date
        }
        let jsonEncoder = JSONEncoder()
        jsonEncoder.keyEncodingStrategy = .convertToSnakeCase
        jsonEncoder.dateEncodingStrategy = .secondsSince1970
        jsonEncoder.outputFormatting = .sortedKeys

        let encoded = try JSONParameterEncoder(encoder: jsonEncoder)
            .encode(Person(firstName: "Ada", bornAt: Date(timeIntervalSince1970: 0)), into: request())

        XCTAssertEqual(body(encoded), "{\"born_at\":0,\"first_name\":\"Ada\"}")
    }

    func testNestedContainersAndEscapes() throws {
        let parameters: [String: [String: [String]]] = ["a": ["b": ["c\"d", "é/😃"]]]

        XCTAssertEqual(body(try JSONParameterEncoder.sortedKeys.encode(parameters, into: request())),
                       "{\"a\":{\"b\":[\"c\\\"d\",\"é\\/😃\"]}}")
    }

    func testTopLevelArraysAndScalarsAreValidJSON() throws {
        XCTAssertEqual(body(try JSONParameterEncoder().encode([1, 2], into: request())), "[1,2]")
        XCTAssertEqual(body(try JSONParameterEncoder().encode("text", into: request())), "\"text\"")
    }

    func testGETRequestsGetABodyToo() throws {
        let encoded = try JSONParameterEncoder().encode(Parameters(), into: request("https://example.com/?a=1", method: .get))

        XCTAssertEqual(body(encoded), "{\"property\":\"property\"}")
        XCTAssertEqual(encoded.url?.absoluteString, "https://example.com/?a=1")
    }

    func testNilParametersLeaveTheRequestUntouched() throws {
        let parameters: [String: String]? = nil
        let original = request()

        let encoded = try JSONParameterEncoder().encode(parameters, into: original)

        XCTAssertEqual(encoded, original)
        XCTAssertNil(encoded.value(forHTTPHeaderField: "Content-Type"))
    }

    func testValueJSONCannotRepresentThrowsJSONEncodingFailed() {
        XCTAssertThrowsError(try JSONParameterEncoder().encode(["value": Double.nan], into: request())) { error in
            guard case let .parameterEncodingFailed(reason: .jsonEncodingFailed(error: underlying))? = error as? AFError else {
                return XCTFail("Unexpected error: \(error)")
            }
            XCTAssertTrue(underlying is EncodingError)
            XCTAssertTrue((error as? AFError)?.isParameterEncodingError == true)
        }
    }

    func testFailedEncodingSetsNoContentType() {
        var original = request()
        original.httpBody = Data("kept".utf8)
        var result = original
        XCTAssertThrowsError(result = try JSONParameterEncoder().encode(["value": Double.infinity], into: original))
        XCTAssertNil(result.value(forHTTPHeaderField: "Content-Type"))
    }

    func testStaticFactories() {
        func jsonEncoder(of encoder: some ParameterEncoder) -> JSONEncoder? {
            (encoder as? JSONParameterEncoder)?.encoder
        }
        XCTAssertNotNil(jsonEncoder(of: .json))

        let custom = JSONEncoder()
        XCTAssertTrue(jsonEncoder(of: .json(encoder: custom)) === custom)
        XCTAssertTrue(JSONParameterEncoder(encoder: custom).encoder === custom)
    }
}
