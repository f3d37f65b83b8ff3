import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Empty defaults for Alamofire's URLSession-level monitor events, each saying whether Salvo
// sends it.
extension EventMonitor {
    /// Does nothing. Not sent: Salvo sends `request(_:didFailTransferWithError:)`.
    public func request(_ request: Request, didFailTask task: URLSessionTask, earlyWithError error: AFError) {}
    /// Does nothing. Sent once a download's file was moved to its destination (or failed to
    /// move), after `urlSession(_:downloadTask:didFinishDownloadingTo:)`.
    public func request(_ request: DownloadRequest, didFinishDownloadingUsing task: URLSessionTask, with result: Result<URL, AFError>) {}
    /// Does nothing. Sent with `nil` on the session's `rootQueue` once the session has gone
    /// away, by `SessionDelegate`'s default `urlSession(_:didBecomeInvalidWithError:)`.
    public func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {}
    /// Does nothing. Not sent: libcurl answers challenges (credentials, server trust).
    public func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge) {}
    /// Does nothing. Sent as a request's body goes out: at most every 50 ms or 1% of the
    /// body, and once with the whole body sent.
    public func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
                           totalBytesExpectedToSend: Int64) {}
    /// Does nothing. Not sent: a stream that must be sent again fails its request.
    public func urlSession(_ session: URLSession, taskNeedsNewBodyStream task: URLSessionTask) {}
    /// Does nothing. Sent for each redirect response of an attempt, before the redirect
    /// handler is asked.
    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest request: URLRequest) {}
    /// Does nothing. Not sent: only URLSession can make `URLSessionTaskMetrics`; see
    /// `request(_:didGatherMetrics:)`.
    public func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {}
    /// Does nothing. Sent once per attempt, after its last redirect hop, with its transport
    /// error, as the session's delegate hears it.
    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {}
    /// Does nothing. Not sent: a request waits for its connection inside libcurl.
    public func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask) {}
    /// Does nothing. Not sent: `onHTTPResponse` handlers receive the response.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse) {}
    /// Does nothing. Not sent: a data request's body is gathered on the event loop.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {}
    /// Does nothing. Not sent: the `CachedResponseHandler` decides what is stored.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse) {}
    /// Does nothing. Not sent: a resumed download continues where its file ends.
    public func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
                           expectedTotalBytes: Int64) {}
    /// Does nothing. Sent as a download's bytes are written: at most every 50 ms or 1% of the
    /// file, and once with the whole file written when its size is known.
    public func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                           totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {}
    /// Does nothing. Sent with a download's complete file at its temporary location, just
    /// before the request moves it to its destination.
    public func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}
}
