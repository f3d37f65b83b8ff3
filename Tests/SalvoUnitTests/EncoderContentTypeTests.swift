import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import Salvo

/// The `Content-Type` every body encoder adds: only when the request has none under any
/// spelling of the name, beside the headers it already has.
final class EncoderContentTypeTests: XCTestCase {
    private struct Parameters: Encodable, Sendable {
        let name = "Ada"
    }

    /// Each body encoder with the type it adds.
    private let encoders: [(name: String, type: String, encode: (URLRequest) throws -> URLRequest)] = [
        ("JSONParameterEncoder", "application/json", { try JSONParameterEncoder.default.encode(Parameters(), into: $0) }),
        ("URLEncodedFormParameterEncoder", "application/x-www-form-urlencoded; charset=utf-8",
         { try URLEncodedFormParameterEncoder.default.encode(Parameters(), into: $0) }),
        ("JSONEncoding", "application/json", { try JSONEncoding.default.encode($0, with: ["name": "Ada"]) }),
        ("URLEncoding", "application/x-www-form-urlencoded; charset=utf-8", { try URLEncoding.default.encode($0, with: ["name": "Ada"]) }),
    ]

    private func post(headers: [String: String]) -> URLRequest {
        var request = URLRequest(url: URL(string: "https://example.com/users")!)
        request.method = .post
        request.allHTTPHeaderFields = headers
        return request
    }

    func testEveryEncoderLeavesATypeSetUnderAnotherSpellingOfTheNameAlone() throws {
        for encoder in encoders {
            let encoded = try encoder.encode(post(headers: ["content-TYPE": "text/plain", "Accept": "*/*"]))
            XCTAssertEqual(encoded.value(forHTTPHeaderField: "Content-Type"), "text/plain", encoder.name)
            XCTAssertEqual(encoded.allHTTPHeaderFields?.count, 2, "\(encoder.name): \(encoded.allHTTPHeaderFields ?? [:])")
        }
    }

    func testEveryEncoderAddsItsTypeBesideTheHeadersTheRequestHas() throws {
        for encoder in encoders {
            let encoded = try encoder.encode(post(headers: ["Accept": "application/json", "X-Trace": "7"]))
            XCTAssertEqual(encoded.allHTTPHeaderFields, ["Accept": "application/json", "X-Trace": "7", "Content-Type": encoder.type],
                           encoder.name)
        }
    }
}
