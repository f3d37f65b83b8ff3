import XCTest
@testable import Salvo

/// The content-type check of `validate()`, on response heads made by hand: wildcards,
/// parameters, case and whitespace, a missing type, and an empty body.
final class ContentTypeValidationTests: XCTestCase {
    private func head(_ contentType: String?) -> ResponseHead {
        ResponseHead(statusCode: 200, httpVersion: "1.1", url: "http://example.test/", contentType: contentType, redirectURL: nil,
                     rawHeaders: Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
    }

    private func passes(_ acceptable: [String], _ contentType: String?, data: Data? = Data("x".utf8)) -> Bool {
        if case .success = DataRequest.validate(contentType: acceptable, head: head(contentType), data: data) { return true }
        return false
    }

    func testAnyTypeAcceptsEveryResponseEvenWithoutAType() {
        XCTAssertTrue(passes(["*/*"], "application/json"))
        XCTAssertTrue(passes(["*/*"], nil))
        XCTAssertTrue(passes(["*/*"], "not a media type"))
        XCTAssertTrue(passes(["text/html", " */*;q=0.8"], "image/png"), "an Accept list with */* among others")
    }

    func testTypesMatchIgnoringCaseParametersAndSpaces() {
        XCTAssertTrue(passes(["application/json"], "Application/JSON ; charset=utf-8"))
        XCTAssertTrue(passes([" text/* "], "text/plain"))
        XCTAssertFalse(passes(["application/json"], "text/html"))
        XCTAssertFalse(passes(["text/*"], "application/json"))
    }

    func testAMissingTypeFailsUnlessAnyTypeIsAccepted() {
        guard case let .failure(error) = DataRequest.validate(contentType: ["application/json"], head: head(nil), data: Data("x".utf8)),
              case .responseValidationFailed(reason: .missingContentType(acceptableContentTypes: ["application/json"]))? = error.asAFError
        else { return XCTFail("expected missingContentType") }
    }

    func testAnEmptyBodyPassesWhateverItsType() {
        XCTAssertTrue(passes(["application/json"], "text/html", data: Data()))
        XCTAssertTrue(passes(["application/json"], nil, data: nil))
    }
}
