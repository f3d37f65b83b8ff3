import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives a request's lifecycle events, on the monitor's own `queue`.
///
/// Every method has an empty default, so a monitor implements only what it watches.
/// Alamofire's task and URLSession-level events come with Salvo's tasks (made for monitors
/// only); Salvo adds events of its own about the attempt's transfer, with its
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
    /// An attempt's `URLRequest` is final (adapted), just before its transfer is created; once
    /// per attempt, not per redirect hop.
    func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest)
    /// An attempt's transfer, or a redirect hop's, was handed to the engine.
    func request(_ request: Request, didCreateTransferFor urlRequest: URLRequest)
    /// An attempt's task was made (once per attempt, with monitors only): Alamofire's event.
    func request(_ request: Request, didCreateTask task: URLSessionTask)
    /// An attempt's task started or resumed.
    func request(_ request: Request, didResumeTask task: URLSessionTask)
    /// An attempt's task was suspended.
    func request(_ request: Request, didSuspendTask task: URLSessionTask)
    /// An attempt's task was cancelled.
    func request(_ request: Request, didCancelTask task: URLSessionTask)
    /// An attempt's task completed, with the attempt's error, if any.
    func request(_ request: Request, didCompleteTask task: URLSessionTask, with error: AFError?)
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
    /// A `DownloadRequest` was validated. `fileURL` is where the bytes are while validators
    /// run: Salvo moves the file to its destination only after they pass.
    func request(_ request: DownloadRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse, fileURL: URL?,
                 withResult result: Request.ValidationResult)
    /// A `DownloadRequest`'s file was moved to its destination.
    func request(_ request: DownloadRequest, didCreateDestinationURL url: URL)
    /// A `DownloadRequest` was given a response.
    func request(_ request: DownloadRequest, didParseResponse response: DownloadResponse<URL?, AFError>)
    /// A `DownloadRequest`'s response was serialized.
    func request<Value>(_ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, AFError>)
    /// An `UploadRequest` made what it sends (on its first attempt).
    func request(_ request: UploadRequest, didCreateUploadable uploadable: UploadRequest.Uploadable)
    /// An `UploadRequest` could not make what it sends.
    func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: AFError)
    /// An `UploadRequest`'s stream was handed to the transfer that reads it.
    func request(_ request: UploadRequest, didProvideInputStream stream: InputStream)
    /// A `DataStreamRequest` was validated, once per validator.
    func request(_ request: DataStreamRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                 withResult result: Request.ValidationResult)
    /// A `DataStreamRequest`'s serializer made a value (or failed to) from the stream.
    func request<Value>(_ request: DataStreamRequest, didParseStream result: Result<Value, AFError>)
    /// An attempt's task failed before its transfer ran: Alamofire's event, not sent (Salvo
    /// sends `request(_:didFailTransferWithError:)`).
    func request(_ request: Request, didFailTask task: URLSessionTask, earlyWithError error: AFError)
    /// A `DownloadRequest`'s file was moved to its destination, or the move failed: Alamofire's
    /// event, sent after `urlSession(_:downloadTask:didFinishDownloadingTo:)`.
    func request(_ request: DownloadRequest, didFinishDownloadingUsing task: URLSessionTask, with result: Result<URL, AFError>)

    // Alamofire's URLSession-level events, with `Session.session` and the attempt's task.
    // Salvo's transfers do not run on a URLSession: it sends those that have a counterpart
    // (a redirect, an attempt's end, a download's complete file); see
    // EventMonitor+URLSession.swift for each.
    /// The session went away: Alamofire's event, sent with `nil` on the session's
    /// `rootQueue` by `SessionDelegate`'s default `urlSession(_:didBecomeInvalidWithError:)`.
    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?)
    /// A task met an authentication challenge: Alamofire's event, not sent (libcurl answers
    /// challenges with the request's credential and the session's `ServerTrustManager`).
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge)
    /// An attempt's task sent body bytes: sent at most every 50 ms or 1% of the body, and
    /// once with the whole body sent.
    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
                    totalBytesExpectedToSend: Int64)
    /// A task needs its body stream again: Alamofire's event, not sent (a stream that must
    /// be sent again fails its request).
    func urlSession(_ session: URLSession, taskNeedsNewBodyStream task: URLSessionTask)
    /// An attempt's task received a redirect response: sent for each one, before the
    /// redirect handler is asked.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest)
    /// A task's metrics were collected: Alamofire's event, not sent (only URLSession makes
    /// `URLSessionTaskMetrics`; Salvo sends `request(_:didGatherMetrics:)`).
    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics)
    /// An attempt's task completed: sent once per attempt, after its last redirect hop, with
    /// its transport error as URLSession reports it.
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
    /// A task waits for connectivity: Alamofire's event, not sent (a request waits for its
    /// connection in Salvo's per-host queue).
    func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask)
    /// A data task received its response: Alamofire's event, not sent (`onHTTPResponse`
    /// handlers receive the response).
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse)
    /// A data task received body bytes: Alamofire's event, not sent (a data request's body
    /// is gathered on the event loop).
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data)
    /// A data task's response may be cached: Alamofire's event, not sent (the
    /// `CachedResponseHandler` decides what is stored).
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse)
    /// A download task resumed at an offset: Alamofire's event, not sent (a resumed
    /// download continues where its file ends).
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
                    expectedTotalBytes: Int64)
    /// A download task wrote bytes to its file: sent at most every 50 ms or 1% of the file,
    /// and once with the whole file written when its size is known.
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64)
    /// A download task's file is complete at `location`: sent just before the request moves
    /// the file to its destination, so the file must be left where it is.
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL)
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
    public func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest) {}
    /// Does nothing.
    public func request(_ request: Request, didCreateTransferFor urlRequest: URLRequest) {}
    /// Does nothing.
    public func request(_ request: Request, didCreateTask task: URLSessionTask) {}
    /// Does nothing.
    public func request(_ request: Request, didResumeTask task: URLSessionTask) {}
    /// Does nothing.
    public func request(_ request: Request, didSuspendTask task: URLSessionTask) {}
    /// Does nothing.
    public func request(_ request: Request, didCancelTask task: URLSessionTask) {}
    /// Does nothing.
    public func request(_ request: Request, didCompleteTask task: URLSessionTask, with error: AFError?) {}
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
    /// Does nothing.
    public func request(_ request: DownloadRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse, fileURL: URL?,
                        withResult result: Request.ValidationResult) {}
    /// Does nothing.
    public func request(_ request: DownloadRequest, didCreateDestinationURL url: URL) {}
    /// Does nothing.
    public func request(_ request: DownloadRequest, didParseResponse response: DownloadResponse<URL?, AFError>) {}
    /// Does nothing.
    public func request<Value>(_ request: DownloadRequest, didParseResponse response: DownloadResponse<Value, AFError>) {}
    /// Does nothing.
    public func request(_ request: UploadRequest, didCreateUploadable uploadable: UploadRequest.Uploadable) {}
    /// Does nothing.
    public func request(_ request: UploadRequest, didFailToCreateUploadableWithError error: AFError) {}
    /// Does nothing.
    public func request(_ request: UploadRequest, didProvideInputStream stream: InputStream) {}
    /// Does nothing.
    public func request(_ request: DataStreamRequest, didValidateRequest urlRequest: URLRequest?, response: HTTPURLResponse,
                        withResult result: Request.ValidationResult) {}
    /// Does nothing.
    public func request<Value>(_ request: DataStreamRequest, didParseStream result: Result<Value, AFError>) {}
}
