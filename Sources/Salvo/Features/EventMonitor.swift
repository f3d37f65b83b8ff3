import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives a request's lifecycle events, on the monitor's own `queue`.
///
/// Every method has an empty default, so a monitor implements only what it watches.
/// Where Alamofire passes a `URLSessionTask`, Salvo passes the `Request` and its
/// `TransferMetrics`.
public protocol EventMonitor: Sendable {
    /// The queue the events are delivered on. Never `.main` by default: server processes
    /// often never drain it.
    var queue: DispatchQueue { get }

    /// The request's first `URLRequest` was built.
    func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest)
    /// Building the first `URLRequest` failed.
    func request(_ request: Request, didFailToCreateURLRequestWithError error: AFError)
    /// An adapter changed the request.
    func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest)
    /// An adapter failed.
    func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError)
    /// An attempt's transfer was handed to the engine.
    func request(_ request: Request, didCreateTransferFor urlRequest: URLRequest)
    /// An attempt's transfer finished, with its metrics.
    func request(_ request: Request, didGatherMetrics metrics: TransferMetrics)
    /// An attempt's transfer failed.
    func request(_ request: Request, didFailTransferWithError error: AFError)
    /// An attempt completed, successfully or not.
    func request(_ request: Request, didCompleteAttemptWithError error: AFError?)
    /// The request will be retried.
    func requestIsRetrying(_ request: Request)
    /// The request finished.
    func requestDidFinish(_ request: Request)
    /// The request was resumed.
    func requestDidResume(_ request: Request)
    /// The request was suspended.
    func requestDidSuspend(_ request: Request)
    /// The request was cancelled.
    func requestDidCancel(_ request: Request)
    /// A `DataRequest` was validated.
    func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse, data: Data?, withResult result: Request.ValidationResult)
    /// A `DataRequest` was given a response.
    func request(_ request: DataRequest, didParseResponse response: DataResponse<Data?, AFError>)
    /// A `DataRequest`'s response was serialized.
    func request<Value>(_ request: DataRequest, didParseResponse response: DataResponse<Value, AFError>)
}

extension EventMonitor {
    /// A shared utility queue.
    public var queue: DispatchQueue { .global(qos: .utility) }
    /// Does nothing.
    public func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest) {}
    /// Does nothing.
    public func request(_ request: Request, didFailToCreateURLRequestWithError error: AFError) {}
    /// Does nothing.
    public func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest) {}
    /// Does nothing.
    public func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError) {}
    /// Does nothing.
    public func request(_ request: Request, didCreateTransferFor urlRequest: URLRequest) {}
    /// Does nothing.
    public func request(_ request: Request, didGatherMetrics metrics: TransferMetrics) {}
    /// Does nothing.
    public func request(_ request: Request, didFailTransferWithError error: AFError) {}
    /// Does nothing.
    public func request(_ request: Request, didCompleteAttemptWithError error: AFError?) {}
    /// Does nothing.
    public func requestIsRetrying(_ request: Request) {}
    /// Does nothing.
    public func requestDidFinish(_ request: Request) {}
    /// Does nothing.
    public func requestDidResume(_ request: Request) {}
    /// Does nothing.
    public func requestDidSuspend(_ request: Request) {}
    /// Does nothing.
    public func requestDidCancel(_ request: Request) {}
    /// Does nothing.
    public func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse, data: Data?, withResult result: Request.ValidationResult) {}
    /// Does nothing.
    public func request(_ request: DataRequest, didParseResponse response: DataResponse<Data?, AFError>) {}
    /// Does nothing.
    public func request<Value>(_ request: DataRequest, didParseResponse response: DataResponse<Value, AFError>) {}
}

/// Forwards every event to several monitors, each on its own queue.
public final class CompositeEventMonitor: EventMonitor {
    /// The queue events are received on before fanning out.
    public let queue = DispatchQueue(label: "org.salvo.compositeEventMonitor")
    /// The monitors.
    public let monitors: [any EventMonitor]

    init(monitors: [any EventMonitor]) {
        self.monitors = monitors
    }

    private func each(_ event: @escaping @Sendable (any EventMonitor) -> Void) {
        for monitor in monitors {
            monitor.queue.async { event(monitor) }
        }
    }

    public func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest) { each { $0.request(request, didCreateInitialURLRequest: urlRequest) } }
    public func request(_ request: Request, didFailToCreateURLRequestWithError error: AFError) { each { $0.request(request, didFailToCreateURLRequestWithError: error) } }
    public func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest) { each { $0.request(request, didAdaptInitialRequest: initialRequest, to: adaptedRequest) } }
    public func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError) { each { $0.request(request, didFailToAdaptURLRequest: initialRequest, withError: error) } }
    public func request(_ request: Request, didCreateTransferFor urlRequest: URLRequest) { each { $0.request(request, didCreateTransferFor: urlRequest) } }
    public func request(_ request: Request, didGatherMetrics metrics: TransferMetrics) { each { $0.request(request, didGatherMetrics: metrics) } }
    public func request(_ request: Request, didFailTransferWithError error: AFError) { each { $0.request(request, didFailTransferWithError: error) } }
    public func request(_ request: Request, didCompleteAttemptWithError error: AFError?) { each { $0.request(request, didCompleteAttemptWithError: error) } }
    public func requestIsRetrying(_ request: Request) { each { $0.requestIsRetrying(request) } }
    public func requestDidFinish(_ request: Request) { each { $0.requestDidFinish(request) } }
    public func requestDidResume(_ request: Request) { each { $0.requestDidResume(request) } }
    public func requestDidSuspend(_ request: Request) { each { $0.requestDidSuspend(request) } }
    public func requestDidCancel(_ request: Request) { each { $0.requestDidCancel(request) } }
    public func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse, data: Data?, withResult result: Request.ValidationResult) {
        each { $0.request(request, didValidateRequest: urlRequest, response: response, data: data, withResult: result) }
    }
    public func request(_ request: DataRequest, didParseResponse response: DataResponse<Data?, AFError>) { each { $0.request(request, didParseResponse: response) } }
    public func request<Value>(_ request: DataRequest, didParseResponse response: DataResponse<Value, AFError>) {
        nonisolated(unsafe) let response = response
        each { $0.request(request, didParseResponse: response) }
    }
}
