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
            eventMonitor?.request(self, didParseResponse: response)
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
    @discardableResult
    public func response<Serializer: DataResponseSerializerProtocol>(queue: DispatchQueue = .main,
                                                                     responseSerializer: Serializer,
                                                                     completionHandler: @escaping @Sendable (AFDataResponse<Serializer.SerializedObject>) -> Void) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        // Strong: the handler may run after the session let go of the request; the handler
        // list is emptied when it runs, which breaks the cycle.
        appendHandler(queue: queue) { [self] in
            completionHandler(serializedResponse(using: responseSerializer))
        }
        return self
    }

    func serializedResponse<Serializer: DataResponseSerializerProtocol>(using serializer: Serializer) -> AFDataResponse<Serializer.SerializedObject> {
        let snapshot = responseSnapshot()
        let start = DispatchTime.now().uptimeNanoseconds
        let result: Result<Serializer.SerializedObject, AFError>
        do {
            let value: Serializer.SerializedObject
            if let builtIn = serializer as? any InputSerializer<Serializer.SerializedObject> {
                value = try builtIn.serialize(input: SerializationInput(context: snapshot.context), data: snapshot.data, error: snapshot.error)
            } else {
                value = try serializer.serialize(request: snapshot.context?.attemptRequest, response: snapshot.context?.httpResponse,
                                                 data: snapshot.data, error: snapshot.error)
            }
            result = .success(value)
        } catch {
            result = .failure(error.asAFError(or: .responseSerializationFailed(reason: .customSerializationFailed(error: error))))
        }
        let duration = TimeInterval(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let response = AFDataResponse(context: snapshot.context, data: snapshot.data, metrics: snapshot.metrics,
                                      serializationDuration: duration, result: result)
        eventMonitor?.request(self, didParseResponse: response)
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
    @discardableResult
    public func responseData(queue: DispatchQueue = .main,
                             dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                             emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                             emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods,
                             completionHandler: @escaping @Sendable (AFDataResponse<Data>) -> Void) -> Self {
        response(queue: queue,
                 responseSerializer: DataResponseSerializer(dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                                                            emptyRequestMethods: emptyRequestMethods),
                 completionHandler: completionHandler)
    }
}
