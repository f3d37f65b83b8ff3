import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An `EventMonitor` whose events call optional closures, for watching a few events without
/// declaring a type.
///
/// ```swift
/// let monitor = ClosureEventMonitor()
/// monitor.requestDidFinish = { request in logger.info("finished", metadata: ["id": "\(request.id)"]) }
/// let session = Session(eventMonitors: [monitor])
/// ```
///
/// Each closure may be set or replaced at any time, from any thread; an event calls the
/// closure in place when the event is delivered. The closures run on `queue`, one at a time
/// when it is serial (the default).
///
/// - Note: Differences from Alamofire: the default queue is a private serial queue rather
///   than `.main`, which a server process may never drain. As in Alamofire, the closures
///   are plain (not `@Sendable`), so Swift 6 code may set closures that capture non-`Sendable`
///   state: they run only on `queue`, and what they capture must be safe to use there.
///   Alamofire's task closures are here (`requestDidCreateTask`, `requestDidResumeTask`,
///   `requestDidSuspendTask`, `requestDidCancelTask`, `requestDidCompleteTaskWithError`), with
///   the attempt's transfer beside them (`requestDidCreateTransfer`,
///   `requestDidFailTransferWithError` for Alamofire's `requestDidFailTaskEarlyWithError`,
///   `requestDidCompleteAttemptWithError`); metrics are `TransferMetrics`. The
///   `URLSession`-level closures (`taskDidReceiveChallenge`, `dataTaskDidReceiveData`, ...)
///   have no counterpart.
open class ClosureEventMonitor: EventMonitor, @unchecked Sendable { // closures in a Mutex; `queue` immutable
    // `@unchecked Sendable` only because an `open` class cannot be checked: every closure
    // lives in `closures`, a Mutex, and `queue` is an immutable, thread-safe reference.

    /// Every closure, behind one lock; each event copies its closure out and calls it after
    /// the lock is released, so a closure may itself set closures without deadlocking.
    private struct Closures: @unchecked Sendable { // under `closures`' Mutex; each closure runs only on `queue`
        // Alamofire's closure types are plain: what a closure captures is its setter's to make
        // safe on `queue`, the one queue it is called on.
        var requestDidCreateInitialURLRequest: ((Request, URLRequest) -> Void)?
        var requestDidFailToCreateURLRequestWithError: ((Request, AFError) -> Void)?
        var requestDidAdaptInitialRequestToAdaptedRequest: ((Request, URLRequest, URLRequest) -> Void)?
        var requestDidFailToAdaptURLRequestWithError: ((Request, URLRequest, AFError) -> Void)?
        var requestDidCreateURLRequest: ((Request, URLRequest) -> Void)?
        var requestDidCreateTransfer: ((Request, URLRequest) -> Void)?
        var requestDidGatherMetrics: ((Request, TransferMetrics) -> Void)?
        var requestDidFailTransferWithError: ((Request, AFError) -> Void)?
        var requestDidCompleteAttemptWithError: ((Request, AFError?) -> Void)?
        var requestDidCreateTask: ((Request, URLSessionTask) -> Void)?
        var requestDidResumeTask: ((Request, URLSessionTask) -> Void)?
        var requestDidSuspendTask: ((Request, URLSessionTask) -> Void)?
        var requestDidCancelTask: ((Request, URLSessionTask) -> Void)?
        var requestDidCompleteTaskWithError: ((Request, URLSessionTask, AFError?) -> Void)?
        var requestIsRetrying: ((Request) -> Void)?
        var requestDidFinish: ((Request) -> Void)?
        var requestDidResume: ((Request) -> Void)?
        var requestDidSuspend: ((Request) -> Void)?
        var requestDidCancel: ((Request) -> Void)?
        var requestDidValidateRequestResponseDataWithResult:
            ((DataRequest, URLRequest?, HTTPURLResponse, Data?, Request.ValidationResult) -> Void)?
        var requestDidParseResponse: ((DataRequest, DataResponse<Data?, AFError>) -> Void)?
        var requestDidValidateRequestResponseFileURLWithResult:
            ((DownloadRequest, URLRequest?, HTTPURLResponse, URL?, Request.ValidationResult) -> Void)?
        var requestDidCreateDestinationURL: ((DownloadRequest, URL) -> Void)?
        var requestDidParseDownloadResponse: ((DownloadRequest, DownloadResponse<URL?, AFError>) -> Void)?
        var requestDidCreateUploadable: ((UploadRequest, UploadRequest.Uploadable) -> Void)?
        var requestDidFailToCreateUploadableWithError: ((UploadRequest, AFError) -> Void)?
        var requestDidProvideInputStream: ((UploadRequest, InputStream) -> Void)?
        var requestDidValidateRequestResponseWithResult:
            ((DataStreamRequest, URLRequest?, HTTPURLResponse, Request.ValidationResult) -> Void)?
    }

    private let closures = Mutex(Closures())

    /// The queue every closure runs on.
    public let queue: DispatchQueue

    /// Creates a monitor with no closures set.
    ///
    /// - Parameter queue: Where the closures run. A new private serial queue by default,
    ///   never `.main`.
    public init(queue: DispatchQueue = DispatchQueue(label: "org.salvo.closureEventMonitor")) {
        self.queue = queue
    }

    // MARK: Closures

    /// Called on `request(_:didCreateInitialURLRequest:)`.
    open var requestDidCreateInitialURLRequest: ((Request, URLRequest) -> Void)? {
        get { closures.withLock { $0.requestDidCreateInitialURLRequest } }
        set { closures.withLock { $0.requestDidCreateInitialURLRequest = newValue } }
    }

    /// Called on `request(_:didFailToCreateURLRequestWithError:)`.
    open var requestDidFailToCreateURLRequestWithError: ((Request, AFError) -> Void)? {
        get { closures.withLock { $0.requestDidFailToCreateURLRequestWithError } }
        set { closures.withLock { $0.requestDidFailToCreateURLRequestWithError = newValue } }
    }

    /// Called on `request(_:didAdaptInitialRequest:to:)`.
    open var requestDidAdaptInitialRequestToAdaptedRequest: ((Request, URLRequest, URLRequest) -> Void)? {
        get { closures.withLock { $0.requestDidAdaptInitialRequestToAdaptedRequest } }
        set { closures.withLock { $0.requestDidAdaptInitialRequestToAdaptedRequest = newValue } }
    }

    /// Called on `request(_:didFailToAdaptURLRequest:withError:)`.
    open var requestDidFailToAdaptURLRequestWithError: ((Request, URLRequest, AFError) -> Void)? {
        get { closures.withLock { $0.requestDidFailToAdaptURLRequestWithError } }
        set { closures.withLock { $0.requestDidFailToAdaptURLRequestWithError = newValue } }
    }

    /// Called on `request(_:didCreateURLRequest:)`, with the adapted request of each attempt.
    open var requestDidCreateURLRequest: ((Request, URLRequest) -> Void)? {
        get { closures.withLock { $0.requestDidCreateURLRequest } }
        set { closures.withLock { $0.requestDidCreateURLRequest = newValue } }
    }

    /// Called on `request(_:didCreateTransferFor:)`, with the `URLRequest` the attempt sends
    /// (also on each redirect hop).
    open var requestDidCreateTransfer: ((Request, URLRequest) -> Void)? {
        get { closures.withLock { $0.requestDidCreateTransfer } }
        set { closures.withLock { $0.requestDidCreateTransfer = newValue } }
    }

    /// Called on `request(_:didCreateTask:)`.
    open var requestDidCreateTask: ((Request, URLSessionTask) -> Void)? {
        get { closures.withLock { $0.requestDidCreateTask } }
        set { closures.withLock { $0.requestDidCreateTask = newValue } }
    }

    /// Called on `request(_:didResumeTask:)`.
    open var requestDidResumeTask: ((Request, URLSessionTask) -> Void)? {
        get { closures.withLock { $0.requestDidResumeTask } }
        set { closures.withLock { $0.requestDidResumeTask = newValue } }
    }

    /// Called on `request(_:didSuspendTask:)`.
    open var requestDidSuspendTask: ((Request, URLSessionTask) -> Void)? {
        get { closures.withLock { $0.requestDidSuspendTask } }
        set { closures.withLock { $0.requestDidSuspendTask = newValue } }
    }

    /// Called on `request(_:didCancelTask:)`.
    open var requestDidCancelTask: ((Request, URLSessionTask) -> Void)? {
        get { closures.withLock { $0.requestDidCancelTask } }
        set { closures.withLock { $0.requestDidCancelTask = newValue } }
    }

    /// Called on `request(_:didCompleteTask:with:)`.
    open var requestDidCompleteTaskWithError: ((Request, URLSessionTask, AFError?) -> Void)? {
        get { closures.withLock { $0.requestDidCompleteTaskWithError } }
        set { closures.withLock { $0.requestDidCompleteTaskWithError = newValue } }
    }

    /// Called on `request(_:didGatherMetrics:)`, once per attempt.
    open var requestDidGatherMetrics: ((Request, TransferMetrics) -> Void)? {
        get { closures.withLock { $0.requestDidGatherMetrics } }
        set { closures.withLock { $0.requestDidGatherMetrics = newValue } }
    }

    /// Called on `request(_:didFailTransferWithError:)`. Salvo's counterpart of Alamofire's
    /// `requestDidFailTaskEarlyWithError`.
    open var requestDidFailTransferWithError: ((Request, AFError) -> Void)? {
        get { closures.withLock { $0.requestDidFailTransferWithError } }
        set { closures.withLock { $0.requestDidFailTransferWithError = newValue } }
    }

    /// Called on `request(_:didCompleteAttemptWithError:)`, once per attempt. Salvo's
    /// counterpart of Alamofire's `requestDidCompleteTaskWithError`.
    open var requestDidCompleteAttemptWithError: ((Request, AFError?) -> Void)? {
        get { closures.withLock { $0.requestDidCompleteAttemptWithError } }
        set { closures.withLock { $0.requestDidCompleteAttemptWithError = newValue } }
    }

    /// Called on `requestIsRetrying(_:)`.
    open var requestIsRetrying: ((Request) -> Void)? {
        get { closures.withLock { $0.requestIsRetrying } }
        set { closures.withLock { $0.requestIsRetrying = newValue } }
    }

    /// Called on `requestDidFinish(_:)`.
    open var requestDidFinish: ((Request) -> Void)? {
        get { closures.withLock { $0.requestDidFinish } }
        set { closures.withLock { $0.requestDidFinish = newValue } }
    }

    /// Called on `requestDidResume(_:)`.
    open var requestDidResume: ((Request) -> Void)? {
        get { closures.withLock { $0.requestDidResume } }
        set { closures.withLock { $0.requestDidResume = newValue } }
    }

    /// Called on `requestDidSuspend(_:)`.
    open var requestDidSuspend: ((Request) -> Void)? {
        get { closures.withLock { $0.requestDidSuspend } }
        set { closures.withLock { $0.requestDidSuspend = newValue } }
    }

    /// Called on `requestDidCancel(_:)`.
    open var requestDidCancel: ((Request) -> Void)? {
        get { closures.withLock { $0.requestDidCancel } }
        set { closures.withLock { $0.requestDidCancel = newValue } }
    }

    /// Called on `request(_:didValidateRequest:response:data:withResult:)`.
    open var requestDidValidateRequestResponseDataWithResult:
        ((DataRequest, URLRequest?, HTTPURLResponse, Data?, Request.ValidationResult) -> Void)? {
        get { closures.withLock { $0.requestDidValidateRequestResponseDataWithResult } }
        set { closures.withLock { $0.requestDidValidateRequestResponseDataWithResult = newValue } }
    }

    /// Called on `request(_:didParseResponse:)` for the unserialized `DataResponse<Data?, AFError>`.
    open var requestDidParseResponse: ((DataRequest, DataResponse<Data?, AFError>) -> Void)? {
        get { closures.withLock { $0.requestDidParseResponse } }
        set { closures.withLock { $0.requestDidParseResponse = newValue } }
    }

    /// Called on `request(_:didValidateRequest:response:fileURL:withResult:)`.
    open var requestDidValidateRequestResponseFileURLWithResult:
        ((DownloadRequest, URLRequest?, HTTPURLResponse, URL?, Request.ValidationResult) -> Void)? {
        get { closures.withLock { $0.requestDidValidateRequestResponseFileURLWithResult } }
        set { closures.withLock { $0.requestDidValidateRequestResponseFileURLWithResult = newValue } }
    }

    /// Called on `request(_:didCreateDestinationURL:)`.
    open var requestDidCreateDestinationURL: ((DownloadRequest, URL) -> Void)? {
        get { closures.withLock { $0.requestDidCreateDestinationURL } }
        set { closures.withLock { $0.requestDidCreateDestinationURL = newValue } }
    }

    /// Called on `request(_:didParseResponse:)` for the unserialized `DownloadResponse<URL?, AFError>`.
    open var requestDidParseDownloadResponse: ((DownloadRequest, DownloadResponse<URL?, AFError>) -> Void)? {
        get { closures.withLock { $0.requestDidParseDownloadResponse } }
        set { closures.withLock { $0.requestDidParseDownloadResponse = newValue } }
    }

    /// Called on `request(_:didCreateUploadable:)`.
    open var requestDidCreateUploadable: ((UploadRequest, UploadRequest.Uploadable) -> Void)? {
        get { closures.withLock { $0.requestDidCreateUploadable } }
        set { closures.withLock { $0.requestDidCreateUploadable = newValue } }
    }

    /// Called on `request(_:didFailToCreateUploadableWithError:)`.
    open var requestDidFailToCreateUploadableWithError: ((UploadRequest, AFError) -> Void)? {
        get { closures.withLock { $0.requestDidFailToCreateUploadableWithError } }
        set { closures.withLock { $0.requestDidFailToCreateUploadableWithError = newValue } }
    }

    /// Called on `request(_:didProvideInputStream:)`.
    open var requestDidProvideInputStream: ((UploadRequest, InputStream) -> Void)? {
        get { closures.withLock { $0.requestDidProvideInputStream } }
        set { closures.withLock { $0.requestDidProvideInputStream = newValue } }
    }

    /// Called on `request(_:didValidateRequest:response:withResult:)` for a `DataStreamRequest`.
    open var requestDidValidateRequestResponseWithResult:
        ((DataStreamRequest, URLRequest?, HTTPURLResponse, Request.ValidationResult) -> Void)? {
        get { closures.withLock { $0.requestDidValidateRequestResponseWithResult } }
        set { closures.withLock { $0.requestDidValidateRequestResponseWithResult = newValue } }
    }

    // MARK: Events

    /// Calls `requestDidCreateInitialURLRequest`.
    open func request(_ request: Request, didCreateInitialURLRequest urlRequest: URLRequest) {
        requestDidCreateInitialURLRequest?(request, urlRequest)
    }

    /// Calls `requestDidFailToCreateURLRequestWithError`.
    open func request(_ request: Request, didFailToCreateURLRequestWithError error: AFError) {
        requestDidFailToCreateURLRequestWithError?(request, error)
    }

    /// Calls `requestDidAdaptInitialRequestToAdaptedRequest`.
    open func request(_ request: Request, didAdaptInitialRequest initialRequest: URLRequest, to adaptedRequest: URLRequest) {
        requestDidAdaptInitialRequestToAdaptedRequest?(request, initialRequest, adaptedRequest)
    }

    /// Calls `requestDidFailToAdaptURLRequestWithError`.
    open func request(_ request: Request, didFailToAdaptURLRequest initialRequest: URLRequest, withError error: AFError) {
        requestDidFailToAdaptURLRequestWithError?(request, initialRequest, error)
    }

    /// Calls `requestDidCreateURLRequest`.
    open func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest) {
        requestDidCreateURLRequest?(request, urlRequest)
    }

    /// Calls `requestDidCreateTransfer`.
    open func request(_ request: Request, didCreateTransferFor urlRequest: URLRequest) {
        requestDidCreateTransfer?(request, urlRequest)
    }

    /// Calls `requestDidCreateTask`.
    open func request(_ request: Request, didCreateTask task: URLSessionTask) {
        requestDidCreateTask?(request, task)
    }

    /// Calls `requestDidResumeTask`.
    public func request(_ request: Request, didResumeTask task: URLSessionTask) {
        requestDidResumeTask?(request, task)
    }

    /// Calls `requestDidSuspendTask`.
    public func request(_ request: Request, didSuspendTask task: URLSessionTask) {
        requestDidSuspendTask?(request, task)
    }

    /// Calls `requestDidCancelTask`.
    public func request(_ request: Request, didCancelTask task: URLSessionTask) {
        requestDidCancelTask?(request, task)
    }

    /// Calls `requestDidCompleteTaskWithError`.
    open func request(_ request: Request, didCompleteTask task: URLSessionTask, with error: AFError?) {
        requestDidCompleteTaskWithError?(request, task, error)
    }

    /// Calls `requestDidGatherMetrics`.
    open func request(_ request: Request, didGatherMetrics metrics: TransferMetrics) {
        requestDidGatherMetrics?(request, metrics)
    }

    /// Calls `requestDidFailTransferWithError`.
    open func request(_ request: Request, didFailTransferWithError error: AFError) {
        requestDidFailTransferWithError?(request, error)
    }

    /// Calls `requestDidCompleteAttemptWithError`.
    open func request(_ request: Request, didCompleteAttemptWithError error: AFError?) {
        requestDidCompleteAttemptWithError?(request, error)
    }

    /// Calls `requestIsRetrying`.
    open func requestIsRetrying(_ request: Request) {
        requestIsRetrying?(request)
    }

    /// Calls `requestDidFinish`.
    open func requestDidFinish(_ request: Request) {
        requestDidFinish?(request)
    }

    /// Calls `requestDidResume`.
    open func requestDidResume(_ request: Request) {
        requestDidResume?(request)
    }

    /// Calls `requestDidSuspend`.
    open func requestDidSuspend(_ request: Request) {
        requestDidSuspend?(request)
    }

    /// Calls `requestDidCancel`.
    open func requestDidCancel(_ request: Request) {
        requestDidCancel?(request)
    }

    /// Calls `requestDidValidateRequestResponseDataWithResult`.
    open func request(_ request: DataRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                      data: Data?, withResult result: Request.ValidationResult) {
        requestDidValidateRequestResponseDataWithResult?(request, urlRequest, response, data, result)
    }

    /// Calls `requestDidParseResponse`.
    open func request(_ request: DataRequest, didParseResponse response: DataResponse<Data?, AFError>) {
        requestDidParseResponse?(request, response)
    }

    /// Calls `requestDidValidateRequestResponseFileURLWithResult`.
    open func request(_ request: DownloadRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                      fileURL: URL?, withResult result: Request.ValidationResult) {
        requestDidValidateRequestResponseFileURLWithResult?(request, urlRequest, response, fileURL, result)
    }

    /// Calls `requestDidCreateDestinationURL`.
    open func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) {
        requestDidCreateDestinationURL?(request, url)
    }

    /// Calls `requestDidParseDownloadResponse`.
    open func request(_ request: DownloadRequest, didParseResponse response: DownloadResponse<URL?, AFError>) {
        requestDidParseDownloadResponse?(request, response)
    }

    /// Calls `requestDidCreateUploadable`.
    open func request(_ request: UploadRequest, didCreateUploadable uploadable: UploadRequest.Uploadable) {
        requestDidCreateUploadable?(request, uploadable)
    }

    /// Calls `requestDidFailToCreateUploadableWithError`.
    open func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: AFError) {
        requestDidFailToCreateUploadableWithError?(request, error)
    }

    /// Calls `requestDidProvideInputStream`.
    open func request(_ request: UploadRequest, didProvideInputStream stream: InputStream) {
        requestDidProvideInputStream?(request, stream)
    }

    /// Calls `requestDidValidateRequestResponseWithResult`.
    open func request(_ request: DataStreamRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                      withResult result: Request.ValidationResult) {
        requestDidValidateRequestResponseWithResult?(request, urlRequest, response, result)
    }
}
