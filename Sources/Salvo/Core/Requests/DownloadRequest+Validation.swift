import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DownloadRequest {
    /// Adds a validation, run when the response is complete and before the file is moved,
    /// in the order added, until one fails. A failed validation leaves no file at the
    /// destination.
    ///
    /// - Parameter validation: The validation; its `URL` is the partial file.
    /// - Returns: The request.
    @discardableResult
    public func validate(_ validation: @escaping Validation) -> Self {
        appendValidator { request, _, context in
            guard let response = context.httpResponse else { return .success(()) }
            return validation(context.attemptRequest, response, request.attempts.partialFileURL)
        }
    }

    /// Fails the request unless its status code is in `acceptableStatusCodes`.
    ///
    /// - Parameter acceptableStatusCodes: The codes that pass.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func validate<S: Sequence & Sendable>(statusCode acceptableStatusCodes: S) -> Self where S.Element == Int {
        appendValidator { _, head, _ in
            DataRequest.validate(statusCode: head.statusCode, acceptable: acceptableStatusCodes)
        }
    }

    /// Fails the request when the file is not empty and its `Content-Type` matches none of
    /// the acceptable types (`*` wildcards allowed), or is missing.
    ///
    /// - Parameter acceptableContentTypes: The media types that pass, read when the
    ///   response arrives.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func validate<S: Sequence & Sendable>(contentType acceptableContentTypes: @escaping @Sendable @autoclosure () -> S) -> Self where S.Element == String {
        appendValidator { request, head, _ in
            DataRequest.validate(contentType: Array(acceptableContentTypes()), head: head, data: request.bodyMarker)
        }
    }

    /// Validates the status code (200 to 299) and the `Content-Type` against the request's
    /// `Accept` header.
    ///
    /// - Returns: The request.
    @discardableResult
    public func validate() -> Self {
        // Two validators, as Alamofire chains them (see `DataRequest.validate()`).
        _ = appendValidator { _, head, _ in DataRequest.validate(statusCode: head.statusCode, acceptable: 200..<300) }
        return appendValidator { request, head, context in
            DataRequest.validate(contentType: DataRequest.acceptableContentTypes(for: context), head: head, data: request.bodyMarker)
        }
    }

    /// The content-type check only asks whether there is a body; a one-byte stand-in
    /// answers that without reading the file.
    private var bodyMarker: Data? { attempts.downloadedSize > 0 ? Data(count: 1) : nil }

    private func appendValidator(_ check: @escaping @Sendable (DownloadRequest, ResponseHead, ResponseContext) -> ValidationResult) -> Self {
        // Unowned: validators only run from `runValidators()`, called on this request.
        let validator: @Sendable () -> Void = { [unowned self] in
            let (error, context) = mutableState.withLock { ($0.error, $0.contexts.last) }
            guard error == nil, let context, let head = context.head else { return }
            let result = attempts.validating { check(self, head, context) }
            if case let .failure(failure) = result {
                let afError = failure.asAFError(or: .responseValidationFailed(reason: .customValidationFailed(error: failure)))
                mutableState.withLock { $0.lifecycle.failed(afError) }
            }
            if let monitor, let response = context.httpResponse {
                monitor.request(self, didValidateRequest: context.attemptRequest, response: response,
                                fileURL: attempts.partialFileURL ?? attempts.fileURL, withResult: result)
            }
        }
        mutableState.withLock { state in
            // `validate()` adds two.
            if state.validators.isEmpty { state.validators.reserveCapacity(2) }
            state.validators.append(validator)
        }
        return self
    }
}
