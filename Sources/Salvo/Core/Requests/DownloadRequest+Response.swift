import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DownloadRequest {
    /// Calls a handler with the unserialized response: the file's URL, or `nil`.
    ///
    /// - Parameters:
    ///   - queue: Where the handler runs. `.main` by default (see `Session.responseQueue`).
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func response(queue: DispatchQueue = .main,
                         completionHandler: @escaping @Sendable (AFDownloadResponse<URL?>) -> Void) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        // Strong: the handler list is emptied when it runs, which breaks the cycle.
        appendHandler(queue: queue) { [self] in
            let (context, error) = mutableState.withLock { ($0.contexts.last, $0.error) }
            let fileURL = attempts.fileURL
            let result: Result<URL?, AFError> = error.map { .failure($0) } ?? .success(fileURL)
            let response = AFDownloadResponse(context: context, fileURL: fileURL, resumeData: attempts.resumeData,
                                              metrics: context?.metrics, serializationDuration: 0, result: result)
            monitor?.request(self, didParseResponse: response)
            completionHandler(response)
        }
        return self
    }

    /// Calls a handler with the download serialized by `responseSerializer`.
    ///
    /// - Parameters:
    ///   - queue: Where the serializer and handler run. `.main` by default.
    ///   - responseSerializer: The serializer.
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @discardableResult
    public func response<Serializer: DownloadResponseSerializerProtocol>(queue: DispatchQueue = .main,
                                                                         responseSerializer: Serializer,
                                                                         completionHandler: @escaping @Sendable (AFDownloadResponse<Serializer.SerializedObject>) -> Void) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        appendHandler(queue: queue) { [self] in
            completionHandler(serializedDownload(using: responseSerializer))
        }
        return self
    }

    /// Calls a handler with the download serialized by a `ResponseSerializer`; this
    /// overload lets the shorthands (`.string`, `.decodable(of:)`, `.data()`) be written
    /// at the call site.
    ///
    /// - Parameters:
    ///   - queue: Where the serializer and handler run. `.main` by default.
    ///   - responseSerializer: The serializer.
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @discardableResult
    public func response<Serializer: ResponseSerializer>(queue: DispatchQueue = .main,
                                                         responseSerializer: Serializer,
                                                         completionHandler: @escaping @Sendable (AFDownloadResponse<Serializer.SerializedObject>) -> Void) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        appendHandler(queue: queue) { [self] in
            completionHandler(serializedDownload(using: responseSerializer))
        }
        return self
    }

    /// Serializes the finished download; built-in serializers read Salvo's own response
    /// values, so no `HTTPURLResponse` is built for them.
    func serializedDownload<Serializer: DownloadResponseSerializerProtocol>(using serializer: Serializer)
        -> AFDownloadResponse<Serializer.SerializedObject> {
        serializedDownload { context, fileURL, error in
            if Serializer.self == URLResponseSerializer.self {
                // The file's URL needs neither the response nor a cast.
                return try URLResponseSerializer().serializeDownload(request: nil, response: nil, fileURL: fileURL, error: error)
                    as! Serializer.SerializedObject
            }
            // Salvo's own response methods go through `serializedDownload(builtIn:)` instead.
            if let builtIn = InputSerializerLookup.builtIn(serializer, making: Serializer.SerializedObject.self) {
                if let error { throw error }
                return try builtIn.serialize(input: SerializationInput(context: context), data: URLResponseSerializer.readFile(fileURL), error: nil)
            }
            return try serializer.serializeDownload(request: context?.attemptRequest, response: context?.httpResponse,
                                                    fileURL: fileURL, error: error)
        }
    }

    /// The same for one of Salvo's serializers, given its type.
    func serializedDownload<Serializer: InputSerializer>(builtIn serializer: Serializer) -> AFDownloadResponse<Serializer.SerializedObject> {
        serializedDownload { context, fileURL, error in
            if let error { throw error }
            return try serializer.serialize(input: SerializationInput(context: context), data: URLResponseSerializer.readFile(fileURL), error: nil)
        }
    }

    private func serializedDownload<Value>(_ serialize: (ResponseContext?, URL?, AFError?) throws -> Value) -> AFDownloadResponse<Value> {
        let (context, error) = mutableState.withLock { ($0.contexts.last, $0.error) }
        let fileURL = attempts.fileURL
        let start = DispatchTime.now().uptimeNanoseconds
        let result: Result<Value, AFError>
        do {
            result = .success(try serialize(context, fileURL, error))
        } catch {
            result = .failure(error.asAFError(or: .responseSerializationFailed(reason: .customSerializationFailed(error: error))))
        }
        let duration = TimeInterval(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let response = AFDownloadResponse(context: context, fileURL: fileURL, resumeData: attempts.resumeData, metrics: context?.metrics,
                                          serializationDuration: duration, result: result)
        monitor?.request(self, didParseResponse: response)
        return response
    }

    /// Adds a handler for one of Salvo's serializers.
    @discardableResult
    private func builtInResponse<Serializer: InputSerializer>(queue: DispatchQueue, serializer: Serializer,
                                                              completionHandler: @escaping @Sendable (AFDownloadResponse<Serializer.SerializedObject>) -> Void) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        appendHandler(queue: queue) { [self] in
            completionHandler(serializedDownload(builtIn: serializer))
        }
        return self
    }

    /// Calls a handler with the downloaded file's `URL`.
    ///
    /// - Parameters:
    ///   - queue: Where the handler runs. `.main` by default.
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func responseURL(queue: DispatchQueue = .main,
                            completionHandler: @escaping @Sendable (AFDownloadResponse<URL>) -> Void) -> Self {
        response(queue: queue, responseSerializer: URLResponseSerializer(), completionHandler: completionHandler)
    }

    /// Calls a handler with the file's contents as `Data`.
    ///
    /// - Parameters:
    ///   - queue: Where the serializer and handler run. `.main` by default.
    ///   - dataPreprocessor: Applied to the data first. `PassthroughPreprocessor` by default.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func responseData(queue: DispatchQueue = .main,
                             dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                             emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                             emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods,
                             completionHandler: @escaping @Sendable (AFDownloadResponse<Data>) -> Void) -> Self {
        builtInResponse(queue: queue,
                        serializer: DataResponseSerializer(dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                                                           emptyRequestMethods: emptyRequestMethods),
                        completionHandler: completionHandler)
    }

    /// Calls a handler with the file's contents decoded as a `String`.
    ///
    /// - Parameters:
    ///   - queue: Where the serializer and handler run. `.main` by default.
    ///   - dataPreprocessor: Applied to the data first. `PassthroughPreprocessor` by default.
    ///   - encoding: The encoding. `nil` by default: the response's charset, else ISO-8859-1.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func responseString(queue: DispatchQueue = .main,
                               dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
                               encoding: String.Encoding? = nil,
                               emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
                               emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods,
                               completionHandler: @escaping @Sendable (AFDownloadResponse<String>) -> Void) -> Self {
        builtInResponse(queue: queue,
                        serializer: StringResponseSerializer(dataPreprocessor: dataPreprocessor, encoding: encoding,
                                                             emptyResponseCodes: emptyResponseCodes,
                                                             emptyRequestMethods: emptyRequestMethods),
                        completionHandler: completionHandler)
    }

    /// Calls a handler with the file's contents decoded into a `Decodable` type.
    ///
    /// - Parameters:
    ///   - type: The type to decode. Inferred from the handler by default.
    ///   - queue: Where the serializer and handler run. `.main` by default.
    ///   - dataPreprocessor: Applied to the data first. `PassthroughPreprocessor` by default.
    ///   - decoder: Decodes the data. `JSONDecoder()` by default.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func responseDecodable<Value: Decodable & Sendable>(of type: Value.Type = Value.self,
                                                               queue: DispatchQueue = .main,
                                                               dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<Value>.defaultDataPreprocessor,
                                                               decoder: any DataDecoder = JSONDecoder(),
                                                               emptyResponseCodes: Set<Int> = DecodableResponseSerializer<Value>.defaultEmptyResponseCodes,
                                                               emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<Value>.defaultEmptyRequestMethods,
                                                               completionHandler: @escaping @Sendable (AFDownloadResponse<Value>) -> Void) -> Self {
        builtInResponse(queue: queue,
                        serializer: DecodableResponseSerializer<Value>(dataPreprocessor: dataPreprocessor, decoder: decoder,
                                                                       emptyResponseCodes: emptyResponseCodes,
                                                                       emptyRequestMethods: emptyRequestMethods),
                        completionHandler: completionHandler)
    }

    /// Calls a handler with the file's contents parsed by `JSONSerialization`.
    ///
    /// - Parameters:
    ///   - queue: Where the serializer and handler run. `.main` by default (see
    ///     `Session.responseQueue`).
    ///   - dataPreprocessor: Applied to the contents first. `PassthroughPreprocessor` by default.
    ///   - emptyResponseCodes: Status codes that may have empty bodies (the value is then
    ///     `NSNull()`). `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    ///   - options: `JSONSerialization` reading options. `.allowFragments` by default.
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    /// - Note: The whole file is read into memory to be parsed.
    @preconcurrency
    @available(*, deprecated, message: "responseJSON is deprecated, as in Alamofire 5. Use responseDecodable instead.")
    @discardableResult
    public func responseJSON(queue: DispatchQueue = .main,
                             dataPreprocessor: any DataPreprocessor = JSONResponseSerializer.defaultDataPreprocessor,
                             emptyResponseCodes: Set<Int> = JSONResponseSerializer.defaultEmptyResponseCodes,
                             emptyRequestMethods: Set<HTTPMethod> = JSONResponseSerializer.defaultEmptyRequestMethods,
                             options: JSONSerialization.ReadingOptions = .allowFragments,
                             completionHandler: @escaping @Sendable (AFDownloadResponse<Any>) -> Void) -> Self {
        let serializer = JSONResponseSerializer(dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                                                emptyRequestMethods: emptyRequestMethods, options: options)
        // The serializer yields `any Sendable`; Alamofire's handler takes `Any`. The value is
        // re-typed on the handler's queue, where it is made and consumed.
        return builtInResponse(queue: queue, serializer: serializer) { response in
            completionHandler(response.map { $0 as Any })
        }
    }
}
