import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A handle to `await` a `DownloadRequest`'s serialized response.
///
/// Made by `DownloadRequest.serializingDownloadedFileURL()`, `serializingData()`,
/// `serializingString()`, `serializingDecodable(_:)` and `serializingDownload(using:)`. As
/// with `DataTask`, the serializer runs once, on the session's `serializationQueue`, and
/// nothing passes through the main queue.
public struct DownloadTask<Value: Sendable>: Sendable {
    /// The response, once the download has completed and been serialized.
    ///
    /// With `automaticallyCancelling: true` (the default), cancelling the awaiting Swift
    /// task cancels the download.
    @inlinable
    public var response: DownloadResponse<Value, AFError> {
        get async { await future.value(cancelling: shouldAutomaticallyCancel ? request : nil) }
    }

    /// The serialized result of `response`.
    @inlinable
    public var result: Result<Value, AFError> {
        get async { await response.result }
    }

    /// The serialized value of `response`.
    ///
    /// - Throws: The `AFError` the download or its serializer failed with.
    @inlinable
    public var value: Value {
        get async throws { try await result.get() }
    }

    // Inlinable with what they read, as `DataTask`'s: specialized in the caller's module.
    @usableFromInline let request: DownloadRequest
    @usableFromInline let future: ResponseFuture<DownloadResponse<Value, AFError>>
    @usableFromInline let shouldAutomaticallyCancel: Bool

    fileprivate init(request: DownloadRequest, future: ResponseFuture<DownloadResponse<Value, AFError>>, shouldAutomaticallyCancel: Bool) {
        self.request = request
        self.future = future
        self.shouldAutomaticallyCancel = shouldAutomaticallyCancel
    }

    /// Cancels the download.
    public func cancel() {
        request.cancel()
    }

    /// Cancels the download, making resume data, readable from `response`.
    ///
    /// - Parameter shouldProduceResumeData: Whether to make resume data.
    public func cancel(producingResumeData shouldProduceResumeData: Bool) {
        request.cancel(producingResumeData: shouldProduceResumeData)
    }

    /// Resumes the download.
    public func resume() {
        request.resume()
    }

    /// Suspends the download.
    public func suspend() {
        request.suspend()
    }
}

extension DownloadRequest {
    /// Makes a `DownloadTask` that awaits the downloaded file's `URL`.
    ///
    /// - Parameter shouldAutomaticallyCancel: Whether cancelling the awaiting Swift task
    ///   cancels the download. `true` by default.
    /// - Returns: The `DownloadTask`.
    public func serializingDownloadedFileURL(automaticallyCancelling shouldAutomaticallyCancel: Bool = true) -> DownloadTask<URL> {
        serializingDownload(using: URLResponseSerializer(), automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// Makes a `DownloadTask` that awaits the file's contents as `Data`.
    ///
    /// - Parameters:
    ///   - shouldAutomaticallyCancel: Whether cancelling the awaiting Swift task cancels the
    ///     download. `true` by default.
    ///   - dataPreprocessor: Applied to the data first. `PassthroughPreprocessor` by default.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    /// - Returns: The `DownloadTask`.
    public func serializingData(automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                                emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                                emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods) -> DownloadTask<Data> {
        serializingDownload(using: DataResponseSerializer(dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                                                          emptyRequestMethods: emptyRequestMethods),
                            automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// Makes a `DownloadTask` that awaits the file's contents decoded as a `String`.
    ///
    /// - Parameters:
    ///   - shouldAutomaticallyCancel: Whether cancelling the awaiting Swift task cancels the
    ///     download. `true` by default.
    ///   - dataPreprocessor: Applied to the data first. `PassthroughPreprocessor` by default.
    ///   - encoding: The encoding. `nil` by default: the response's charset, else ISO-8859-1.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    /// - Returns: The `DownloadTask`.
    public func serializingString(automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                  dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
                                  encoding: String.Encoding? = nil,
                                  emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
                                  emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods) -> DownloadTask<String> {
        serializingDownload(using: StringResponseSerializer(dataPreprocessor: dataPreprocessor, encoding: encoding,
                                                            emptyResponseCodes: emptyResponseCodes,
                                                            emptyRequestMethods: emptyRequestMethods),
                            automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// Makes a `DownloadTask` that awaits the file's contents decoded into a `Decodable` type.
    ///
    /// - Parameters:
    ///   - type: The type to decode. Inferred by default.
    ///   - shouldAutomaticallyCancel: Whether cancelling the awaiting Swift task cancels the
    ///     download. `true` by default.
    ///   - dataPreprocessor: Applied to the data first. `PassthroughPreprocessor` by default.
    ///   - decoder: Decodes the data. `JSONDecoder()` by default.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    /// - Returns: The `DownloadTask`.
    public func serializingDecodable<Value: Decodable & Sendable>(_ type: Value.Type = Value.self,
                                                                  automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                                                  dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<Value>.defaultDataPreprocessor,
                                                                  decoder: any DataDecoder = JSONDecoder(),
                                                                  emptyResponseCodes: Set<Int> = DecodableResponseSerializer<Value>.defaultEmptyResponseCodes,
                                                                  emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<Value>.defaultEmptyRequestMethods)
        -> DownloadTask<Value> {
        serializingDownload(using: DecodableResponseSerializer<Value>(dataPreprocessor: dataPreprocessor, decoder: decoder,
                                                                      emptyResponseCodes: emptyResponseCodes,
                                                                      emptyRequestMethods: emptyRequestMethods),
                            automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// Makes a `DownloadTask` that awaits the download serialized by a `ResponseSerializer`,
    /// so that the serializers' static members resolve: `serializingDownload(using: .data)`.
    ///
    /// - Parameters:
    ///   - serializer: The serializer.
    ///   - shouldAutomaticallyCancel: Whether cancelling the awaiting Swift task cancels the
    ///     download. `true` by default.
    /// - Returns: The `DownloadTask`.
    public func serializingDownload<Serializer: ResponseSerializer>(using serializer: Serializer,
                                                                    automaticallyCancelling shouldAutomaticallyCancel: Bool = true)
        -> DownloadTask<Serializer.SerializedObject> {
        downloadTask(using: serializer, automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// Makes a `DownloadTask` that awaits the download serialized by `serializer`.
    ///
    /// The handler that runs the serializer is added now, so with `startRequestsImmediately`
    /// the download starts now.
    ///
    /// - Parameters:
    ///   - serializer: The serializer.
    ///   - shouldAutomaticallyCancel: Whether cancelling the awaiting Swift task cancels the
    ///     download. `true` by default.
    /// - Returns: The `DownloadTask`.
    public func serializingDownload<Serializer: DownloadResponseSerializerProtocol>(using serializer: Serializer,
                                                                                   automaticallyCancelling shouldAutomaticallyCancel: Bool = true)
        -> DownloadTask<Serializer.SerializedObject> {
        downloadTask(using: serializer, automaticallyCancelling: shouldAutomaticallyCancel)
    }

    private func downloadTask<Serializer: DownloadResponseSerializerProtocol>(using serializer: Serializer,
                                                                             automaticallyCancelling shouldAutomaticallyCancel: Bool)
        -> DownloadTask<Serializer.SerializedObject> {
        let future = ResponseFuture<AFDownloadResponse<Serializer.SerializedObject>>()
        let queue = delegate?.handlerQueue(serializationQueue) ?? serializationQueue
        // Strong: the handler list is emptied when the request finishes, which breaks the
        // cycle, and the request must outlive a dropped `DownloadTask`.
        appendHandler(queue: queue) { [self] in
            future.fulfill(serializedDownload(using: serializer))
        }
        return DownloadTask(request: self, future: future, shouldAutomaticallyCancel: shouldAutomaticallyCancel)
    }
}
