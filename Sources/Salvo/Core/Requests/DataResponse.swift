import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a `DataRequest`'s response handler receives: the request and response, the body,
/// the metrics, and the serialized result.
///
/// `request` and `response` are built on first access from Salvo's own values; most
/// handlers read only `result`, and then never pay for Foundation's header dictionary.
public struct DataResponse<Success, Failure: Error> {
    private let context: ResponseContext?
    private let givenRequest: URLRequest?
    private let givenResponse: HTTPURLResponse?

    /// The `URLRequest` sent.
    public var request: URLRequest? { context?.attemptRequest ?? givenRequest }
    /// The server's response, if one arrived.
    public var response: HTTPURLResponse? { context?.httpResponse ?? givenResponse }
    /// The body received.
    public let data: Data?
    /// The transfer's metrics.
    public let metrics: TransferMetrics?
    /// How long serialization took, in seconds.
    public let serializationDuration: TimeInterval
    /// The serialized result.
    public let result: Result<Success, Failure>

    /// The success value, or `nil`.
    public var value: Success? { try? result.get() }

    /// The failure, or `nil`.
    public var error: Failure? {
        guard case let .failure(error) = result else { return nil }
        return error
    }

    /// Creates a response from its parts.
    ///
    /// - Parameters:
    ///   - request: The `URLRequest` sent.
    ///   - response: The response.
    ///   - data: The body.
    ///   - metrics: The metrics.
    ///   - serializationDuration: Seconds spent serializing.
    ///   - result: The result.
    public init(request: URLRequest?, response: HTTPURLResponse?, data: Data?, metrics: TransferMetrics?,
                serializationDuration: TimeInterval, result: Result<Success, Failure>) {
        context = nil
        givenRequest = request
        givenResponse = response
        self.data = data
        self.metrics = metrics
        self.serializationDuration = serializationDuration
        self.result = result
    }

    init(context: ResponseContext?, data: Data?, metrics: TransferMetrics?, serializationDuration: TimeInterval,
         result: Result<Success, Failure>) {
        self.context = context
        givenRequest = nil
        givenResponse = nil
        self.data = data
        self.metrics = metrics
        self.serializationDuration = serializationDuration
        self.result = result
    }

    /// The response with its success value transformed.
    ///
    /// - Parameter transform: Maps the success value.
    /// - Returns: The new response.
    public func map<NewSuccess>(_ transform: (Success) -> NewSuccess) -> DataResponse<NewSuccess, Failure> {
        DataResponse<NewSuccess, Failure>(context: context, givenRequest: givenRequest, givenResponse: givenResponse,
                                          data: data, metrics: metrics, serializationDuration: serializationDuration,
                                          result: result.map(transform))
    }

    /// The response with its success value transformed by a throwing closure; a thrown
    /// error becomes the failure.
    ///
    /// - Parameter transform: Maps the success value.
    /// - Returns: The new response.
    public func tryMap<NewSuccess>(_ transform: (Success) throws -> NewSuccess) -> DataResponse<NewSuccess, any Error> {
        let mapped: Result<NewSuccess, any Error>
        switch result {
        case let .success(value): mapped = Result { try transform(value) }
        case let .failure(error): mapped = .failure(error)
        }
        return DataResponse<NewSuccess, any Error>(context: context, givenRequest: givenRequest, givenResponse: givenResponse,
                                                   data: data, metrics: metrics, serializationDuration: serializationDuration,
                                                   result: mapped)
    }

    /// The response with its failure transformed.
    ///
    /// - Parameter transform: Maps the failure.
    /// - Returns: The new response.
    public func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> DataResponse<Success, NewFailure> {
        DataResponse<Success, NewFailure>(context: context, givenRequest: givenRequest, givenResponse: givenResponse,
                                          data: data, metrics: metrics, serializationDuration: serializationDuration,
                                          result: result.mapError(transform))
    }

    /// The response with its failure transformed by a throwing closure; a thrown error
    /// replaces the failure.
    ///
    /// - Parameter transform: Maps the failure.
    /// - Returns: The new response.
    public func tryMapError<NewFailure: Error>(_ transform: (Failure) throws -> NewFailure) -> DataResponse<Success, any Error> {
        let mapped: Result<Success, any Error>
        switch result {
        case let .success(value): mapped = .success(value)
        case let .failure(error):
            do { mapped = .failure(try transform(error)) } catch { mapped = .failure(error) }
        }
        return DataResponse<Success, any Error>(context: context, givenRequest: givenRequest, givenResponse: givenResponse,
                                                data: data, metrics: metrics, serializationDuration: serializationDuration,
                                                result: mapped)
    }

    private init(context: ResponseContext?, givenRequest: URLRequest?, givenResponse: HTTPURLResponse?, data: Data?,
                 metrics: TransferMetrics?, serializationDuration: TimeInterval, result: Result<Success, Failure>) {
        self.context = context
        self.givenRequest = givenRequest
        self.givenResponse = givenResponse
        self.data = data
        self.metrics = metrics
        self.serializationDuration = serializationDuration
        self.result = result
    }
}

// No lock needed: every stored property is a `let`; the references are a `ResponseContext`
// (Sendable) and Foundation's `URLRequest`/`HTTPURLResponse`, immutable once built; `Failure`
// is an `Error`, which is Sendable.
extension DataResponse: @unchecked Sendable where Success: Sendable {} // no lock: immutable lets (see above)

extension DataResponse: CustomStringConvertible, CustomDebugStringConvertible {
    /// The result, as text.
    public var description: String { "\(result)" }

    /// The request with its headers and body, the response's status, headers and body (as
    /// text when short and textual), the network and serialization durations and the result, in
    /// Alamofire's layout.
    public var debugDescription: String {
        guard let urlRequest = request else { return "[Request]: None\n[Result]: \(result)" }
        let responseText = response.map { ResponseDebugDescription.response($0, body: data) } ?? "[Response]: None"
        return """
        \(ResponseDebugDescription.request(urlRequest))
        \(responseText)
        [Network Duration]: \(metrics.map { "\($0.total)s" } ?? "None")
        [Serialization Duration]: \(serializationDuration)s
        [Result]: \(result)
        """
    }
}

/// A `DataResponse` whose failure is an `AFError`.
public typealias AFDataResponse<Success> = DataResponse<Success, AFError>

/// A `Result` whose failure is an `AFError`, as response handlers report it.
public typealias AFResult<Success> = Result<Success, AFError>
