import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Forwards every event to several monitors, each on its own queue.
public final class CompositeEventMonitor: EventMonitor {
    /// The queue events are received on before fanning out.
    public let queue = DispatchQueue(label: "org.salvo.compositeEventMonitor")
    /// The monitors.
    public let monitors: [any EventMonitor]

    /// Combines monitors; each receives every event on its own `queue`.
    ///
    /// - Parameter monitors: The monitors.
    public init(monitors: [any EventMonitor]) {
        self.monitors = monitors
        sendsTaskEvents = monitors.contains { !($0 is AlamofireNotifications) }
    }

    /// Whether a monitor may watch task events, so that each attempt's task is made for them:
    /// Salvo's `AlamofireNotifications` does not.
    let sendsTaskEvents: Bool

    func each(_ event: @escaping @Sendable (any EventMonitor) -> Void) {
        for monitor in monitors {
            monitor.queue.async { event(monitor) }
        }
    }

    /// Forwards the event to every monitor.
    public func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest) { each { $0.request(request, didCreateInitialURLRequest: urlRequest) } }
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didFailToCreateURLRequestWithError error: AFError) { each { $0.request(request, didFailToCreateURLRequestWithError: error) } }
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest) { each { $0.request(request, didAdaptInitialRequest: initialRequest, to: adaptedRequest) } }
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError) { each { $0.request(request, didFailToAdaptURLRequest: initialRequest, withError: error) } }
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest) { each { $0.request(request, didCreateURLRequest: urlRequest) } }
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didCreateTransferFor urlRequest: URLRequest) { each { $0.request(request, didCreateTransferFor: urlRequest) } }
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didGatherMetrics metrics: TransferMetrics) { each { $0.request(request, didGatherMetrics: metrics) } }
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didFailTransferWithError error: AFError) { each { $0.request(request, didFailTransferWithError: error) } }
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didCompleteAttemptWithError error: AFError?) { each { $0.request(request, didCompleteAttemptWithError: error) } }
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didCreateTask task: URLSessionTask) { each { $0.request(request, didCreateTask: task) } }
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didResumeTask task: URLSessionTask) { each { $0.request(request, didResumeTask: task) } }
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didSuspendTask task: URLSessionTask) { each { $0.request(request, didSuspendTask: task) } }
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didCancelTask task: URLSessionTask) { each { $0.request(request, didCancelTask: task) } }
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didCompleteTask task: URLSessionTask, with error: AFError?) {
        each { $0.request(request, didCompleteTask: task, with: error) }
    }
    /// Forwards the event to every monitor.
    public func requestIsRetrying(_ request: Request) { each { $0.requestIsRetrying(request) } }
    /// Forwards the event to every monitor.
    public func requestDidFinish(_ request: Request) { each { $0.requestDidFinish(request) } }
    /// Forwards the event to every monitor.
    public func requestDidResume(_ request: Request) { each { $0.requestDidResume(request) } }
    /// Forwards the event to every monitor.
    public func requestDidSuspend(_ request: Request) { each { $0.requestDidSuspend(request) } }
    /// Forwards the event to every monitor.
    public func requestDidCancel(_ request: Request) { each { $0.requestDidCancel(request) } }
    /// Forwards the event to every monitor.
    public func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse, data: Data?, withResult result: Request.ValidationResult) {
        each { $0.request(request, didValidateRequest: urlRequest, response: response, data: data, withResult: result) }
    }
    /// Forwards the event to every monitor.
    public func request(_ request: DataRequest, didParseResponse response: DataResponse<Data?, AFError>) { each { $0.request(request, didParseResponse: response) } }
    /// Forwards the event to every monitor.
    public func request<Value>(_ request: DataRequest, didParseResponse response: DataResponse<Value, AFError>) {
        // `Value` need not be Sendable, but the response is immutable once made and the
        // monitors only read it, so handing it to their queues is safe.
        nonisolated(unsafe) let response = response
        each { $0.request(request, didParseResponse: response) }
    }
    /// Forwards the event to every monitor.
    public func request(_ request: DownloadRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse, fileURL: URL?,
                        withResult result: Request.ValidationResult) {
        each { $0.request(request, didValidateRequest: urlRequest, response: response, fileURL: fileURL, withResult: result) }
    }
    /// Forwards the event to every monitor.
    public func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) { each { $0.request(request, didCreateDestinationURL: url) } }
    /// Forwards the event to every monitor.
    public func request(_ request: DownloadRequest, didParseResponse response: DownloadResponse<URL?, AFError>) { each { $0.request(request, didParseResponse: response) } }
    /// Forwards the event to every monitor.
    public func request<Value>(_ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, AFError>) {
        // As for data requests: immutable once made, only read by the monitors.
        nonisolated(unsafe) let response = response
        each { $0.request(request, didParseResponse: response) }
    }
    /// Forwards the event to every monitor.
    public func request(_ request: UploadRequest, didCreateUploadable uploadable: UploadRequest.Uploadable) {
        each { $0.request(request, didCreateUploadable: uploadable) }
    }
    /// Forwards the event to every monitor.
    public func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: AFError) {
        each { $0.request(request, didFailToCreateUploadableWithError: error) }
    }
    /// Forwards the event to every monitor.
    public func request(_ request: UploadRequest, didProvideInputStream stream: InputStream) {
        // The stream belongs to the transfer that reads it; monitors are told of it, as in
        // Alamofire, and must not read it.
        nonisolated(unsafe) let stream = stream
        each { $0.request(request, didProvideInputStream: stream) }
    }
    /// Forwards the event to every monitor.
    public func request(_ request: DataStreamRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        withResult result: Request.ValidationResult) {
        each { $0.request(request, didValidateRequest: urlRequest, response: response, withResult: result) }
    }
    /// Forwards the event to every monitor.
    public func request<Value>(_ request: DataStreamRequest, didParseStream result: Result<Value, AFError>) {
        // As for responses: the value is made once, and monitors only read it.
        nonisolated(unsafe) let result = result
        each { $0.request(request, didParseStream: result) }
    }
}
