import XCTest
import Synchronization
@testable import Salvo

// MARK: - Fixtures

/// httpbin's answer to `/get` and `/post`: the fields these tests read.
private struct HTTPBinEcho: Decodable, Sendable, Equatable {
    var url: String
    var headers: [String: String]
    var args: [String: String]?
}

/// httpbin's answer to `/gzip`, `/deflate` and `/brotli`, sent compressed.
private struct HTTPBinCompressed: Decodable, Sendable, Equatable {
    var method: String
    var headers: [String: String]
    var gzipped: Bool?
    var deflated: Bool?
    var brotli: Bool?
}

private struct Named: Codable, Sendable, Equatable {
    var name: String
}

/// A type with its own empty value.
private struct Nothing: Decodable, Sendable, Equatable, EmptyResponse {
    var marker: String
    static func emptyValue() -> Nothing { Nothing(marker: "empty") }
}

private func httpResponse(_ statusCode: Int = 200, contentType: String? = nil) -> HTTPURLResponse {
    HTTPURLResponse(url: URL(string: "http://example.com/")!, statusCode: statusCode, httpVersion: "HTTP/1.1",
                    headerFields: contentType.map { ["Content-Type": $0] } ?? [:])!
}

private func urlRequest(_ method: HTTPMethod) -> URLRequest {
    var request = URLRequest(url: URL(string: "http://example.com/")!)
    request.httpMethod = method.rawValue
    return request
}

/// The reason of an `AFError.responseSerializationFailed`, or `nil`.
private func serializationReason(_ error: (any Error)?) -> AFError.ResponseSerializationFailureReason? {
    guard case let .responseSerializationFailed(reason)? = error as? AFError else { return nil }
    return reason
}

private func isEmptyInputError(_ error: (any Error)?) -> Bool {
    if case .inputDataNilOrZeroLength? = serializationReason(error) { return true }
    return false
}

/// Holds the one response a handler delivers; a second delivery is recorded as a failure.
private final class DeliveredResponse<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, count: Int)>((nil, 0))
    func deliver(_ value: Value) { state.withLock { $0 = ($0.value ?? value, $0.count + 1) } }
    var value: Value? { state.withLock { $0.value } }
    var count: Int { state.withLock { $0.count } }
}

extension XCTestCase {
    /// Runs `start` with a handler queue and a completion, waits for the completion, and
    /// checks that it ran once, on that queue.
    fileprivate func awaitSerialized<Value: Sendable>(
        file: StaticString = #filePath, line: UInt = #line,
        _ start: (DispatchQueue, @escaping @Sendable (AFDataResponse<Value>) -> Void) -> Void
    ) -> AFDataResponse<Value>? {
        let queue = DispatchQueue(label: "test.serializer.handler")
        let delivered = DeliveredResponse<AFDataResponse<Value>>()
        let done = expectation(description: "response")
        start(queue) { response in
            dispatchPrecondition(condition: .onQueue(queue))
            delivered.deliver(response)
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(delivered.count, 1, "handler calls", file: file, line: line)
        return delivered.value
    }
}

/// Reaches the deprecated JSON API through a protocol whose requirement is not deprecated,
/// so these tests compile without deprecation warnings while still exercising it.
private protocol JSONAPICaller {
    func callResponseJSON(queue: DispatchQueue, emptyResponseCodes: Set<Int>,
                          completionHandler: @escaping @Sendable (AFDataResponse<Any>) -> Void)
}

extension DataRequest: JSONAPICaller {
    @available(*, deprecated)
    fileprivate func callResponseJSON(queue: DispatchQueue, emptyResponseCodes: Set<Int>,
                                      completionHandler: @escaping @Sendable (AFDataResponse<Any>) -> Void) {
        responseJSON(queue: queue, emptyResponseCodes: emptyResponseCodes, completionHandler: completionHandler)
    }
}

private protocol JSONSerializing: Sendable {
    func serializeJSON(_ request: URLRequest?, _ response: HTTPURLResponse?, _ data: Data?, _ error: (any Error)?) throws -> Any
}

private struct JSONSerializerCaller: JSONSerializing {
    @available(*, deprecated)
    func serializeJSON(_ request: URLRequest?, _ response: HTTPURLResponse?, _ data: Data?, _ error: (any Error)?) throws -> Any {
        try JSONResponseSerializer().serialize(request: request, response: response, data: data, error: error)
    }
}

private let jsonSerializer: any JSONSerializing = JSONSerializerCaller()

// MARK: - Unit tests

final class ResponseSerializerTests: XCTestCase {
    // MARK: String

    func testStringDecodesWithExplicitEncoding() throws {
        let serializer = StringResponseSerializer(encoding: .utf8)
        let text = try serializer.serialize(request: urlRequest(.get), response: httpResponse(contentType: "text/plain; charset=iso-8859-1"),
                                            data: Data("héllo".utf8), error: nil)
        XCTAssertEqual(text, "héllo", "an explicit encoding wins over the response's charset")
    }

    func testStringUsesTheResponseCharset() throws {
        let latin1 = Data([0x63, 0x61, 0x66, 0xE9])  // "café" in ISO-8859-1
        let serializer = StringResponseSerializer()
        XCTAssertEqual(try serializer.serialize(request: nil, response: httpResponse(contentType: "text/plain; charset=ISO-8859-1"),
                                                data: latin1, error: nil), "café")
        XCTAssertEqual(try serializer.serialize(request: nil, response: httpResponse(contentType: "text/plain; charset=\"utf-8\""),
                                                data: Data("café".utf8), error: nil), "café")
        XCTAssertEqual(try serializer.serialize(request: nil, response: httpResponse(contentType: "text/plain; charset=windows-1252"),
                                                data: Data([0x80]), error: nil), "€")
    }

    func testStringFallsBackToLatin1WithoutCharset() throws {
        let serializer = StringResponseSerializer()
        let text = try serializer.serialize(request: nil, response: httpResponse(contentType: "text/plain"), data: Data("é".utf8), error: nil)
        XCTAssertEqual(text, "Ã©", "UTF-8 bytes read as ISO-8859-1, Alamofire's default")
        let unknown = try serializer.serialize(request: nil, response: httpResponse(contentType: "text/plain; charset=x-unknown"),
                                               data: Data([0xE9]), error: nil)
        XCTAssertEqual(unknown, "é", "an unknown charset falls back to ISO-8859-1")
    }

    func testStringFailsOnBytesInvalidInTheEncoding() {
        let serializer = StringResponseSerializer(encoding: .utf8)
        XCTAssertThrowsError(try serializer.serialize(request: nil, response: httpResponse(), data: Data([0xFF, 0xFE, 0xFD]), error: nil)) { error in
            guard case let .stringSerializationFailed(encoding)? = serializationReason(error) else {
                return XCTFail("unexpected error \(error)")
            }
            XCTAssertEqual(encoding, .utf8)
            XCTAssertEqual((error as? AFError)?.failedStringEncoding, .utf8)
        }
    }

    func testStringEmptyBodyRules() throws {
        let serializer = StringResponseSerializer()
        XCTAssertEqual(try serializer.serialize(request: urlRequest(.head), response: httpResponse(200), data: nil, error: nil), "")
        XCTAssertEqual(try serializer.serialize(request: urlRequest(.get), response: httpResponse(204), data: Data(), error: nil), "")
        XCTAssertEqual(try serializer.serialize(request: urlRequest(.get), response: httpResponse(205), data: nil, error: nil), "")
        XCTAssertThrowsError(try serializer.serialize(request: urlRequest(.get), response: httpResponse(200), data: Data(), error: nil)) {
            XCTAssertTrue(isEmptyInputError($0), "\($0)")
        }
        XCTAssertThrowsError(try serializer.serialize(request: nil, response: nil, data: nil, error: nil)) {
            XCTAssertTrue(isEmptyInputError($0), "\($0)")
        }
        let custom = StringResponseSerializer(emptyResponseCodes: [200], emptyRequestMethods: [])
        XCTAssertEqual(try custom.serialize(request: urlRequest(.get), response: httpResponse(200), data: nil, error: nil), "")
        XCTAssertThrowsError(try custom.serialize(request: urlRequest(.head), response: httpResponse(204), data: nil, error: nil)) {
            XCTAssertTrue(isEmptyInputError($0), "custom rules replace the defaults: \($0)")
        }
    }

    func testStringRethrowsTheRequestError() {
        XCTAssertThrowsError(try StringResponseSerializer().serialize(request: nil, response: nil, data: Data("x".utf8),
                                                                      error: AFError.explicitlyCancelled)) {
            XCTAssertEqual(($0 as? AFError)?.isExplicitlyCancelledError, true)
        }
    }

    func testStringAppliesThePreprocessor() throws {
        let serializer = StringResponseSerializer(dataPreprocessor: GoogleXSSIPreprocessor(), encoding: .utf8)
        XCTAssertEqual(try serializer.serialize(request: nil, response: httpResponse(), data: Data(")]}',\nabc".utf8), error: nil), "abc")
    }

    func testStringDefaultsMatchAlamofire() {
        let serializer = StringResponseSerializer()
        XCTAssertNil(serializer.encoding)
        XCTAssertEqual(serializer.emptyResponseCodes, [204, 205])
        XCTAssertEqual(serializer.emptyRequestMethods, [.head])
        XCTAssertTrue(serializer.dataPreprocessor is PassthroughPreprocessor)
        let shorthand: StringResponseSerializer = .string(encoding: .ascii, emptyResponseCodes: [200])
        XCTAssertEqual(shorthand.encoding, .ascii)
        XCTAssertEqual(shorthand.emptyResponseCodes, [200])
        let plain: StringResponseSerializer = .string
        XCTAssertNil(plain.encoding)
    }

    func testIANACharsetNames() {
        XCTAssertEqual(String.Encoding(ianaCharsetName: "UTF-8"), .utf8)
        XCTAssertEqual(String.Encoding(ianaCharsetName: "iso-8859-1"), .isoLatin1)
        XCTAssertEqual(String.Encoding(ianaCharsetName: "utf-16le"), .utf16LittleEndian)
        XCTAssertEqual(String.Encoding(ianaCharsetName: "UTF-32BE"), .utf32BigEndian)
        XCTAssertEqual(String.Encoding(ianaCharsetName: "us-ascii"), .ascii)
        XCTAssertEqual(String.Encoding(ianaCharsetName: "Shift_JIS"), .shiftJIS)
        XCTAssertNil(String.Encoding(ianaCharsetName: "klingon"))
    }

    /// The engine path reads the charset from libcurl's `Content-Type` without building an
    /// `HTTPURLResponse`; it must agree with the Foundation path.
    func testSerializationInputFromSalvosOwnValues() throws {
        let spec = RequestSpec(url: URL(string: "http://example.com/")!, method: .head, headers: HTTPHeaders())
        let head = ResponseHead(statusCode: 203, httpVersion: "1.1", url: "http://example.com/",
                                contentType: "text/plain; Charset=\"ISO-8859-1\"; format=flowed", redirectURL: nil, rawHeaders: [])
        let input = SerializationInput(context: ResponseContext(spec: spec, urlRequest: nil, head: head))
        XCTAssertEqual(input.method, .head)
        XCTAssertEqual(input.statusCode, 203)
        XCTAssertEqual(input.textEncodingName, "ISO-8859-1")
        XCTAssertEqual(try StringResponseSerializer().serialize(input: input, data: Data([0xE9]), error: nil), "é")
        XCTAssertEqual(try StringResponseSerializer().serialize(input: input, data: nil, error: nil), "", "HEAD allows empty")
        XCTAssertEqual(try DecodableResponseSerializer<Empty>().serialize(input: input, data: nil, error: nil), Empty.value)
    }

    // MARK: Decodable

    func testDecodableDecodesJSON() throws {
        let value = try DecodableResponseSerializer<Named>().serialize(request: nil, response: httpResponse(),
                                                                       data: Data(#"{"name":"salvo"}"#.utf8), error: nil)
        XCTAssertEqual(value, Named(name: "salvo"))
    }

    func testDecodableWrapsDecoderErrors() {
        XCTAssertThrowsError(try DecodableResponseSerializer<Named>().serialize(request: nil, response: httpResponse(),
                                                                                data: Data(#"{"nom":1}"#.utf8), error: nil)) { error in
            guard case let .decodingFailed(underlying)? = serializationReason(error) else { return XCTFail("unexpected error \(error)") }
            XCTAssertTrue(underlying is DecodingError, "\(underlying)")
        }
    }

    func testDecodableEmptyBodies() throws {
        XCTAssertEqual(try DecodableResponseSerializer<Empty>().serialize(request: urlRequest(.delete), response: httpResponse(204),
                                                                          data: nil, error: nil), Empty.value)
        XCTAssertEqual(try DecodableResponseSerializer<Nothing>().serialize(request: urlRequest(.head), response: httpResponse(200),
                                                                            data: Data(), error: nil), Nothing(marker: "empty"))
        XCTAssertThrowsError(try DecodableResponseSerializer<Named>().serialize(request: urlRequest(.delete), response: httpResponse(204),
                                                                                data: nil, error: nil)) { error in
            guard case let .invalidEmptyResponse(type)? = serializationReason(error) else { return XCTFail("unexpected error \(error)") }
            XCTAssertEqual(type, "Named")
        }
        XCTAssertThrowsError(try DecodableResponseSerializer<Empty>().serialize(request: urlRequest(.get), response: httpResponse(200),
                                                                                data: Data(), error: nil)) {
            XCTAssertTrue(isEmptyInputError($0), "an empty 200 to GET is not allowed, even for Empty: \($0)")
        }
    }

    func testEmptyDecodesFromAnObject() throws {
        XCTAssertEqual(try DecodableResponseSerializer<Empty>().serialize(request: nil, response: httpResponse(),
                                                                          data: Data(#"{"ignored":true}"#.utf8), error: nil), .value)
        XCTAssertEqual(Empty.emptyValue(), Empty.value)
    }

    func testDecodableWithPropertyListDecoderAndPreprocessor() throws {
        let plist = try PropertyListEncoder().encode(Named(name: "plist"))
        XCTAssertEqual(try DecodableResponseSerializer<Named>(decoder: PropertyListDecoder()).serialize(request: nil, response: httpResponse(),
                                                                                                      data: plist, error: nil),
                       Named(name: "plist"))
        let guarded = DecodableResponseSerializer<Named>(dataPreprocessor: .googleXSSI)
        XCTAssertEqual(try guarded.serialize(request: nil, response: httpResponse(), data: Data(")]}',\n{\"name\":\"x\"}".utf8), error: nil),
                       Named(name: "x"))
    }

    func testDecodableShorthandAndDefaults() {
        let serializer: DecodableResponseSerializer<Named> = .decodable(of: Named.self, emptyRequestMethods: [.head, .delete])
        XCTAssertEqual(serializer.emptyRequestMethods, [.head, .delete])
        XCTAssertEqual(serializer.emptyResponseCodes, [204, 205])
        XCTAssertTrue(serializer.decoder is JSONDecoder)
    }

    // MARK: JSON

    func testJSONParsesAndAllowsFragments() throws {
        let object = try jsonSerializer.serializeJSON(nil, httpResponse(), Data(#"{"a":[1,"b"]}"#.utf8), nil)
        let dictionary = try XCTUnwrap(object as? [String: Any])
        XCTAssertEqual((dictionary["a"] as? [Any])?.count, 2)
        XCTAssertEqual(try jsonSerializer.serializeJSON(nil, httpResponse(), Data("42".utf8), nil) as? Int, 42)
    }

    func testJSONEmptyBodyIsNSNullWhereAllowed() throws {
        XCTAssertTrue(try jsonSerializer.serializeJSON(urlRequest(.head), httpResponse(200), nil, nil) is NSNull)
        XCTAssertTrue(try jsonSerializer.serializeJSON(urlRequest(.get), httpResponse(204), Data(), nil) is NSNull)
        XCTAssertThrowsError(try jsonSerializer.serializeJSON(urlRequest(.get), httpResponse(200), Data(), nil)) {
            XCTAssertTrue(isEmptyInputError($0), "\($0)")
        }
    }

    func testJSONWrapsParseErrors() {
        XCTAssertThrowsError(try jsonSerializer.serializeJSON(nil, httpResponse(), Data("{nope".utf8), nil)) { error in
            guard case .jsonSerializationFailed? = serializationReason(error) else { return XCTFail("unexpected error \(error)") }
        }
    }
}

// MARK: - Integration tests

final class ResponseSerializerIntegrationTests: XCTestCase {
    private let session = Session(responseQueue: DispatchQueue(label: "test.serializers.responses"))

    func testResponseStringFromGet() throws {
        let url = try TestServers.shared.url(.httpbin, "/get?q=1")
        let response = awaitSerialized { queue, done in session.request(url).responseString(queue: queue, completionHandler: done) }
        XCTAssertEqual(response?.response?.statusCode, 200)
        let text = try XCTUnwrap(response?.value, "\(String(describing: response?.debugDescription))")
        XCTAssertTrue(text.contains(#""q": "1""#), text)
    }

    func testResponseStringUsesTheServersCharset() throws {
        let url = try TestServers.shared.url(.httpbin, "/encoding/utf8")
        let response = awaitSerialized { queue, done in session.request(url).responseString(queue: queue, completionHandler: done) }
        XCTAssertEqual(response?.response?.value(forHTTPHeaderField: "Content-Type")?.lowercased().contains("charset=utf-8"), true)
        XCTAssertEqual(response?.value?.contains("∮ E⋅da = Q"), true, "decoded as UTF-8, from the Content-Type")

        let latin1 = awaitSerialized { queue, done in
            session.request(url).responseString(queue: queue, encoding: .isoLatin1, completionHandler: done)
        }
        XCTAssertEqual(latin1?.value?.contains("∮ E⋅da = Q"), false, "an explicit encoding overrides the charset")
        XCTAssertEqual(latin1?.value?.isEmpty, false)
    }

    func testResponseDecodableFromGet() throws {
        let url = try TestServers.shared.url(.httpbin, "/get?name=salvo")
        let response = awaitSerialized { queue, done in
            session.request(url, headers: ["X-Probe": "1"]).responseDecodable(of: HTTPBinEcho.self, queue: queue, completionHandler: done)
        }
        let echo = try XCTUnwrap(response?.value, "\(String(describing: response?.debugDescription))")
        XCTAssertEqual(echo.url, url.absoluteString)
        XCTAssertEqual(echo.args, ["name": "salvo"])
        XCTAssertEqual(echo.headers["X-Probe"], "1")
    }

    func testResponseDecodableReportsDecodingFailure() throws {
        let url = try TestServers.shared.url(.httpbin, "/get")
        let response = awaitSerialized { queue, done in
            session.request(url).responseDecodable(of: Named.self, queue: queue, completionHandler: done)
        }
        guard case .decodingFailed? = serializationReason(response?.error) else {
            return XCTFail("expected decodingFailed, got \(String(describing: response?.error))")
        }
        XCTAssertEqual(response?.response?.statusCode, 200, "the response is kept with the failure")
        XCTAssertEqual(response?.data?.isEmpty, false)
    }

    func testNoContentForDeleteAndHead() throws {
        let noContent = try TestServers.shared.url(.httpbin, "/status/204")
        let empty = awaitSerialized { queue, done in
            session.request(noContent, method: .delete).responseDecodable(of: Empty.self, queue: queue, completionHandler: done)
        }
        XCTAssertEqual(empty?.response?.statusCode, 204)
        XCTAssertEqual(empty?.value, Empty.value)

        let text = awaitSerialized { queue, done in
            session.request(noContent, method: .delete).responseString(queue: queue, completionHandler: done)
        }
        XCTAssertEqual(text?.value, "")

        let notEmptyResponse = awaitSerialized { queue, done in
            session.request(noContent, method: .delete).responseDecodable(of: Named.self, queue: queue, completionHandler: done)
        }
        guard case let .invalidEmptyResponse(type)? = serializationReason(notEmptyResponse?.error) else {
            return XCTFail("expected invalidEmptyResponse, got \(String(describing: notEmptyResponse?.error))")
        }
        XCTAssertEqual(type, "Named")

        let get = try TestServers.shared.url(.httpbin, "/get")
        let head = awaitSerialized { queue, done in
            session.request(get, method: .head).responseDecodable(of: Nothing.self, queue: queue, completionHandler: done)
        }
        XCTAssertEqual(head?.response?.statusCode, 200)
        XCTAssertEqual(head?.value, Nothing(marker: "empty"), "HEAD allows an empty body")
        let headString = awaitSerialized { queue, done in session.request(get, method: .head).responseString(queue: queue, completionHandler: done) }
        XCTAssertEqual(headString?.value, "")
    }

    func testEmptyBodyWhereNotAllowed() throws {
        let url = try TestServers.shared.url(.httpbin, "/status/200")
        let strict = awaitSerialized { queue, done in session.request(url).responseString(queue: queue, completionHandler: done) }
        XCTAssertTrue(isEmptyInputError(strict?.error), "\(String(describing: strict?.error))")

        let lenient = awaitSerialized { queue, done in
            session.request(url).responseString(queue: queue, emptyResponseCodes: [200], completionHandler: done)
        }
        XCTAssertEqual(lenient?.value, "")
    }

    func testCompressedBodiesAreDecoded() throws {
        let cases = [("/gzip", "gzip", \HTTPBinCompressed.gzipped), ("/deflate", "deflate", \HTTPBinCompressed.deflated),
                     ("/brotli", "br", \HTTPBinCompressed.brotli)]
        for (path, encoding, flag) in cases {
            let url = try TestServers.shared.url(.httpbin, path)
            let response = awaitSerialized { queue, done in
                session.request(url).responseDecodable(of: HTTPBinCompressed.self, queue: queue, completionHandler: done)
            }
            let echo = try XCTUnwrap(response?.value, "\(path): \(String(describing: response?.debugDescription))")
            XCTAssertEqual(echo[keyPath: flag], true, path)
            XCTAssertEqual(echo.method, "GET", path)
            XCTAssertEqual(response?.response?.value(forHTTPHeaderField: "Content-Encoding"), encoding, path)
        }
    }

    func testResponseJSON() throws {
        // The handler gets `AFDataResponse<Any>`, as in Alamofire; it is summarised there,
        // on the handler's queue, into Sendable values for the test thread.
        let summarise: @Sendable (Any) -> String = { value in
            if value is NSNull { return "null" }
            let arguments = (value as? [String: Any])?["args"] as? [String: Any]
            return "k=\(arguments?["k"] as? String ?? "?")"
        }
        let url = try TestServers.shared.url(.httpbin, "/get?k=v")
        let response = awaitSerialized { queue, done in
            (session.request(url) as any JSONAPICaller).callResponseJSON(queue: queue, emptyResponseCodes: [204, 205]) {
                done($0.map(summarise))
            }
        }
        XCTAssertEqual(response?.value, "k=v", "\(String(describing: response?.debugDescription))")

        let noContent = try TestServers.shared.url(.httpbin, "/status/204")
        let empty = awaitSerialized { queue, done in
            (session.request(noContent, method: .delete) as any JSONAPICaller).callResponseJSON(queue: queue, emptyResponseCodes: [204, 205]) {
                done($0.map(summarise))
            }
        }
        XCTAssertEqual(empty?.value, "null")
    }

    func testSerializerShorthandsAtTheCallSite() throws {
        let url = try TestServers.shared.url(.httpbin, "/get")
        let text = awaitSerialized { queue, done in
            session.request(url).response(queue: queue, responseSerializer: .string(encoding: .utf8), completionHandler: done)
        }
        XCTAssertEqual(text?.value?.contains("\"url\""), true)
        let echo = awaitSerialized { queue, done in
            session.request(url).response(queue: queue, responseSerializer: .decodable(of: HTTPBinEcho.self), completionHandler: done)
        }
        XCTAssertEqual(echo?.value?.url, url.absoluteString)
        let data = awaitSerialized { queue, done in
            session.request(url).response(queue: queue, responseSerializer: .data(), completionHandler: done)
        }
        XCTAssertEqual(data?.value?.isEmpty, false)
    }

    func testACustomSerializerGetsTheRequestAndResponseEveryTime() throws {
        let url = try TestServers.shared.url(.httpbin, "/get")
        // Twice: the second response finds the type already known not to be one of Salvo's.
        for _ in 0..<2 {
            let seen = awaitSerialized { queue, done in
                session.request(url).response(queue: queue, responseSerializer: StatusAndMethodSerializer(), completionHandler: done)
            }
            XCTAssertEqual(seen?.value, "200 GET")
        }
    }

    func testSerializerRunsOncePerHandlerOnItsQueue() throws {
        let url = try TestServers.shared.url(.httpbin, "/get")
        let request = session.request(url)
        let first = awaitSerialized { queue, done in request.responseString(queue: queue, completionHandler: done) }
        // Added after completion: runs at once, with the same body.
        let second = awaitSerialized { queue, done in request.responseDecodable(of: HTTPBinEcho.self, queue: queue, completionHandler: done) }
        XCTAssertEqual(first?.data, second?.data)
        XCTAssertEqual(second?.value?.url, url.absoluteString)
    }
}

/// A serializer of the user's own, which reads the `HTTPURLResponse` and `URLRequest` it is given.
private struct StatusAndMethodSerializer: DataResponseSerializerProtocol {
    func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> String {
        if let error { throw error }
        return "\(response?.statusCode ?? 0) \(request?.httpMethod ?? "?")"
    }
}
