import XCTest
@testable import Salvo
import SalvoTestSupport

/// DeflateRequestCompressor: its header rules, and a compressed body as the server gets it.
final class DeflateRequestCompressorTests: XCTestCase {
    private let body = Data(String(repeating: #"{"name":"salvo","kind":"compressible"}"#, count: 200).utf8)

    private func adapt(_ request: URLRequest, with compressor: DeflateRequestCompressor) -> Result<URLRequest, any Error> {
        let box = Box<Result<URLRequest, any Error>>()
        compressor.adapt(request, for: Session.default) { box.set($0) }
        return box.value!
    }

    private func request(body: Data?, contentEncoding: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: "http://example.invalid/")!)
        request.httpMethod = "POST"
        request.httpBody = body
        if let contentEncoding { request.setValue(contentEncoding, forHTTPHeaderField: "Content-Encoding") }
        return request
    }

    func testCompressesTheBodyAndSetsTheHeader() throws {
        let adapted = try adapt(request(body: body), with: DeflateRequestCompressor()).get()
        XCTAssertEqual(adapted.value(forHTTPHeaderField: "Content-Encoding"), "deflate")
        let compressed = try XCTUnwrap(adapted.httpBody)
        XCTAssertLessThan(compressed.count, body.count / 10)
        XCTAssertEqual(compressed.first, 0x78, "not a zlib stream")
        XCTAssertEqual(try Zlib.inflate(compressed, capacity: body.count), body)
    }

    func testDuplicateHeaderBehaviours() throws {
        let existing = request(body: body, contentEncoding: "gzip")
        XCTAssertThrowsError(try adapt(existing, with: DeflateRequestCompressor()).get()) { error in
            XCTAssertTrue(error is DeflateRequestCompressor.DuplicateHeaderError)
        }
        let skipped = try adapt(existing, with: DeflateRequestCompressor(duplicateHeaderBehavior: .skip)).get()
        XCTAssertEqual(skipped.httpBody, body)
        XCTAssertEqual(skipped.value(forHTTPHeaderField: "Content-Encoding"), "gzip")
        let replaced = try adapt(existing, with: .deflateCompressor(duplicateHeaderBehavior: .replace)).get()
        XCTAssertEqual(replaced.value(forHTTPHeaderField: "Content-Encoding"), "deflate")
        XCTAssertEqual(try Zlib.inflate(try XCTUnwrap(replaced.httpBody), capacity: body.count), body)
    }

    func testThresholdAndMissingBodyLeaveTheRequestAlone() throws {
        let small = try adapt(request(body: Data("tiny".utf8)),
                              with: DeflateRequestCompressor(shouldCompressBodyData: { $0.count >= 1024 })).get()
        XCTAssertEqual(small.httpBody, Data("tiny".utf8))
        XCTAssertNil(small.value(forHTTPHeaderField: "Content-Encoding"))
        let none = try adapt(request(body: nil), with: DeflateRequestCompressor()).get()
        XCTAssertNil(none.httpBody)
    }

    func testTheServerReceivesTheCompressedBody() throws {
        let session = Session(interceptor: DeflateRequestCompressor(), responseQueue: DispatchQueue(label: "test"))
        var request = URLRequest(url: try TestServers.shared.url(.httpbin, "/post"))
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let echo = json(awaitData(session.request(request)).data)
        XCTAssertEqual((echo["headers"] as? [String: String])?["Content-Encoding"], "deflate")
        // httpbin echoes a binary body as a base64 data URL.
        let dataURL = try XCTUnwrap(echo["data"] as? String)
        let base64 = try XCTUnwrap(dataURL.split(separator: ",", maxSplits: 1).last)
        let received = try XCTUnwrap(Data(base64Encoded: String(base64)))
        XCTAssertEqual(try Zlib.inflate(received, capacity: body.count), body)
    }
}
