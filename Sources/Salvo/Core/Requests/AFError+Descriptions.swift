import Foundation

// The texts say what Alamofire's say, in Salvo's words. Errors nested inside are shown with
// their `localizedDescription`, except where a reason wraps a system error whose type and code
// matter more than its prose (file checks, stream I/O, encoders); those show `\(error)`.

extension AFError: LocalizedError {
    /// A readable account of the failure, naming the reason and any error behind it.
    public var errorDescription: String? {
        switch self {
        case let .createUploadableFailed(error):
            "Could not create the upload body: \(error.localizedDescription)"
        case let .createURLRequestFailed(error):
            "Could not create the URLRequest: \(error.localizedDescription)"
        case let .downloadedFileMoveFailed(error, source, destination):
            "Could not move the downloaded file from \(source) to \(destination): \(error.localizedDescription)"
        case .explicitlyCancelled:
            "The request was cancelled explicitly."
        case let .invalidURL(url):
            "Not a valid URL: \(url)"
        case let .multipartEncodingFailed(reason):
            reason.localizedDescription
        case let .parameterEncodingFailed(reason):
            reason.localizedDescription
        case let .parameterEncoderFailed(reason):
            reason.localizedDescription
        case let .requestAdaptationFailed(error):
            "The request adapter failed: \(error.localizedDescription)"
        case let .requestRetryFailed(retryError, originalError):
            """
            Deciding whether to retry failed: \(retryError.localizedDescription); \
            the request had failed with: \(originalError.localizedDescription)
            """
        case let .responseValidationFailed(reason):
            reason.localizedDescription
        case let .responseSerializationFailed(reason):
            reason.localizedDescription
        case let .serverTrustEvaluationFailed(reason):
            "Server trust evaluation failed: \(reason.localizedDescription)"
        case .sessionDeinitialized:
            """
            The Session went away while the request was in flight, most likely because nothing kept \
            a reference to it. Keep the Session alive for as long as its requests run.
            """
        case let .sessionInvalidated(error):
            "The Session was invalidated: \(error?.localizedDescription ?? "no error was given.")"
        case let .sessionTaskFailed(error):
            "The transfer failed: \(error.localizedDescription)"
        case let .urlRequestValidationFailed(reason):
            "The URLRequest is not valid: \(reason.localizedDescription)"
        }
    }
}

extension AFError.UnexpectedInputStreamLength: LocalizedError {
    /// A readable account of the mismatch between declared and actual stream length.
    public var errorDescription: String? {
        "The input stream held \(bytesRead) bytes where \(bytesExpected) were declared."
    }
}

extension AFError.MultipartEncodingFailureReason {
    /// The reason in words; `AFError.errorDescription` shows it.
    var localizedDescription: String {
        switch self {
        case let .bodyPartURLInvalid(url):
            "Not a file URL: \(url)"
        case let .bodyPartFilenameInvalid(url):
            "No file name (with an extension) could be taken from the URL: \(url)"
        case let .bodyPartFileNotReachable(url):
            "The file cannot be reached: \(url)"
        case let .bodyPartFileNotReachableWithError(url, error):
            """
            Checking whether the file can be reached failed.
            URL: \(url)
            Error: \(error)
            """
        case let .bodyPartFileIsDirectory(url):
            "The URL names a directory, not a file: \(url)"
        case let .bodyPartFileSizeNotAvailable(url):
            "The size of the file is not available: \(url)"
        case let .bodyPartFileSizeQueryFailedWithError(url, error):
            """
            Reading the size of the file failed.
            URL: \(url)
            Error: \(error)
            """
        case let .bodyPartInputStreamCreationFailed(url):
            "The file cannot be opened for reading: \(url)"
        case let .outputStreamCreationFailed(url):
            "The output file cannot be created: \(url)"
        case let .outputStreamFileAlreadyExists(url):
            "A file already exists at the output URL: \(url)"
        case let .outputStreamURLInvalid(url):
            "The output URL is not a file URL: \(url)"
        case let .outputStreamWriteFailed(error):
            "Writing the encoded form data failed: \(error)"
        case let .inputStreamReadFailed(error):
            "Reading a body part's input stream failed: \(error)"
        }
    }
}

extension AFError.ParameterEncodingFailureReason {
    /// The reason in words; `AFError.errorDescription` shows it.
    var localizedDescription: String {
        switch self {
        case .missingURL:
            "The URLRequest to encode into has no URL."
        case let .jsonEncodingFailed(error):
            "The parameters could not be encoded as JSON:\n\(error.localizedDescription)"
        case let .customEncodingFailed(error):
            "The custom parameter encoding failed: \(error.localizedDescription)"
        }
    }
}

extension AFError.ParameterEncoderFailureReason {
    /// The reason in words; `AFError.errorDescription` shows it.
    var localizedDescription: String {
        switch self {
        case let .missingRequiredComponent(component):
            "The request lacks a component the encoder needs: \(component)"
        case let .encoderFailed(error):
            "The underlying encoder failed: \(error)"
        }
    }
}

extension AFError.ResponseValidationFailureReason {
    /// The reason in words; `AFError.errorDescription` shows it.
    var localizedDescription: String {
        switch self {
        case .dataFileNil:
            "The response could not be validated: there is no data file."
        case let .dataFileReadFailed(url):
            "The response could not be validated: the data file could not be read: \(url)."
        case let .missingContentType(types):
            """
            The response has no Content-Type, and the acceptable types \
            (\(types.joined(separator: ","))) do not include "*/*".
            """
        case let .unacceptableContentType(acceptableTypes, responseType):
            """
            The response Content-Type "\(responseType)" is none of the acceptable types: \
            \(acceptableTypes.joined(separator: ",")).
            """
        case let .unacceptableStatusCode(code):
            "The response status code is not acceptable: \(code)."
        case let .customValidationFailed(error):
            "The custom response validation failed: \(error.localizedDescription)"
        }
    }
}

extension AFError.ResponseSerializationFailureReason {
    /// The reason in words; `AFError.errorDescription` shows it.
    var localizedDescription: String {
        switch self {
        case .inputDataNilOrZeroLength:
            "The response could not be serialized: there is no data, or it is empty."
        case .inputFileNil:
            "The response could not be serialized: there is no input file."
        case let .inputFileReadFailed(url):
            "The response could not be serialized: the input file could not be read: \(url)."
        case let .stringSerializationFailed(encoding):
            "The response could not be decoded as a string with encoding \(encoding)."
        case let .jsonSerializationFailed(error):
            "The response could not be parsed as JSON:\n\(error.localizedDescription)"
        case let .decodingFailed(error):
            "The response could not be decoded:\n\(error.localizedDescription)"
        case let .customSerializationFailed(error):
            "The custom response serializer failed:\n\(error.localizedDescription)"
        case let .invalidEmptyResponse(type):
            """
            The response was empty, which cannot become a value of type \(type). \
            Expect Empty for responses that carry no body.
            """
        }
    }
}

extension AFError.ServerTrustFailureReason {
    /// The reason in words; `AFError.errorDescription` shows it.
    var localizedDescription: String {
        switch self {
        case let .noRequiredEvaluator(host):
            "Host \(host) requires a ServerTrustEvaluating value, and none was configured."
        case .noCertificatesFound:
            "No certificates were found or given to evaluate against."
        case .noPublicKeysFound:
            "No public keys were found or given to evaluate against."
        case let .defaultEvaluationFailed(output):
            "The certificate of \(output.host) is not trusted: \(output.error.message)"
        case let .hostValidationFailed(output):
            "The certificate does not name \(output.host): \(output.error.message)"
        case let .revocationCheckFailed(output, _):
            "The revocation check of \(output.host)'s certificate failed: \(output.error.message)"
        case let .certificatePinningFailed(host, pinned):
            "The certificate chain of \(host) reaches none of the \(pinned.count) pinned certificates."
        case let .publicKeyPinningFailed(host, pinned):
            "The certificate of \(host) carries none of the \(pinned.count) pinned public keys."
        case let .customEvaluationFailed(error):
            "The custom trust evaluation failed: \(error.localizedDescription)"
        }
    }
}

extension AFError.URLRequestValidationFailureReason {
    /// The reason in words; `AFError.errorDescription` shows it.
    var localizedDescription: String {
        switch self {
        case let .bodyDataInGETRequest(data):
            """
            A GET request cannot carry a body, and this one does:
            \(String(decoding: data, as: UTF8.self))
            """
        case let .invalidHeaderName(name):
            "The header name \(name.debugDescription) is not an HTTP token, so the request was not sent."
        case let .invalidHeaderValue(name):
            "The value of the header \(name.debugDescription) holds CR, LF or NUL, so the request was not sent."
        case let .invalidHTTPMethod(method):
            "The method \(method.debugDescription) is not an HTTP token, so the request was not sent."
        }
    }
}
