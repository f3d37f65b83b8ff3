import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    // MARK: Data

    /// Creates an `UploadRequest` sending `data`.
    ///
    /// - Parameters:
    ///   - data: The body.
    ///   - convertible: The URL.
    ///   - method: The method. `.post` by default.
    ///   - headers: Extra headers. `nil` by default.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - fileManager: Kept for compatibility. `.default` by default.
    ///   - requestModifier: Changes the `URLRequest` before it is sent. `nil` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    /// - Returns: The request.
    public func upload(_ data: Data, to convertible: any URLConvertible, method: HTTPMethod = .post, headers: HTTPHeaders? = nil,
                       interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil, fileManager: FileManager = .default,
                       requestModifier: RequestModifier? = nil) -> UploadRequest {
        upload(data, with: plainConvertible(convertible, method, headers, requestModifier), interceptor: interceptor, fileManager: fileManager)
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    /// Creates an `UploadRequest` sending `data` with a `URLRequestConvertible`.
    ///
    /// - Parameters:
    ///   - data: The body.
    ///   - convertible: The request.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - fileManager: Kept for compatibility. `.default` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    /// - Returns: The request.
    public func upload(_ data: Data, with convertible: any URLRequestConvertible, interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil,
                       fileManager: FileManager = .default) -> UploadRequest {
        makeUploadRequest(convertible, interceptor: interceptor) { .data(data) }
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    // MARK: File

    /// Creates an `UploadRequest` sending the file at `fileURL`, read in pieces.
    ///
    /// - Parameters:
    ///   - fileURL: The file. A file that cannot be read fails the request with
    ///     `AFError.createUploadableFailed`.
    ///   - convertible: The URL.
    ///   - method: The method. `.post` by default.
    ///   - headers: Extra headers. `nil` by default.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - fileManager: Kept for compatibility. `.default` by default.
    ///   - requestModifier: Changes the `URLRequest` before it is sent. `nil` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    /// - Returns: The request.
    public func upload(_ fileURL: URL, to convertible: any URLConvertible, method: HTTPMethod = .post, headers: HTTPHeaders? = nil,
                       interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil, fileManager: FileManager = .default,
                       requestModifier: RequestModifier? = nil) -> UploadRequest {
        upload(fileURL, with: plainConvertible(convertible, method, headers, requestModifier), interceptor: interceptor,
               fileManager: fileManager)
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    /// Creates an `UploadRequest` sending the file at `fileURL` with a `URLRequestConvertible`.
    ///
    /// - Parameters:
    ///   - fileURL: The file.
    ///   - convertible: The request.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - fileManager: Kept for compatibility. `.default` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    /// - Returns: The request.
    public func upload(_ fileURL: URL, with convertible: any URLRequestConvertible, interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil,
                       fileManager: FileManager = .default) -> UploadRequest {
        makeUploadRequest(convertible, interceptor: interceptor) { .file(fileURL, shouldRemove: false) }
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    // MARK: Stream

    /// Creates an `UploadRequest` sending what `stream` yields, chunked (its length is not
    /// known). A stream error fails the request.
    ///
    /// - Parameters:
    ///   - stream: The stream, read once, on Salvo's loop thread: it should not block.
    ///   - convertible: The URL.
    ///   - method: The method. `.post` by default.
    ///   - headers: Extra headers. `nil` by default.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - fileManager: Kept for compatibility. `.default` by default.
    ///   - requestModifier: Changes the `URLRequest` before it is sent. `nil` by default.
    /// - Returns: The request.
    public func upload(_ stream: InputStream, to convertible: any URLConvertible, method: HTTPMethod = .post, headers: HTTPHeaders? = nil,
                       interceptor: (any RequestInterceptor)? = nil, fileManager: FileManager = .default,
                       requestModifier: RequestModifier? = nil) -> UploadRequest {
        upload(stream, with: plainConvertible(convertible, method, headers, requestModifier), interceptor: interceptor,
               fileManager: fileManager)
    }

    /// Creates an `UploadRequest` sending what `stream` yields, with a `URLRequestConvertible`.
    ///
    /// - Parameters:
    ///   - stream: The stream, read once.
    ///   - convertible: The request.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - fileManager: Kept for compatibility. `.default` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    /// - Returns: The request.
    public func upload(_ stream: InputStream, with convertible: any URLRequestConvertible, interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil,
                       fileManager: FileManager = .default) -> UploadRequest {
        let uploadable = UploadRequest.Uploadable.stream(stream)
        return makeUploadRequest(convertible, interceptor: interceptor) { uploadable }
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    // MARK: Multipart

    /// Creates an `UploadRequest` sending the multipart form `multipartFormData` builds.
    ///
    /// - Parameters:
    ///   - multipartFormData: Fills the form, called at once.
    ///   - url: The URL.
    ///   - encodingMemoryThreshold: Forms smaller than this are encoded in memory, larger
    ///     ones into a temporary file removed once the request completes.
    ///     `MultipartFormData.encodingMemoryThreshold` by default.
    ///   - method: The method. `.post` by default.
    ///   - headers: Extra headers. `nil` by default.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - fileManager: Used by the form for its files. `.default` by default.
    ///   - requestModifier: Changes the `URLRequest` before it is sent. `nil` by default.
    /// - Returns: The request.
    public func upload(multipartFormData: (MultipartFormData) -> Void, to url: any URLConvertible,
                       usingThreshold encodingMemoryThreshold: UInt64 = MultipartFormData.encodingMemoryThreshold,
                       method: HTTPMethod = .post, headers: HTTPHeaders? = nil, interceptor: (any RequestInterceptor)? = nil,
                       fileManager: FileManager = .default, requestModifier: RequestModifier? = nil) -> UploadRequest {
        let form = MultipartFormData(fileManager: fileManager)
        multipartFormData(form)
        return upload(multipartFormData: form, to: url, usingThreshold: encodingMemoryThreshold, method: method, headers: headers,
                      interceptor: interceptor, fileManager: fileManager, requestModifier: requestModifier)
    }

    /// Creates an `UploadRequest` sending the multipart form `multipartFormData` builds, with
    /// a `URLRequestConvertible`.
    ///
    /// - Parameters:
    ///   - multipartFormData: Fills the form, called at once.
    ///   - request: The request.
    ///   - encodingMemoryThreshold: See the URL overload.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - fileManager: Used by the form for its files. `.default` by default.
    /// - Returns: The request.
    public func upload(multipartFormData: (MultipartFormData) -> Void, with request: any URLRequestConvertible,
                       usingThreshold encodingMemoryThreshold: UInt64 = MultipartFormData.encodingMemoryThreshold,
                       interceptor: (any RequestInterceptor)? = nil, fileManager: FileManager = .default) -> UploadRequest {
        let form = MultipartFormData(fileManager: fileManager)
        multipartFormData(form)
        return upload(multipartFormData: form, with: request, usingThreshold: encodingMemoryThreshold, interceptor: interceptor,
                      fileManager: fileManager)
    }

    /// Creates an `UploadRequest` sending a multipart form.
    ///
    /// - Parameters:
    ///   - multipartFormData: The form, encoded when the request starts.
    ///   - url: The URL.
    ///   - encodingMemoryThreshold: See the closure overload.
    ///   - method: The method. `.post` by default.
    ///   - headers: Extra headers. `nil` by default.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - fileManager: Kept for compatibility. `.default` by default.
    ///   - requestModifier: Changes the `URLRequest` before it is sent. `nil` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    /// - Returns: The request.
    public func upload(multipartFormData: MultipartFormData, to url: any URLConvertible,
                       usingThreshold encodingMemoryThreshold: UInt64 = MultipartFormData.encodingMemoryThreshold,
                       method: HTTPMethod = .post, headers: HTTPHeaders? = nil, interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil,
                       fileManager: FileManager = .default, requestModifier: RequestModifier? = nil) -> UploadRequest {
        upload(multipartFormData: multipartFormData, with: plainConvertible(url, method, headers, requestModifier),
               usingThreshold: encodingMemoryThreshold, interceptor: interceptor, fileManager: fileManager)
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    /// Creates an `UploadRequest` sending a multipart form, with a `URLRequestConvertible`.
    ///
    /// - Parameters:
    ///   - multipartFormData: The form, encoded when the request starts.
    ///   - request: The request; its `Content-Type` is set to the form's.
    ///   - encodingMemoryThreshold: See the closure overload.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - fileManager: Kept for compatibility. `.default` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    /// - Returns: The request.
    public func upload(multipartFormData: MultipartFormData, with request: any URLRequestConvertible,
                       usingThreshold encodingMemoryThreshold: UInt64 = MultipartFormData.encodingMemoryThreshold,
                       interceptor: (any RequestInterceptor)? = nil,
                       shouldAutomaticallyResume: Bool? = nil, fileManager: FileManager = .default) -> UploadRequest {
        let convertible = MultipartConvertible(base: request, contentType: multipartFormData.contentType)
        return makeUploadRequest(convertible, interceptor: interceptor) {
            switch try multipartFormData.encodedBody(threshold: encodingMemoryThreshold) {
            case let .data(data): return .data(data)
            case let .file(url): return .file(url, shouldRemove: true)
            }
        }
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    // MARK: Helpers

    private func plainConvertible(_ url: any URLConvertible, _ method: HTTPMethod, _ headers: HTTPHeaders?,
                                  _ requestModifier: RequestModifier?) -> RequestConvertible {
        RequestConvertible(url: url, method: method, parameters: nil, encoding: URLEncoding.default, headers: headers,
                           requestModifier: requestModifier)
    }

    private func makeUploadRequest(_ convertible: any URLRequestConvertible, interceptor: (any RequestInterceptor)?,
                                   makeUploadable: @escaping @Sendable () throws -> UploadRequest.Uploadable) -> UploadRequest {
        let plainSpec = (convertible as? RequestConvertible)?.plainSpec
        return UploadRequest(convertible: convertible, plainSpec: plainSpec, underlyingQueue: rootQueue,
                             serializationQueue: serializationQueue, eventMonitor: monitor, interceptor: interceptor,
                             delegate: self, makeUploadable: makeUploadable)
    }
}

/// A multipart upload's request: the base request with the form's `Content-Type`.
struct MultipartConvertible: URLRequestConvertible {
    let base: any URLRequestConvertible
    let contentType: String

    func asURLRequest() throws -> URLRequest {
        var request = try base.asURLRequest()
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        return request
    }
}
