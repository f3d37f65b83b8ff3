import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a `DownloadRequest`'s response handler receives: the request and response, where
/// the file went, resume data, the metrics, and the serialized result.
public struct DownloadResponse<Success, Failure: Error> {
    private let context: ResponseContext?
    private let givenRequest: URLRequest?
    private let givenResponse: HTTPURLResponse?

    /// The `URLRequest` sent.
    public var request: URLRequest? { context?.attemptRequest ?? givenRequest }
    /// The server's response, if one arrived.
    public var response: HTTPURLResponse? { context?.httpResponse ?? givenResponse }
    /// Where the downloaded file was moved, or `nil` when the download failed.
    public let fileURL: URL?
    /// The resume data of a download cancelled with `cancel(producingResumeData: true)`.
    public let resumeData: Data?
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
    ///   - fileURL: Where the file is.
    ///   - resumeData: Resume data.
    ///   - metrics: The metrics.
    ///   - serializationDuration: Seconds spent serializing.
    ///   - result: The result.
    public init(request: URLRequest?, response: HTTPURLResponse?, fileURL: URL?, resumeData: Data?, metrics: TransferMetrics?,
                serializationDuration: TimeInterval, result: Result<Success, Failure>) {
        self.init(context: nil, givenRequest: request, givenResponse: response, fileURL: fileURL, resumeData: resumeData,
                  metrics: metrics, serializationDuration: serializationDuration, result: result)
    }

    init(context: ResponseContext?, givenRequest: URLRequest? = nil, givenResponse: HTTPURLResponse? = nil, fileURL: URL?,
         resumeData: Data?, metrics: TransferMetrics?, serializationDuration: TimeInterval, result: Result<Success, Failure>) {
        self.context = context
        self.givenRequest = givenRequest
        self.givenResponse = givenResponse
        self.fileURL = fileURL
        self.resumeData = resumeData
        self.metrics = metrics
        self.serializationDuration = serializationDuration
        self.result = result
    }

    /// The response with its success value transformed.
    ///
    /// - Parameter transform: Maps the success value.
    /// - Returns: The new response.
    public func map<NewSuccess>(_ transform: (Success) -> NewSuccess) -> DownloadResponse<NewSuccess, Failure> {
        DownloadResponse<NewSuccess, Failure>(context: context, givenRequest: givenRequest, givenResponse: givenResponse,
                                              fileURL: fileURL, resumeData: resumeData, metrics: metrics,
                                              serializationDuration: serializationDuration, result: result.map(transform))
    }

    /// The response with its success value transformed by a throwing closure; a thrown
    /// error becomes the failure.
    ///
    /// - Parameter transform: Maps the success value.
    /// - Returns: The new response.
    public func tryMap<NewSuccess>(_ transform: (Success) throws -> NewSuccess) -> DownloadResponse<NewSuccess, any Error> {
        let mapped: Result<NewSuccess, any Error>
        switch result {
        case let .success(value): mapped = Result { try transform(value) }
        case let .failure(error): mapped = .failure(error)
        }
        return DownloadResponse<NewSuccess, any Error>(context: context, givenRequest: givenRequest, givenResponse: givenResponse,
                                                       fileURL: fileURL, resumeData: resumeData, metrics: metrics,
                                                       serializationDuration: serializationDuration, result: mapped)
    }

    /// The response with its failure transformed.
    ///
    /// - Parameter transform: Maps the failure.
    /// - Returns: The new response.
    public func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> DownloadResponse<Success, NewFailure> {
        DownloadResponse<Success, NewFailure>(context: context, givenRequest: givenRequest, givenResponse: givenResponse,
                                              fileURL: fileURL, resumeData: resumeData, metrics: metrics,
                                              serializationDuration: serializationDuration, result: result.mapError(transform))
    }

    /// The response with its failure transformed by a throwing closure; a thrown error
    /// replaces the failure.
    ///
    /// - Parameter transform: Maps the failure.
    /// - Returns: The new response.
    public func tryMapError<NewFailure: Error>(_ transform: (Failure) throws -> NewFailure) -> DownloadResponse<Success, any Error> {
        let mapped: Result<Success, any Error>
        switch result {
        case let .success(value): mapped = .success(value)
        case let .failure(error):
            do { mapped = .failure(try transform(error)) } catch { mapped = .failure(error) }
        }
        return DownloadResponse<Success, any Error>(context: context, givenRequest: givenRequest, givenResponse: givenResponse,
                                                    fileURL: fileURL, resumeData: resumeData, metrics: metrics,
                                                    serializationDuration: serializationDuration, result: mapped)
    }
}

// No lock needed: every stored property is a `let`; the references are a `ResponseContext`
// (Sendable) and Foundation's `URLRequest`/`HTTPURLResponse`, immutable once built.
extension DownloadResponse: @unchecked Sendable where Success: Sendable {} // no lock: immutable lets (see above)

extension DownloadResponse: CustomStringConvertible, CustomDebugStringConvertible {
    /// The result, as text.
    public var description: String { "\(result)" }

    /// The request with its headers and body, the response's status and headers, the file,
    /// the resume data, the network and serialization durations and the result, in
    /// Alamofire's layout.
    public var debugDescription: String {
        guard let urlRequest = request else { return "[Request]: None\n[Result]: \(result)" }
        return """
        \(ResponseDebugDescription.request(urlRequest))
        \(response.map(ResponseDebugDescription.response) ?? "[Response]: None")
        [File URL]: \(fileURL?.path ?? "None")
        [Resume Data]: \(resumeData.map { "\($0.count) bytes" } ?? "None")
        [Network Duration]: \(metrics.map { "\($0.total)s" } ?? "None")
        [Serialization Duration]: \(serializationDuration)s
        [Result]: \(result)
        """
    }
}

/// A `DownloadResponse` whose failure is an `AFError`.
public typealias AFDownloadResponse<Success> = DownloadResponse<Success, AFError>
