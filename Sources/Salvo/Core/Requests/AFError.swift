import Foundation

// `indirect`: every case with a payload lives in a box, so the optional errors a request copies
// and destroys on its path (most of them `nil`) cost a retain, not a walk of the payloads.

/// The error type Salvo returns: every failure a request can meet, with the case names and
/// reasons Alamofire 5 uses, so error handling written for Alamofire carries over.
public indirect enum AFError: Error, Sendable {
    /// The underlying reason a multipart encoding failed.
    public enum MultipartEncodingFailureReason: Sendable {
        /// The `fileURL` given is not a file URL.
        case bodyPartURLInvalid(url: URL)
        /// The file name could not be taken from the `fileURL`'s last path component.
        case bodyPartFilenameInvalid(in: URL)
        /// The file at the `fileURL` cannot be reached.
        case bodyPartFileNotReachable(at: URL)
        /// Checking whether the file at `fileURL` can be reached threw an error.
        case bodyPartFileNotReachableWithError(atURL: URL, error: any Error)
        /// The `fileURL` names a directory.
        case bodyPartFileIsDirectory(at: URL)
        /// The size of the file at `fileURL` could not be read.
        case bodyPartFileSizeNotAvailable(at: URL)
        /// Reading the size of the file at `fileURL` threw an error.
        case bodyPartFileSizeQueryFailedWithError(forURL: URL, error: any Error)
        /// An `InputStream` could not be opened for the file at `fileURL`.
        case bodyPartInputStreamCreationFailed(for: URL)
        /// An `OutputStream` could not be created for the file at `fileURL`.
        case outputStreamCreationFailed(for: URL)
        /// A file already exists at the output URL.
        case outputStreamFileAlreadyExists(at: URL)
        /// The output URL is not a file URL.
        case outputStreamURLInvalid(url: URL)
        /// Writing the encoded body failed.
        case outputStreamWriteFailed(error: any Error)
        /// Reading a body part's input stream failed.
        case inputStreamReadFailed(error: any Error)
    }

    /// The error carried by `MultipartEncodingFailureReason.inputStreamReadFailed` when a
    /// stream ends before the length it was declared with.
    public struct UnexpectedInputStreamLength: Error, Sendable {
        /// The number of bytes the stream was declared to hold.
        public var bytesExpected: UInt64
        /// The number of bytes read before the stream ended.
        public var bytesRead: UInt64

        /// Creates the error.
        ///
        /// - Parameters:
        ///   - bytesExpected: The number of bytes the stream was declared to hold.
        ///   - bytesRead: The number of bytes actually read from it.
        public init(bytesExpected: UInt64, bytesRead: UInt64) {
            self.bytesExpected = bytesExpected
            self.bytesRead = bytesRead
        }
    }

    /// The underlying reason a `ParameterEncoding` failed.
    public enum ParameterEncodingFailureReason: Sendable {
        /// The `URLRequest` had no URL to encode parameters into.
        case missingURL
        /// `JSONSerialization` could not encode the parameters.
        case jsonEncodingFailed(error: any Error)
        /// A custom encoding threw.
        case customEncodingFailed(error: any Error)
    }

    /// The underlying reason a `ParameterEncoder` failed.
    public enum ParameterEncoderFailureReason: Sendable {
        /// The part of the `URLRequest` an encoder needed and did not find.
        public enum RequiredComponent: Sendable {
            /// The `URL` was missing or could not be built.
            case url
            /// The `HTTPMethod` could not be read from the raw value given.
            case httpMethod(rawValue: String)
        }

        /// A component the encoder needs was missing.
        case missingRequiredComponent(RequiredComponent)
        /// The underlying encoder threw.
        case encoderFailed(error: any Error)
    }

    /// The underlying reason response validation failed.
    public enum ResponseValidationFailureReason: Sendable {
        /// The downloaded file URL was `nil`.
        case dataFileNil
        /// The downloaded file could not be read.
        case dataFileReadFailed(at: URL)
        /// The response had no `Content-Type` while the validation asked for one of these.
        case missingContentType(acceptableContentTypes: [String])
        /// The response's `Content-Type` matched none of the acceptable ones.
        case unacceptableContentType(acceptableContentTypes: [String], responseContentType: String)
        /// The response's status code was not acceptable.
        case unacceptableStatusCode(code: Int)
        /// A custom validator failed with this error.
        case customValidationFailed(error: any Error)
    }

    /// The underlying reason response serialization failed.
    public enum ResponseSerializationFailureReason: Sendable {
        /// The server returned no data (or `Data` of zero length) where some was expected.
        case inputDataNilOrZeroLength
        /// The file the serializer was to read was `nil`.
        case inputFileNil
        /// The file the serializer was to read could not be read.
        case inputFileReadFailed(at: URL)
        /// The bytes could not be decoded with this string encoding.
        case stringSerializationFailed(encoding: String.Encoding)
        /// `JSONSerialization` failed.
        case jsonSerializationFailed(error: any Error)
        /// A `DataDecoder` failed.
        case decodingFailed(error: any Error)
        /// A custom serializer failed.
        case customSerializationFailed(error: any Error)
        /// An empty response was not allowed for the type named.
        case invalidEmptyResponse(type: String)
    }

    /// The underlying reason server trust evaluation failed.
    ///
    /// - Note: On Linux libcurl checks the certificate during the handshake, so the cases that
    ///   carry Alamofire's `SecTrust` values carry what libcurl reported instead (`Output`),
    ///   and the pinning cases the certificates or keys that were pinned. A request whose
    ///   session has no `ServerTrustManager` reports a failed check as `sessionTaskFailed`
    ///   wrapping `URLError(.serverCertificateUntrusted)`, as URLSession does.
    public enum ServerTrustFailureReason: Sendable {
        /// What libcurl reported about a failed check.
        public struct Output: Sendable {
            /// The host whose certificate failed.
            public let host: String
            /// libcurl's code and message (OpenSSL's verify result among them).
            public let error: CurlError

            /// Creates the report of a failed check.
            ///
            /// - Parameters:
            ///   - host: The host.
            ///   - error: libcurl's report.
            public init(host: String, error: CurlError) {
                self.host = host
                self.error = error
            }
        }

        /// No evaluator was configured for the host.
        case noRequiredEvaluator(host: String)
        /// No certificates were found to pin against.
        case noCertificatesFound
        /// No public keys were found to pin against.
        case noPublicKeysFound
        /// The chain did not lead to a trusted anchor (or the certificate was out of date).
        case defaultEvaluationFailed(output: Output)
        /// The certificate does not name the host.
        case hostValidationFailed(output: Output)
        /// The server stapled no OCSP response, or one that does not vouch for its certificate.
        case revocationCheckFailed(output: Output, options: RevocationTrustEvaluator.Options)
        /// The chain reaches none of the pinned certificates (DER).
        case certificatePinningFailed(host: String, pinnedCertificates: [Data])
        /// The server's certificate carries none of the pinned keys (DER SubjectPublicKeyInfo).
        case publicKeyPinningFailed(host: String, pinnedKeys: [Data])
        /// A custom evaluation failed with this error.
        case customEvaluationFailed(error: any Error)
    }

    /// The underlying reason a `URLRequest` failed validation before being sent.
    public enum URLRequestValidationFailureReason: Sendable {
        /// A `GET` request carried a body.
        case bodyDataInGETRequest(Data)
        /// A header name is not an HTTP token (RFC 9110 section 5.1): empty, or holding a
        /// space, a colon, a control character or another separator. Salvo only.
        case invalidHeaderName(String)
        /// A header's value holds CR, LF or NUL, which would end the header line early (a
        /// second header or a second request smuggled in, or the rest cut off). Salvo only.
        case invalidHeaderValue(name: String)
        /// The method is not an HTTP token (RFC 9110 section 9.1). Salvo only.
        case invalidHTTPMethod(String)
    }

    /// The `UploadableConvertible` threw while building the upload body.
    case createUploadableFailed(error: any Error)
    /// The `URLRequestConvertible` threw while building the request.
    case createURLRequestFailed(error: any Error)
    /// Moving a downloaded file to its destination failed.
    case downloadedFileMoveFailed(error: any Error, source: URL, destination: URL)
    /// The request was cancelled by a `cancel()` call.
    case explicitlyCancelled
    /// A `URLConvertible` did not produce a valid `URL`.
    case invalidURL(url: any URLConvertible)
    /// Multipart encoding failed.
    case multipartEncodingFailed(reason: MultipartEncodingFailureReason)
    /// A `ParameterEncoding` failed.
    case parameterEncodingFailed(reason: ParameterEncodingFailureReason)
    /// A `ParameterEncoder` failed.
    case parameterEncoderFailed(reason: ParameterEncoderFailureReason)
    /// A `RequestAdapter` failed.
    case requestAdaptationFailed(error: any Error)
    /// A `RequestRetrier` threw while deciding whether to retry.
    case requestRetryFailed(retryError: any Error, originalError: any Error)
    /// A `validate()` call failed.
    case responseValidationFailed(reason: ResponseValidationFailureReason)
    /// A response serializer failed.
    case responseSerializationFailed(reason: ResponseSerializationFailureReason)
    /// Server trust evaluation failed.
    case serverTrustEvaluationFailed(reason: ServerTrustFailureReason)
    /// The `Session` was deinitialized while the request was in flight.
    case sessionDeinitialized
    /// The `Session` was invalidated, with the error that caused it, if any.
    case sessionInvalidated(error: (any Error)?)
    /// The transfer failed; the underlying error is usually a `URLError`.
    case sessionTaskFailed(error: any Error)
    /// The `URLRequest` failed validation before being sent.
    case urlRequestValidationFailed(reason: URLRequestValidationFailureReason)
}

extension Error {
    /// The receiver as an `AFError`, or `nil` when it is another type.
    public var asAFError: AFError? { self as? AFError }

    /// The receiver as an `AFError`, or a `fatalError` with the message given.
    ///
    /// - Parameters:
    ///   - message: The message to stop the process with when the receiver is not an `AFError`.
    ///   - file: The file reported by `fatalError`. Defaults to the caller's.
    ///   - line: The line reported by `fatalError`. Defaults to the caller's.
    /// - Returns: The receiver as an `AFError`.
    public func asAFError(orFailWith message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> AFError {
        guard let afError = self as? AFError else { fatalError(message(), file: file, line: line) }
        return afError
    }

    /// The receiver as an `AFError`, or `defaultAFError` when it is another type.
    func asAFError(or defaultAFError: @autoclosure () -> AFError) -> AFError {
        self as? AFError ?? defaultAFError()
    }
}

// MARK: - Which case

extension AFError {
    /// Whether the error is `.createUploadableFailed`; `underlyingError` then holds its error.
    public var isCreateUploadableError: Bool { if case .createUploadableFailed = self { true } else { false } }

    /// Whether the error is `.createURLRequestFailed`; `underlyingError` then holds its error.
    public var isCreateURLRequestError: Bool { if case .createURLRequestFailed = self { true } else { false } }

    /// Whether the error is `.downloadedFileMoveFailed`; `underlyingError`, `sourceURL` and
    /// `destinationURL` then hold its values.
    public var isDownloadedFileMoveError: Bool { if case .downloadedFileMoveFailed = self { true } else { false } }

    /// Whether the error is `.explicitlyCancelled`.
    public var isExplicitlyCancelledError: Bool { if case .explicitlyCancelled = self { true } else { false } }

    /// Whether the error is `.invalidURL`; `urlConvertible` then holds the value that failed.
    public var isInvalidURLError: Bool { if case .invalidURL = self { true } else { false } }

    /// Whether the error is `.multipartEncodingFailed`; `url` and `underlyingError` then hold
    /// the reason's values, when it has them.
    public var isMultipartEncodingError: Bool { if case .multipartEncodingFailed = self { true } else { false } }

    /// Whether the error is `.parameterEncodingFailed`; `underlyingError` then holds the reason's error, if any.
    public var isParameterEncodingError: Bool { if case .parameterEncodingFailed = self { true } else { false } }

    /// Whether the error is `.parameterEncoderFailed`; `underlyingError` then holds the reason's error, if any.
    public var isParameterEncoderError: Bool { if case .parameterEncoderFailed = self { true } else { false } }

    /// Whether the error is `.requestAdaptationFailed`; `underlyingError` then holds the adapter's error.
    public var isRequestAdaptationError: Bool { if case .requestAdaptationFailed = self { true } else { false } }

    /// Whether the error is `.requestRetryFailed`; `underlyingError` then holds the retrier's error.
    public var isRequestRetryError: Bool { if case .requestRetryFailed = self { true } else { false } }

    /// Whether the error is `.responseValidationFailed`; `acceptableContentTypes`,
    /// `responseContentType`, `responseCode` and `underlyingError` then hold the reason's values.
    public var isResponseValidationError: Bool { if case .responseValidationFailed = self { true } else { false } }

    /// Whether the error is `.responseSerializationFailed`; `failedStringEncoding` and
    /// `underlyingError` then hold the reason's values.
    public var isResponseSerializationError: Bool {
        if case .responseSerializationFailed = self { true } else { false }
    }

    /// Whether the error is `.serverTrustEvaluationFailed`; `underlyingError` then holds the
    /// reason's error, if any.
    public var isServerTrustEvaluationError: Bool {
        if case .serverTrustEvaluationFailed = self { true } else { false }
    }

    /// Whether the error is `.sessionDeinitialized`.
    public var isSessionDeinitializedError: Bool { if case .sessionDeinitialized = self { true } else { false } }

    /// Whether the error is `.sessionInvalidated`; `underlyingError` then holds its error, if any.
    public var isSessionInvalidatedError: Bool { if case .sessionInvalidated = self { true } else { false } }

    /// Whether the error is `.sessionTaskFailed`; `underlyingError` then holds the transfer's error.
    public var isSessionTaskError: Bool { if case .sessionTaskFailed = self { true } else { false } }

    /// Whether the error is `.urlRequestValidationFailed`.
    public var isURLRequestValidationError: Bool {
        if case .urlRequestValidationFailed = self { true } else { false }
    }
}

// MARK: - Associated values

extension AFError {
    /// The key under which a download's resume data travels in a `URLError`'s `userInfo`.
    ///
    /// It is the value of Apple's `NSURLSessionDownloadTaskResumeData`, which Linux Foundation
    /// does not declare; Salvo's downloads store their resume data under it so that
    /// `downloadResumeData` reads it the way Alamofire does.
    static let downloadResumeDataKey = "NSURLSessionDownloadTaskResumeData"

    /// The value that failed to become a `URL`, for `.invalidURL`.
    public var urlConvertible: (any URLConvertible)? {
        guard case let .invalidURL(url) = self else { return nil }
        return url
    }

    /// The file `URL` a `.multipartEncodingFailed` error is about, when its reason names one.
    ///
    /// - Note: Released Alamofire 5 answers this for multipart errors only, and so does Salvo;
    ///   for a transfer error, read `(underlyingError as? URLError)?.failingURL`.
    public var url: URL? {
        guard case let .multipartEncodingFailed(reason) = self else { return nil }
        return reason.url
    }

    /// The error that caused this one, for every case that carries one.
    ///
    /// For `.requestRetryFailed` it is the retrier's error, not the original failure.
    public var underlyingError: (any Error)? {
        switch self {
        case let .multipartEncodingFailed(reason): reason.underlyingError
        case let .parameterEncodingFailed(reason): reason.underlyingError
        case let .parameterEncoderFailed(reason): reason.underlyingError
        case let .responseValidationFailed(reason): reason.underlyingError
        case let .responseSerializationFailed(reason): reason.underlyingError
        case let .serverTrustEvaluationFailed(reason): reason.underlyingError
        case let .requestRetryFailed(retryError, _): retryError
        case let .sessionInvalidated(error): error
        case let .createUploadableFailed(error),
             let .createURLRequestFailed(error),
             let .downloadedFileMoveFailed(error, _, _),
             let .requestAdaptationFailed(error),
             let .sessionTaskFailed(error):
            error
        case .explicitlyCancelled, .invalidURL, .sessionDeinitialized, .urlRequestValidationFailed: nil
        }
    }

    /// The content types a `.responseValidationFailed` error accepted, when the reason is about content types.
    public var acceptableContentTypes: [String]? {
        guard case let .responseValidationFailed(reason) = self else { return nil }
        return reason.acceptableContentTypes
    }

    /// The `Content-Type` the response carried, for `.unacceptableContentType` validation failures.
    public var responseContentType: String? {
        guard case let .responseValidationFailed(reason) = self else { return nil }
        return reason.responseContentType
    }

    /// The status code that failed validation, for `.unacceptableStatusCode` validation failures.
    public var responseCode: Int? {
        guard case let .responseValidationFailed(reason) = self else { return nil }
        return reason.responseCode
    }

    /// The string encoding that could not decode a response, for `.stringSerializationFailed`.
    public var failedStringEncoding: String.Encoding? {
        guard case let .responseSerializationFailed(reason) = self else { return nil }
        return reason.failedStringEncoding
    }

    /// Where the downloaded file was, for `.downloadedFileMoveFailed`.
    public var sourceURL: URL? {
        guard case let .downloadedFileMoveFailed(_, source, _) = self else { return nil }
        return source
    }

    /// Where the downloaded file was to go, for `.downloadedFileMoveFailed`.
    public var destinationURL: URL? {
        guard case let .downloadedFileMoveFailed(_, _, destination) = self else { return nil }
        return destination
    }

    /// The data a failed download can resume from, when the transfer error carries some.
    ///
    /// It is read from the underlying `URLError`'s `userInfo`, under the key Apple names
    /// `NSURLSessionDownloadTaskResumeData`. Only a `DownloadRequest` produces it.
    public var downloadResumeData: Data? {
        (underlyingError as? URLError)?.userInfo[Self.downloadResumeDataKey] as? Data
    }
}

// MARK: - Reasons' values

extension AFError.MultipartEncodingFailureReason {
    /// The file `URL` the failure is about, if the reason names one.
    var url: URL? {
        switch self {
        case let .bodyPartURLInvalid(url),
             let .bodyPartFilenameInvalid(url),
             let .bodyPartFileNotReachable(url),
             let .bodyPartFileNotReachableWithError(url, _),
             let .bodyPartFileIsDirectory(url),
             let .bodyPartFileSizeNotAvailable(url),
             let .bodyPartFileSizeQueryFailedWithError(url, _),
             let .bodyPartInputStreamCreationFailed(url),
             let .outputStreamCreationFailed(url),
             let .outputStreamFileAlreadyExists(url),
             let .outputStreamURLInvalid(url):
            url
        case .outputStreamWriteFailed, .inputStreamReadFailed:
            nil
        }
    }

    /// The system or stream error behind the failure, if any.
    var underlyingError: (any Error)? {
        switch self {
        case let .bodyPartFileNotReachableWithError(_, error),
             let .bodyPartFileSizeQueryFailedWithError(_, error),
             let .outputStreamWriteFailed(error),
             let .inputStreamReadFailed(error):
            error
        case .bodyPartURLInvalid, .bodyPartFilenameInvalid, .bodyPartFileNotReachable, .bodyPartFileIsDirectory,
             .bodyPartFileSizeNotAvailable, .bodyPartInputStreamCreationFailed, .outputStreamCreationFailed,
             .outputStreamFileAlreadyExists, .outputStreamURLInvalid:
            nil
        }
    }
}

extension AFError.ParameterEncodingFailureReason {
    /// The error JSON serialization or the custom encoding threw, if any.
    var underlyingError: (any Error)? {
        switch self {
        case let .jsonEncodingFailed(error), let .customEncodingFailed(error): error
        case .missingURL: nil
        }
    }
}

extension AFError.ParameterEncoderFailureReason {
    /// The error the underlying encoder threw, if any.
    var underlyingError: (any Error)? {
        switch self {
        case let .encoderFailed(error): error
        case .missingRequiredComponent: nil
        }
    }
}

extension AFError.ResponseValidationFailureReason {
    /// The acceptable content types, for the two content-type reasons.
    var acceptableContentTypes: [String]? {
        switch self {
        case let .missingContentType(types), let .unacceptableContentType(types, _): types
        case .dataFileNil, .dataFileReadFailed, .unacceptableStatusCode, .customValidationFailed: nil
        }
    }

    /// The response's content type, for `.unacceptableContentType`.
    var responseContentType: String? {
        switch self {
        case let .unacceptableContentType(_, responseType): responseType
        case .dataFileNil, .dataFileReadFailed, .missingContentType, .unacceptableStatusCode,
             .customValidationFailed:
            nil
        }
    }

    /// The status code, for `.unacceptableStatusCode`.
    var responseCode: Int? {
        switch self {
        case let .unacceptableStatusCode(code): code
        case .dataFileNil, .dataFileReadFailed, .missingContentType, .unacceptableContentType,
             .customValidationFailed:
            nil
        }
    }

    /// The custom validator's error, for `.customValidationFailed`.
    var underlyingError: (any Error)? {
        switch self {
        case let .customValidationFailed(error): error
        case .dataFileNil, .dataFileReadFailed, .missingContentType, .unacceptableContentType,
             .unacceptableStatusCode:
            nil
        }
    }
}

extension AFError.ResponseSerializationFailureReason {
    /// The encoding that failed, for `.stringSerializationFailed`.
    var failedStringEncoding: String.Encoding? {
        switch self {
        case let .stringSerializationFailed(encoding): encoding
        case .inputDataNilOrZeroLength, .inputFileNil, .inputFileReadFailed, .jsonSerializationFailed,
             .decodingFailed, .customSerializationFailed, .invalidEmptyResponse:
            nil
        }
    }

    /// The error the serializer or decoder threw, if any.
    var underlyingError: (any Error)? {
        switch self {
        case let .jsonSerializationFailed(error), let .decodingFailed(error), let .customSerializationFailed(error):
            error
        case .inputDataNilOrZeroLength, .inputFileNil, .inputFileReadFailed, .stringSerializationFailed,
             .invalidEmptyResponse:
            nil
        }
    }
}

extension AFError.ServerTrustFailureReason {
    /// The custom evaluator's error, or the `URLError` of what libcurl reported.
    var underlyingError: (any Error)? {
        switch self {
        case let .customEvaluationFailed(error): error
        case let .defaultEvaluationFailed(output), let .hostValidationFailed(output), let .revocationCheckFailed(output, _):
            output.error.urlError
        case .noRequiredEvaluator, .noCertificatesFound, .noPublicKeysFound, .certificatePinningFailed, .publicKeyPinningFailed: nil
        }
    }
}
