import Foundation
import XCTest

@testable import Salvo

final class AFErrorTests: XCTestCase {
    private struct Boom: Error, Equatable {}
    private struct Described: LocalizedError {
        var errorDescription: String? { "described" }
    }

    private let file = URL(fileURLWithPath: "/tmp/part.png")
    private let source = URL(fileURLWithPath: "/tmp/source")
    private let destination = URL(fileURLWithPath: "/tmp/destination")

    /// One instance of every case, in declaration order.
    private var everyCase: [AFError] {
        [
            .createUploadableFailed(error: Boom()),
            .createURLRequestFailed(error: Boom()),
            .downloadedFileMoveFailed(error: Boom(), source: source, destination: destination),
            .explicitlyCancelled,
            .invalidURL(url: "not a url"),
            .multipartEncodingFailed(reason: .bodyPartFileIsDirectory(at: file)),
            .parameterEncodingFailed(reason: .missingURL),
            .parameterEncoderFailed(reason: .missingRequiredComponent(.url)),
            .requestAdaptationFailed(error: Boom()),
            .requestRetryFailed(retryError: Boom(), originalError: Described()),
            .responseValidationFailed(reason: .unacceptableStatusCode(code: 404)),
            .responseSerializationFailed(reason: .inputDataNilOrZeroLength),
            .serverTrustEvaluationFailed(reason: .noCertificatesFound),
            .sessionDeinitialized,
            .sessionInvalidated(error: nil),
            .sessionTaskFailed(error: URLError(.timedOut)),
            .urlRequestValidationFailed(reason: .bodyDataInGETRequest(Data("body".utf8))),
        ]
    }

    func testEachBooleanIsTrueForItsCaseOnly() {
        let predicates: [(String, (AFError) -> Bool)] = [
            ("isCreateUploadableError", \.isCreateUploadableError),
            ("isCreateURLRequestError", \.isCreateURLRequestError),
            ("isDownloadedFileMoveError", \.isDownloadedFileMoveError),
            ("isExplicitlyCancelledError", \.isExplicitlyCancelledError),
            ("isInvalidURLError", \.isInvalidURLError),
            ("isMultipartEncodingError", \.isMultipartEncodingError),
            ("isParameterEncodingError", \.isParameterEncodingError),
            ("isParameterEncoderError", \.isParameterEncoderError),
            ("isRequestAdaptationError", \.isRequestAdaptationError),
            ("isRequestRetryError", \.isRequestRetryError),
            ("isResponseValidationError", \.isResponseValidationError),
            ("isResponseSerializationError", \.isResponseSerializationError),
            ("isServerTrustEvaluationError", \.isServerTrustEvaluationError),
            ("isSessionDeinitializedError", \.isSessionDeinitializedError),
            ("isSessionInvalidatedError", \.isSessionInvalidatedError),
            ("isSessionTaskError", \.isSessionTaskError),
            ("isURLRequestValidationError", \.isURLRequestValidationError),
        ]
        let cases = everyCase
        XCTAssertEqual(predicates.count, cases.count)
        for (row, error) in cases.enumerated() {
            for (column, (name, predicate)) in predicates.enumerated() {
                XCTAssertEqual(predicate(error), row == column, "\(name) on \(error)")
            }
        }
    }

    func testUnderlyingError() {
        let expected: [Bool] = [true, true, true, false, false, false, false, false, true, true, false, false, false,
                                false, false, true, false]
        for (error, hasUnderlying) in zip(everyCase, expected) {
            XCTAssertEqual(error.underlyingError != nil, hasUnderlying, "\(error)")
        }
        XCTAssertTrue(AFError.requestRetryFailed(retryError: Boom(), originalError: Described()).underlyingError is Boom)
        XCTAssertEqual(AFError.sessionTaskFailed(error: URLError(.timedOut)).underlyingError as? URLError,
                       URLError(.timedOut))
        XCTAssertTrue(AFError.sessionInvalidated(error: Boom()).underlyingError is Boom)
    }

    func testReasonsUnderlyingErrors() {
        let withError: [AFError] = [
            .multipartEncodingFailed(reason: .bodyPartFileNotReachableWithError(atURL: file, error: Boom())),
            .multipartEncodingFailed(reason: .bodyPartFileSizeQueryFailedWithError(forURL: file, error: Boom())),
            .multipartEncodingFailed(reason: .outputStreamWriteFailed(error: Boom())),
            .multipartEncodingFailed(reason: .inputStreamReadFailed(error: Boom())),
            .parameterEncodingFailed(reason: .jsonEncodingFailed(error: Boom())),
            .parameterEncodingFailed(reason: .customEncodingFailed(error: Boom())),
            .parameterEncoderFailed(reason: .encoderFailed(error: Boom())),
            .responseValidationFailed(reason: .customValidationFailed(error: Boom())),
            .responseSerializationFailed(reason: .jsonSerializationFailed(error: Boom())),
            .responseSerializationFailed(reason: .decodingFailed(error: Boom())),
            .responseSerializationFailed(reason: .customSerializationFailed(error: Boom())),
            .serverTrustEvaluationFailed(reason: .customEvaluationFailed(error: Boom())),
        ]
        for error in withError { XCTAssertTrue(error.underlyingError is Boom, "\(error)") }

        let withoutError: [AFError] = [
            .multipartEncodingFailed(reason: .bodyPartURLInvalid(url: file)),
            .parameterEncoderFailed(reason: .missingRequiredComponent(.httpMethod(rawValue: "BAD"))),
            .responseValidationFailed(reason: .dataFileNil),
            .responseSerializationFailed(reason: .invalidEmptyResponse(type: "Int")),
            .serverTrustEvaluationFailed(reason: .noRequiredEvaluator(host: "example.com")),
        ]
        for error in withoutError { XCTAssertNil(error.underlyingError, "\(error)") }
    }

    func testURLIsTheMultipartReasonsFileURL() {
        let withURL: [AFError.MultipartEncodingFailureReason] = [
            .bodyPartURLInvalid(url: file), .bodyPartFilenameInvalid(in: file), .bodyPartFileNotReachable(at: file),
            .bodyPartFileNotReachableWithError(atURL: file, error: Boom()), .bodyPartFileIsDirectory(at: file),
            .bodyPartFileSizeNotAvailable(at: file), .bodyPartFileSizeQueryFailedWithError(forURL: file, error: Boom()),
            .bodyPartInputStreamCreationFailed(for: file), .outputStreamCreationFailed(for: file),
            .outputStreamFileAlreadyExists(at: file), .outputStreamURLInvalid(url: file),
        ]
        for reason in withURL { XCTAssertEqual(AFError.multipartEncodingFailed(reason: reason).url, file) }
        XCTAssertNil(AFError.multipartEncodingFailed(reason: .outputStreamWriteFailed(error: Boom())).url)
        XCTAssertNil(AFError.multipartEncodingFailed(reason: .inputStreamReadFailed(error: Boom())).url)

        // Released Alamofire answers for multipart errors only, even when a URLError knows the URL.
        let failing = URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: file])
        XCTAssertNil(AFError.sessionTaskFailed(error: failing).url)
        XCTAssertNil(AFError.invalidURL(url: "x y").url)
    }

    func testURLConvertible() {
        XCTAssertEqual(AFError.invalidURL(url: "x y").urlConvertible as? String, "x y")
        XCTAssertNil(AFError.explicitlyCancelled.urlConvertible)
    }

    func testResponseValidationValues() {
        let status = AFError.responseValidationFailed(reason: .unacceptableStatusCode(code: 503))
        XCTAssertEqual(status.responseCode, 503)
        XCTAssertNil(status.acceptableContentTypes)
        XCTAssertNil(status.responseContentType)

        let type = AFError.responseValidationFailed(
            reason: .unacceptableContentType(acceptableContentTypes: ["application/json"], responseContentType: "text/html"))
        XCTAssertEqual(type.acceptableContentTypes, ["application/json"])
        XCTAssertEqual(type.responseContentType, "text/html")
        XCTAssertNil(type.responseCode)

        let missing = AFError.responseValidationFailed(reason: .missingContentType(acceptableContentTypes: ["a/b"]))
        XCTAssertEqual(missing.acceptableContentTypes, ["a/b"])
        XCTAssertNil(missing.responseContentType)

        XCTAssertNil(AFError.explicitlyCancelled.responseCode)
        XCTAssertNil(AFError.explicitlyCancelled.acceptableContentTypes)
    }

    func testSerializationAndMoveValues() {
        let string = AFError.responseSerializationFailed(reason: .stringSerializationFailed(encoding: .isoLatin1))
        XCTAssertEqual(string.failedStringEncoding, .isoLatin1)
        XCTAssertNil(AFError.responseSerializationFailed(reason: .inputFileNil).failedStringEncoding)

        let move = AFError.downloadedFileMoveFailed(error: Boom(), source: source, destination: destination)
        XCTAssertEqual(move.sourceURL, source)
        XCTAssertEqual(move.destinationURL, destination)
        XCTAssertNil(AFError.explicitlyCancelled.sourceURL)
        XCTAssertNil(AFError.explicitlyCancelled.destinationURL)
    }

    func testDownloadResumeData() {
        let resumeData = Data([1, 2, 3])
        let urlError = URLError(.networkConnectionLost, userInfo: ["NSURLSessionDownloadTaskResumeData": resumeData])
        XCTAssertEqual(AFError.sessionTaskFailed(error: urlError).downloadResumeData, resumeData)
        XCTAssertNil(AFError.sessionTaskFailed(error: URLError(.timedOut)).downloadResumeData)
        XCTAssertNil(AFError.explicitlyCancelled.downloadResumeData)
    }

    func testAsAFError() {
        let error: any Error = AFError.explicitlyCancelled
        XCTAssertNotNil(error.asAFError)
        XCTAssertTrue(error.asAFError(orFailWith: "unreachable").isExplicitlyCancelledError)
        XCTAssertNil(Boom().asAFError)
        XCTAssertTrue(Boom().asAFError(or: .sessionDeinitialized).isSessionDeinitializedError)
    }

    func testIsSendable() {
        func requireSendable(_: some Sendable) {}
        requireSendable(AFError.explicitlyCancelled)
        requireSendable(AFError.UnexpectedInputStreamLength(bytesExpected: 1, bytesRead: 0))
    }
}
