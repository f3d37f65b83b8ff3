import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DataStreamRequest {
    /// Calls `stream` with each chunk of the body as `Data`, then once with `.complete`.
    ///
    /// - Parameters:
    ///   - queue: Where `stream` runs. `.main` by default (see `Session.responseQueue`). Use
    ///     a serial queue: chunks on a concurrent queue may be seen out of order.
    ///   - stream: The handler.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func responseStream(on queue: DispatchQueue = .main, stream: @escaping Handler<Data, Never>) -> Self {
        addStream(.data, on: queue, stream: stream)
    }

    /// Calls `stream` with each chunk serialized by `serializer`, then once with `.complete`.
    ///
    /// - Parameters:
    ///   - serializer: The serializer.
    ///   - queue: Where `stream` runs. `.main` by default.
    ///   - stream: The handler.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func responseStream<Serializer: DataStreamSerializer>(using serializer: Serializer, on queue: DispatchQueue = .main,
                                                                 stream: @escaping Handler<Serializer.SerializedObject, AFError>) -> Self {
        addStream(.serialized(by: serializer), on: queue, stream: stream)
    }

    /// Calls `stream` with each chunk decoded as UTF-8 text, then once with `.complete`.
    ///
    /// - Parameters:
    ///   - queue: Where `stream` runs. `.main` by default.
    ///   - stream: The handler.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func responseStreamString(on queue: DispatchQueue = .main, stream: @escaping Handler<String, Never>) -> Self {
        addStream(.string, on: queue, stream: stream)
    }

    /// Calls `stream` with each chunk of the body decoded into `type` as it arrives, then
    /// once with `.complete`, as Alamofire does: a chunk that is not one whole value fails
    /// (and cancels the request with `automaticallyCancelOnStreamError`). For a body of
    /// newline-delimited values, whose values may span chunks, use
    /// `responseStreamDecodableLines(of:on:using:preprocessor:stream:)`.
    ///
    /// - Parameters:
    ///   - type: The type. Inferred by default.
    ///   - queue: Where `stream` runs. `.main` by default.
    ///   - decoder: Decodes each chunk. `JSONDecoder()` by default.
    ///   - preprocessor: Applied to each chunk first. `PassthroughPreprocessor` by default.
    ///   - stream: The handler.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func responseStreamDecodable<T: Decodable & Sendable>(of type: T.Type = T.self, on queue: DispatchQueue = .main,
                                                                 using decoder: any DataDecoder = JSONDecoder(),
                                                                 preprocessor: any DataPreprocessor = PassthroughPreprocessor(),
                                                                 stream: @escaping Handler<T, AFError>) -> Self {
        addStream(.serialized(by: DecodableStreamSerializer<T>(decoder: decoder, dataPreprocessor: preprocessor)), on: queue, stream: stream)
    }

    /// Salvo's own: calls `stream` with each line of the body (newline-delimited, e.g.
    /// NDJSON) decoded into `type`, then once with `.complete`. A value split across chunks
    /// still decodes; empty lines are skipped; a last line without a newline is decoded when
    /// the body ends.
    ///
    /// - Parameters:
    ///   - type: The type. Inferred by default.
    ///   - queue: Where `stream` runs. `.main` by default.
    ///   - decoder: Decodes each line. `JSONDecoder()` by default.
    ///   - preprocessor: Applied to each line first. `PassthroughPreprocessor` by default.
    ///   - stream: The handler.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func responseStreamDecodableLines<T: Decodable & Sendable>(of type: T.Type = T.self, on queue: DispatchQueue = .main,
                                                                      using decoder: any DataDecoder = JSONDecoder(),
                                                                      preprocessor: any DataPreprocessor = PassthroughPreprocessor(),
                                                                      stream: @escaping Handler<T, AFError>) -> Self {
        addStream(.lines(DecodableStreamSerializer<T>(decoder: decoder, dataPreprocessor: preprocessor)), on: queue, stream: stream)
    }

    /// Registers a handler fed by a serializing `transform`; event monitors hear of each value
    /// it makes (`request(_:didParseStream:)`), as in Alamofire.
    private func addStream<Success: Sendable>(_ transform: StreamTransform<Success, AFError>, on queue: DispatchQueue,
                                              stream: @escaping Handler<Success, AFError>) -> Self {
        addStream(transform, on: queue, stream: stream) { [weak self] result in
            guard let self, let monitor else { return }
            monitor.request(self, didParseStream: result)
        }
    }

    /// Registers a handler fed by `transform`.
    private func addStream<Success: Sendable, Failure: Error>(_ transform: StreamTransform<Success, Failure>, on queue: DispatchQueue,
                                                              stream: @escaping Handler<Success, Failure>,
                                                              parsed: (@Sendable (Result<Success, Failure>) -> Void)? = nil) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        let token = CancellationToken(request: self)
        let emit: @Sendable (Result<Success, Failure>) -> Void = { [weak self] result in
            parsed?(result)
            // As in Alamofire, a chunk the serializer could not read cancels the request when
            // asked to (its error is then `explicitlyCancelled`); the handler still sees it.
            if case .failure = result, let self, automaticallyCancelOnStreamError { cancel() }
            do {
                try stream(Stream(event: .stream(result), token: token))
            } catch {
                self?.handlerFailed(error)
            }
        }
        streams.addConsumer(queue: queue) { data, done in
            transform.transform(data, emit)
            done()
        }
        // Strong: the handler list is emptied when it runs, which breaks the cycle.
        appendHandler(queue: queue) { [self] in
            if error == nil { transform.flush?(emit) }
            try? stream(Stream(event: .complete(completion()), token: token))
        }
        return self
    }

    /// The `.complete` event's value, once the request has completed.
    func completion() -> Completion {
        let (context, error) = mutableState.withLock { ($0.contexts.last, $0.error) }
        return Completion(context: context, error: error)
    }

    /// A handler threw: as in Alamofire, the error is the request's and the request is
    /// cancelled, keeping that error.
    func handlerFailed(_ error: any Error) {
        let afError = error.asAFError(or: .responseSerializationFailed(reason: .customSerializationFailed(error: error)))
        mutableState.withLock { $0.lifecycle.failed(afError) }
        cancel()
    }
}

/// Turns chunks into a handler's events: zero or more per chunk, and maybe some when the
/// body ends (`flush`).
struct StreamTransform<Success: Sendable, Failure: Error>: Sendable {
    typealias Emit = (Result<Success, Failure>) -> Void
    let transform: @Sendable (Data, Emit) -> Void
    let flush: (@Sendable (Emit) -> Void)?

    static var data: StreamTransform<Data, Never> {
        StreamTransform<Data, Never>(transform: { data, emit in emit(.success(data)) }, flush: nil)
    }

    static var string: StreamTransform<String, Never> {
        StreamTransform<String, Never>(transform: { data, emit in emit(.success(String(decoding: data, as: UTF8.self))) }, flush: nil)
    }

    static func serialized<Serializer: DataStreamSerializer>(by serializer: Serializer) -> StreamTransform<Serializer.SerializedObject, AFError> {
        StreamTransform<Serializer.SerializedObject, AFError>(transform: { data, emit in
            do {
                emit(.success(try serializer.serialize(data)))
            } catch {
                emit(.failure(error.asAFError(or: .responseSerializationFailed(reason: .customSerializationFailed(error: error)))))
            }
        }, flush: nil)
    }

    /// Splits the body into lines, carrying a partial line over to the next chunk, and
    /// serializes each non-empty line.
    static func lines<Serializer: DataStreamSerializer>(_ serializer: Serializer) -> StreamTransform<Serializer.SerializedObject, AFError> {
        let pending = Mutex(Data())
        let decode: @Sendable (Data, Bool, (Result<Serializer.SerializedObject, AFError>) -> Void) -> Void = { data, atEnd, emit in
            let lines = pending.withLock { buffer -> [Data] in
                buffer.append(data)
                var lines: [Data] = []
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(Data(buffer[buffer.startIndex..<newline]))
                    buffer = Data(buffer[buffer.index(after: newline)...])
                }
                if atEnd, !buffer.isEmpty {
                    lines.append(buffer)
                    buffer = Data()
                }
                return lines
            }
            for line in lines where !line.allSatisfy({ $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: " ") }) {
                do {
                    emit(.success(try serializer.serialize(line)))
                } catch {
                    emit(.failure(error.asAFError(or: .responseSerializationFailed(reason: .decodingFailed(error: error)))))
                }
            }
        }
        return StreamTransform<Serializer.SerializedObject, AFError>(transform: { data, emit in decode(data, false, emit) },
                                                                    flush: { emit in decode(Data(), true, emit) })
    }
}
