import Foundation
import XCTest

@testable import Salvo

final class AFErrorDescriptionTests: XCTestCase {
    private struct Described: LocalizedError {
        var errorDescription: String? { "described" }
    }

    private let file = URL(fileURLWithPath: "/tmp/part.png")
    private let other = URL(fileURLWithPath: "/tmp/other")

    private func assertDescription(_ error: AFError, _ expected: String, line: UInt = #line) {
        XCTAssertEqual(error.errorDescription, expected, line: line)
        XCTAssertEqual(error.localizedDescription, expected, "bridged description", line: line)
    }

    func testCases() {
        let error = Described()
        assertDescription(.createUploadableFailed(error: error), "Could not create the upload body: described")
        assertDescription(.createURLRequestFailed(error: error), "Could not create the URLRequest: described")
        assertDescription(.downloadedFileMoveFailed(error: error, source: file, destination: other),
                          "Could not move the downloaded file from file:///tmp/part.png to file:///tmp/other: described")
        assertDescription(.explicitlyCancelled, "The request was cancelled explicitly.")
        assertDescription(.invalidURL(url: "not a url"), "Not a valid URL: not a url")
        assertDescription(.requestAdaptationFailed(error: error), "The request adapter failed: described")
        assertDescription(.requestRetryFailed(retryError: error, originalError: URLError(.timedOut)),
                          "Deciding whether to retry failed: described; the request had failed with: "
                              + URLError(.timedOut).localizedDescription)
        assertDescription(.serverTrustEvaluationFailed(reason: .noCertificatesFound),
                          "Server trust evaluation failed: No certificates were found or given to evaluate against.")
        assertDescription(.sessionDeinitialized, """
            The Session went away while the request was in flight, most likely because nothing kept \
            a reference to it. Keep the Session alive for as long as its requests run.
            """)
        assertDescription(.sessionInvalidated(error: nil), "The Session was invalidated: no error was given.")
        assertDescription(.sessionInvalidated(error: error), "The Session was invalidated: described")
        assertDescription(.sessionTaskFailed(error: error), "The transfer failed: described")
        assertDescription(.urlRequestValidationFailed(reason: .bodyDataInGETRequest(Data("a=1".utf8))),
                          "The URLRequest is not valid: A GET request cannot carry a body, and this one does:\na=1")
    }

    func testMultipartReasons() {
        let expected: [(AFError.MultipartEncodingFailureReason, String)] = [
            (.bodyPartURLInvalid(url: file), "Not a file URL: file:///tmp/part.png"),
            (.bodyPartFilenameInvalid(in: file),
             "No file name (with an extension) could be taken from the URL: file:///tmp/part.png"),
            (.bodyPartFileNotReachable(at: file), "The file cannot be reached: file:///tmp/part.png"),
            (.bodyPartFileNotReachableWithError(atURL: file, error: Described()),
             "Checking whether the file can be reached failed.\nURL: file:///tmp/part.png\nError: Described()"),
            (.bodyPartFileIsDirectory(at: file), "The URL names a directory, not a file: file:///tmp/part.png"),
            (.bodyPartFileSizeNotAvailable(at: file), "The size of the file is not available: file:///tmp/part.png"),
            (.bodyPartFileSizeQueryFailedWithError(forURL: file, error: Described()),
             "Reading the size of the file failed.\nURL: file:///tmp/part.png\nError: Described()"),
            (.bodyPartInputStreamCreationFailed(for: file),
             "The file cannot be opened for reading: file:///tmp/part.png"),
            (.outputStreamCreationFailed(for: file), "The output file cannot be created: file:///tmp/part.png"),
            (.outputStreamFileAlreadyExists(at: file), "A file already exists at the output URL: file:///tmp/part.png"),
            (.outputStreamURLInvalid(url: file), "The output URL is not a file URL: file:///tmp/part.png"),
            (.outputStreamWriteFailed(error: Described()), "Writing the encoded form data failed: Described()"),
            (.inputStreamReadFailed(error: AFError.UnexpectedInputStreamLength(bytesExpected: 5, bytesRead: 3)),
             "Reading a body part's input stream failed: UnexpectedInputStreamLength(bytesExpected: 5, bytesRead: 3)"),
        ]
        for (reason, text) in expected { assertDescription(.multipartEncodingFailed(reason: reason), text) }

        XCTAssertEqual(AFError.UnexpectedInputStreamLength(bytesExpected: 5, bytesRead: 3).localizedDescription,
                       "The input stream held 3 bytes where 5 were declared.")
    }

    func testParameterReasons() {
        assertDescription(.parameterEncodingFailed(reason: .missingURL), "The URLRequest to encode into has no URL.")
        assertDescription(.parameterEncodingFailed(reason: .jsonEncodingFailed(error: Described())),
                          "The parameters could not be encoded as JSON:\ndescribed")
        assertDescription(.parameterEncodingFailed(reason: .customEncodingFailed(error: Described())),
                          "The custom parameter encoding failed: described")
        assertDescription(.parameterEncoderFailed(reason: .missingRequiredComponent(.url)),
                          "The request lacks a component the encoder needs: url")
        assertDescription(.parameterEncoderFailed(reason: .missingRequiredComponent(.httpMethod(rawValue: "BAD"))),
                          "The request lacks a component the encoder needs: httpMethod(rawValue: \"BAD\")")
        assertDescription(.parameterEncoderFailed(reason: .encoderFailed(error: Described())),
                          "The underlying encoder failed: Described()")
    }

    func testResponseValidationReasons() {
        let expected: [(AFError.ResponseValidationFailureReason, String)] = [
            (.dataFileNil, "The response could not be validated: there is no data file."),
            (.dataFileReadFailed(at: file),
             "The response could not be validated: the data file could not be read: file:///tmp/part.png."),
            (.missingContentType(acceptableContentTypes: ["application/json", "text/plain"]),
             "The response has no Content-Type, and the acceptable types (application/json,text/plain) do not include \"*/*\"."),
            (.unacceptableContentType(acceptableContentTypes: ["application/json"], responseContentType: "text/html"),
             "The response Content-Type \"text/html\" is none of the acceptable types: application/json."),
            (.unacceptableStatusCode(code: 418), "The response status code is not acceptable: 418."),
            (.customValidationFailed(error: Described()), "The custom response validation failed: described"),
        ]
        for (reason, text) in expected { assertDescription(.responseValidationFailed(reason: reason), text) }
    }

    func testResponseSerializationReasons() {
        let expected: [(AFError.ResponseSerializationFailureReason, String)] = [
            (.inputDataNilOrZeroLength, "The response could not be serialized: there is no data, or it is empty."),
            (.inputFileNil, "The response could not be serialized: there is no input file."),
            (.inputFileReadFailed(at: file),
             "The response could not be serialized: the input file could not be read: file:///tmp/part.png."),
            (.stringSerializationFailed(encoding: .utf8),
             "The response could not be decoded as a string with encoding \(String.Encoding.utf8)."),
            (.jsonSerializationFailed(error: Described()), "The response could not be parsed as JSON:\ndescribed"),
            (.decodingFailed(error: Described()), "The response could not be decoded:\ndescribed"),
            (.customSerializationFailed(error: Described()), "The custom response serializer failed:\ndescribed"),
            (.invalidEmptyResponse(type: "User"),
             "The response was empty, which cannot become a value of type User. Expect Empty for responses that carry no body."),
        ]
        for (reason, text) in expected { assertDescription(.responseSerializationFailed(reason: reason), text) }
    }

    func testServerTrustReasons() {
        let expected: [(AFError.ServerTrustFailureReason, String)] = [
            (.noRequiredEvaluator(host: "example.com"),
             "Host example.com requires a ServerTrustEvaluating value, and none was configured."),
            (.noCertificatesFound, "No certificates were found or given to evaluate against."),
            (.noPublicKeysFound, "No public keys were found or given to evaluate against."),
            (.customEvaluationFailed(error: Described()), "The custom trust evaluation failed: described"),
        ]
        for (reason, text) in expected {
            assertDescription(.serverTrustEvaluationFailed(reason: reason), "Server trust evaluation failed: \(text)")
        }
    }
}
