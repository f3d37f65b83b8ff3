import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Alamofire's URLSession-level events, forwarded. Foundation's challenge, metrics and
// response types are not `Sendable`; each event hands them to the monitors' queues as
// URLSession hands them to its delegate queue, without touching them here.
extension CompositeEventMonitor {
    /// Forwards the event to every monitor.
    public func request(_ request: Request, didFailTask task: URLSessionTask, earlyWithError error: AFError) {
        each { $0.request(request, didFailTask: task, earlyWithError: error) }
    }
    /// Forwards the event to every monitor.
    public func request(_ request: DownloadRequest, didFinishDownloadingUsing task: URLSessionTask, with result: Result<URL, AFError>) {
        each { $0.request(request, didFinishDownloadingUsing: task, with: result) }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        let error = UncheckedValue(error)
        each { $0.urlSession(session, didBecomeInvalidWithError: error.value) }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge) {
        let challenge = UncheckedValue(challenge)
        each { $0.urlSession(session, task: task, didReceive: challenge.value) }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
                           totalBytesExpectedToSend: Int64) {
        each {
            $0.urlSession(session, task: task, didSendBodyData: bytesSent, totalBytesSent: totalBytesSent,
                          totalBytesExpectedToSend: totalBytesExpectedToSend)
        }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, taskNeedsNewBodyStream task: URLSessionTask) {
        each { $0.urlSession(session, taskNeedsNewBodyStream: task) }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest request: URLRequest) {
        each { $0.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: request) }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        let metrics = UncheckedValue(metrics)
        each { $0.urlSession(session, task: task, didFinishCollecting: metrics.value) }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let error = UncheckedValue(error)
        each { $0.urlSession(session, task: task, didCompleteWithError: error.value) }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask) {
        each { $0.urlSession(session, taskIsWaitingForConnectivity: task) }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse) {
        let response = UncheckedValue(response)
        each { $0.urlSession(session, dataTask: dataTask, didReceive: response.value) }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        each { $0.urlSession(session, dataTask: dataTask, didReceive: data) }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse) {
        let proposed = UncheckedValue(proposedResponse)
        each { $0.urlSession(session, dataTask: dataTask, willCacheResponse: proposed.value) }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
                           expectedTotalBytes: Int64) {
        each { $0.urlSession(session, downloadTask: downloadTask, didResumeAtOffset: fileOffset, expectedTotalBytes: expectedTotalBytes) }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                           totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        each {
            $0.urlSession(session, downloadTask: downloadTask, didWriteData: bytesWritten, totalBytesWritten: totalBytesWritten,
                          totalBytesExpectedToWrite: totalBytesExpectedToWrite)
        }
    }
    /// Forwards the event to every monitor.
    public func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        each { $0.urlSession(session, downloadTask: downloadTask, didFinishDownloadingTo: location) }
    }
}

/// A Foundation value that is not `Sendable`, carried to the monitors' queues. Each monitor
/// only reads it, as URLSession's delegates read what their queue is handed.
private struct UncheckedValue<Value>: @unchecked Sendable { // read-only after creation; monitors read it on their own queues
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
