import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DataRequest {
    /// Calls a handler with the unserialized response.
    ///
    /// - Parameters:
    ///   - queue: Where the handler runs. `.main` by default (see `Session.responseQueue`).
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func response(queue: DispatchQueue = .main,
                         completionHandler: @escaping @Sendable (AFDataResponse<Data?>) -> Void) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        // Strong: the handler may run after the session let go of the request; the handler
        // list is emptied when it runs, which breaks the cycle.
        appendHandler(queue: queue) { [self] in
            let (context, data, error) = mutableState.withLock { ($0.contexts.last, $0.data, $0.error) }
            let result: Result<Data?, AFError> = error.map { .failure($0) } ?? .success(data)
            let response = AFDataResponse<Data?>(context: context, data: data, metrics: context?.metrics,
                                                 serializationDuration: 0, result: result)
            monitor?.request(self, didParseResponse: response)
            completionHandler(response)
        }
        return self
    }

    /// Calls a handler with the response serialized by `responseSerializer`.
    ///
    /// - Parameters:
    ///   - queue: Where the serializer and handler run. `.main` by default.
    ///   - responseSerializer: The serializer.
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func response<Serializer: DataResponseSerializerProtocol>(queue: DispatchQueue = .main,
                                                                     responseSerializer: Serializer,
                                                                     completionHandler: @escaping @Sendable (AFDataResponse<Serializer.SerializedObject>) -> Void) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        // Strong: the handler may run after the session let go of the request; the handler
        // list is emptied when it runs, which breaks the cycle.
        guard mayRetry else {
            appendHandler(queue: queue) { [self] in
                completionHandler(serializedResponse(using: responseSerializer))
            }
            return self
        }
        // The serialization holds the request as the plain handler does; emptying the handler list when
        // the request finishes breaks the cycle.
        let serialization = HandlerSerialization { [self] in serializedResponse(using: responseSerializer) }
        appendHandler(queue: queue, serialization: serialization) { completionHandler(serialization.response()) }
        return self
    }

    /// Adds a handler for one of Salvo's serializers, which reads Salvo's own values and
    /// needs neither `HTTPURLResponse` nor a cast to find that out.
    @discardableResult
    func builtInResponse<Serializer: InputSerializer>(queue: DispatchQueue, serializer: Serializer,
                                                      completionHandler: @escaping @Sendable (AFDataResponse<Serializer.SerializedObject>) -> Void) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        guard mayRetry else {
            appendHandler(queue: queue) { [self] in
                completionHandler(serializedResponse(builtIn: serializer))
            }
            return self
        }
        let serialization = HandlerSerialization { [self] in serializedResponse(builtIn: serializer) }
        appendHandler(queue: queue, serialization: serialization) { completionHandler(serialization.response()) }
        return self
    }

    func serializedResponse<Serializer: InputSerializer>(builtIn serializer: Serializer) -> AFDataResponse<Serializer.SerializedObject> {
        serializedResponse { context, data, error in
            try serializer.serialize(input: SerializationInput(context: context), data: data, error: error)
        }
    }

    func serializedResponse<Serializer: DataResponseSerializerProtocol>(using serializer: Serializer) -> AFDataResponse<Serializer.SerializedObject> {
        serializedResponse { context, data, error in
            // Salvo's own response methods go through `serializedResponse(builtIn:)` instead.
            if let builtIn = InputSerializerLookup.builtIn(serializer, making: Serializer.SerializedObject.self) {
                return try builtIn.serialize(input: SerializationInput(context: context), data: data, error: error)
            }
            return try serializer.serialize(request: context?.attemptRequest, response: context?.httpResponse, data: data, error: error)
        }
    }

    private func serializedResponse<Value>(_ serialize: (ResponseContext?, Data?, AFError?) throws -> Value) -> AFDataResponse<Value> {
        let (context, data, error) = mutableState.withLock { ($0.contexts.last, $0.data, $0.error) }
        let start = DispatchTime.now().uptimeNanoseconds
        let result: Result<Value, AFError>
        do {
            result = .success(try serialize(context, data, error))
        } catch {
            result = .failure(error.asAFError(or: .responseSerializationFailed(reason: .customSerializationFailed(error: error))))
        }
        let duration = TimeInterval(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let response = AFDataResponse(context: context, data: data, metrics: context?.metrics,
                                      serializationDuration: duration, result: result)
        monitor?.request(self, didParseResponse: response)
        return response
    }

    /// Calls a handler with the body as `Data`.
    ///
    /// - Parameters:
    ///   - queue: Where the handler runs. `.main` by default.
    ///   - dataPreprocessor: Applied to the data first.
    ///   - emptyResponseCodes: Status codes that may have empty bodies.
    ///   - emptyRequestMethods: Methods whose responses may be empty.
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func responseData(queue: DispatchQueue = .main,
                             dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                             emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                             emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods,
                             completionHandler: @escaping @Sendable (AFDataResponse<Data>) -> Void) -> Self {
        builtInResponse(queue: queue,
                        serializer: DataResponseSerializer(dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                                                           emptyRequestMethods: emptyRequestMethods),
                        completionHandler: completionHandler)
    }
}
