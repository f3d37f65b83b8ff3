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
///   `requestDidCompleteAttemptWithError`); metrics are `TransferMetrics`. Alamofire's
///   `URLSession`-level closures are here too; Salvo calls those with a counterpart
///   (`taskWillPerformHTTPRedirection`, `taskDidComplete`, `taskDidSendBodyData`,
///   `downloadTaskDidWriteData`, `downloadTaskDidFinishDownloadingToURL`,
///   `requestDidFinishDownloadingUsingTaskWithResult`),
///   and each of the others says why it is not called.
open class ClosureEventMonitor: EventMonitor, @unchecked Sendable { // closures in a Mutex; `queue` immutable
    // `@unchecked Sendable` only because an `open` class cannot be checked: every closure
    // lives in `closures`, a Mutex, and `queue` is an immutable, thread-safe reference.

    /// Every closure, behind one lock; each event copies its closure out and calls it after
    /// the lock is released, so a closure may itself set closures without deadlocking.
    private let closures = Mutex(ClosureEventMonitorClosures())

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

    // MARK: Alamofire's URLSession-level closures

    /// Called on `urlSession(_:didBecomeInvalidWithError:)`, once the session has gone away.
    open var sessionDidBecomeInvalidWithError: ((URLSession, (any Error)?) -> Void)? {
        get { closures.withLock { $0.sessionDidBecomeInvalidWithError } }
        set { closures.withLock { $0.sessionDidBecomeInvalidWithError = newValue } }
    }

    /// Called on `urlSession(_:task:didReceive:)`, which Salvo does not send.
    open var taskDidReceiveChallenge: ((URLSession, URLSessionTask, URLAuthenticationChallenge) -> Void)? {
        get { closures.withLock { $0.taskDidReceiveChallenge } }
        set { closures.withLock { $0.taskDidReceiveChallenge = newValue } }
    }

    /// Called on `urlSession(_:task:didSendBodyData:totalBytesSent:totalBytesExpectedToSend:)`, as a body goes out.
    open var taskDidSendBodyData: ((URLSession, URLSessionTask, Int64, Int64, Int64) -> Void)? {
        get { closures.withLock { $0.taskDidSendBodyData } }
        set { closures.withLock { $0.taskDidSendBodyData = newValue } }
    }

    /// Called on `urlSession(_:taskNeedsNewBodyStream:)`, which Salvo does not send.
    open var taskNeedNewBodyStream: ((URLSession, URLSessionTask) -> Void)? {
        get { closures.withLock { $0.taskNeedNewBodyStream } }
        set { closures.withLock { $0.taskNeedNewBodyStream = newValue } }
    }

    /// Called on `urlSession(_:task:willPerformHTTPRedirection:newRequest:)`, for each redirect response.
    open var taskWillPerformHTTPRedirection: ((URLSession, URLSessionTask, HTTPURLResponse, URLRequest) -> Void)? {
        get { closures.withLock { $0.taskWillPerformHTTPRedirection } }
        set { closures.withLock { $0.taskWillPerformHTTPRedirection = newValue } }
    }

    /// Called on `urlSession(_:task:didFinishCollecting:)`, which Salvo does not send (see `requestDidGatherMetrics`).
    open var taskDidFinishCollectingMetrics: ((URLSession, URLSessionTask, URLSessionTaskMetrics) -> Void)? {
        get { closures.withLock { $0.taskDidFinishCollectingMetrics } }
        set { closures.withLock { $0.taskDidFinishCollectingMetrics = newValue } }
    }

    /// Called on `urlSession(_:task:didCompleteWithError:)`, once per attempt.
    open var taskDidComplete: ((URLSession, URLSessionTask, (any Error)?) -> Void)? {
        get { closures.withLock { $0.taskDidComplete } }
        set { closures.withLock { $0.taskDidComplete = newValue } }
    }

    /// Called on `urlSession(_:taskIsWaitingForConnectivity:)`, which Salvo does not send.
    open var taskIsWaitingForConnectivity: ((URLSession, URLSessionTask) -> Void)? {
        get { closures.withLock { $0.taskIsWaitingForConnectivity } }
        set { closures.withLock { $0.taskIsWaitingForConnectivity = newValue } }
    }

    /// Called on `urlSession(_:dataTask:didReceive:)` with the response, which Salvo does not send.
    open var dataTaskDidReceiveResponse: ((URLSession, URLSessionDataTask, URLResponse) -> Void)? {
        get { closures.withLock { $0.dataTaskDidReceiveResponse } }
        set { closures.withLock { $0.dataTaskDidReceiveResponse = newValue } }
    }

    /// Called on `urlSession(_:dataTask:didReceive:)` with data, which Salvo does not send.
    open var dataTaskDidReceiveData: ((URLSession, URLSessionDataTask, Data) -> Void)? {
        get { closures.withLock { $0.dataTaskDidReceiveData } }
        set { closures.withLock { $0.dataTaskDidReceiveData = newValue } }
    }

    /// Called on `urlSession(_:dataTask:willCacheResponse:)`, which Salvo does not send.
    open var dataTaskWillCacheResponse: ((URLSession, URLSessionDataTask, CachedURLResponse) -> Void)? {
        get { closures.withLock { $0.dataTaskWillCacheResponse } }
        set { closures.withLock { $0.dataTaskWillCacheResponse = newValue } }
    }

    /// Called on `urlSession(_:downloadTask:didFinishDownloadingTo:)`, before the file is moved.
    open var downloadTaskDidFinishDownloadingToURL: ((URLSession, URLSessionDownloadTask, URL) -> Void)? {
        get { closures.withLock { $0.downloadTaskDidFinishDownloadingToURL } }
        set { closures.withLock { $0.downloadTaskDidFinishDownloadingToURL = newValue } }
    }

    /// Called on `urlSession(_:downloadTask:didWriteData:totalBytesWritten:totalBytesExpectedToWrite:)`, as a download is written.
    open var downloadTaskDidWriteData: ((URLSession, URLSessionDownloadTask, Int64, Int64, Int64) -> Void)? {
        get { closures.withLock { $0.downloadTaskDidWriteData } }
        set { closures.withLock { $0.downloadTaskDidWriteData = newValue } }
    }

    /// Called on `urlSession(_:downloadTask:didResumeAtOffset:expectedTotalBytes:)`, which Salvo does not send.
    open var downloadTaskDidResumeAtOffset: ((URLSession, URLSessionDownloadTask, Int64, Int64) -> Void)? {
        get { closures.withLock { $0.downloadTaskDidResumeAtOffset } }
        set { closures.withLock { $0.downloadTaskDidResumeAtOffset = newValue } }
    }

    /// Called on `request(_:didFailTask:earlyWithError:)`, which Salvo does not send (see `requestDidFailTransferWithError`).
    open var requestDidFailTaskEarlyWithError: ((Request, URLSessionTask, AFError) -> Void)? {
        get { closures.withLock { $0.requestDidFailTaskEarlyWithError } }
        set { closures.withLock { $0.requestDidFailTaskEarlyWithError = newValue } }
    }

    /// Called on `request(_:didFinishDownloadingUsing:with:)`, once a download's file was moved (or failed to move).
    open var requestDidFinishDownloadingUsingTaskWithResult: ((DownloadRequest, URLSessionTask, Result<URL, AFError>) -> Void)? {
        get { closures.withLock { $0.requestDidFinishDownloadingUsingTaskWithResult } }
        set { closures.withLock { $0.requestDidFinishDownloadingUsingTaskWithResult = newValue } }
    }

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


    /// Calls `sessionDidBecomeInvalidWithError`.
    open func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        sessionDidBecomeInvalidWithError?(session, error)
    }

    /// Calls `taskDidReceiveChallenge`.
    open func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge) {
        taskDidReceiveChallenge?(session, task, challenge)
    }

    /// Calls `taskDidSendBodyData`.
    open func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
                         totalBytesExpectedToSend: Int64) {
        taskDidSendBodyData?(session, task, bytesSent, totalBytesSent, totalBytesExpectedToSend)
    }

    /// Calls `taskNeedNewBodyStream`.
    open func urlSession(_ session: URLSession, taskNeedsNewBodyStream task: URLSessionTask) {
        taskNeedNewBodyStream?(session, task)
    }

    /// Calls `taskWillPerformHTTPRedirection`.
    open func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                         newRequest request: URLRequest) {
        taskWillPerformHTTPRedirection?(session, task, response, request)
    }

    /// Calls `taskDidFinishCollectingMetrics`.
    open func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        taskDidFinishCollectingMetrics?(session, task, metrics)
    }

    /// Calls `taskDidComplete`.
    open func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        taskDidComplete?(session, task, error)
    }

    /// Calls `taskIsWaitingForConnectivity`.
    open func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask) {
        taskIsWaitingForConnectivity?(session, task)
    }

    /// Calls `dataTaskDidReceiveResponse`.
    open func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse) {
        dataTaskDidReceiveResponse?(session, dataTask, response)
    }

    /// Calls `dataTaskDidReceiveData`.
    open func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        dataTaskDidReceiveData?(session, dataTask, data)
    }

    /// Calls `dataTaskWillCacheResponse`.
    open func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse) {
        dataTaskWillCacheResponse?(session, dataTask, proposedResponse)
    }

    /// Calls `downloadTaskDidResumeAtOffset`.
    open func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
                         expectedTotalBytes: Int64) {
        downloadTaskDidResumeAtOffset?(session, downloadTask, fileOffset, expectedTotalBytes)
    }

    /// Calls `downloadTaskDidWriteData`.
    open func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                         totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        downloadTaskDidWriteData?(session, downloadTask, bytesWritten, totalBytesWritten, totalBytesExpectedToWrite)
    }

    /// Calls `downloadTaskDidFinishDownloadingToURL`.
    open func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        downloadTaskDidFinishDownloadingToURL?(session, downloadTask, location)
    }

    /// Calls `requestDidFailTaskEarlyWithError`.
    open func request(_ request: Request, didFailTask task: URLSessionTask, earlyWithError error: AFError) {
        requestDidFailTaskEarlyWithError?(request, task, error)
    }

    /// Calls `requestDidFinishDownloadingUsingTaskWithResult`.
    open func request(_ request: DownloadRequest, didFinishDownloadingUsing task: URLSessionTask, with result: Result<URL, AFError>) {
        requestDidFinishDownloadingUsingTaskWithResult?(request, task, result)
    }
}
