// A SessionDelegate subclass written for Alamofire that overrides every URLSession delegate
// method Alamofire's SessionDelegate implements: it must compile against Salvo in Swift 5
// and Swift 6 language modes.
import Salvo
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class EveryEventDelegate: SessionDelegate, @unchecked Sendable {
    override func urlSession(_ session: URLSession, didBecomeInvalidWithError error: Error?) {
        super.urlSession(session, didBecomeInvalidWithError: error)
    }

    override func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                             completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        completionHandler(.performDefaultHandling, nil)
    }

    override func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                             totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        print("sent \(totalBytesSent) of \(totalBytesExpectedToSend)")
    }

    override func urlSession(_ session: URLSession, task: URLSessionTask,
                             needNewBodyStream completionHandler: @escaping (InputStream?) -> Void) {
        completionHandler(nil)
    }

    override func urlSession(_ session: URLSession, task: URLSessionTask,
                             willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
                             completionHandler: @escaping (URLRequest?) -> Void) {
        super.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: request,
                         completionHandler: completionHandler)
    }

    override func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        print(metrics.taskInterval)
    }

    override func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        super.urlSession(session, task: task, didCompleteWithError: error)
    }

    override func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask) {
        print("waiting: \(task.taskIdentifier)")
    }

    override func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                             completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        completionHandler(.allow)
    }

    override func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        print("received \(data.count) bytes")
    }

    override func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse,
                             completionHandler: @escaping (CachedURLResponse?) -> Void) {
        completionHandler(proposedResponse)
    }

    override func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
                             expectedTotalBytes: Int64) {
        print("resumed at \(fileOffset)")
    }

    override func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                             totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        print("wrote \(totalBytesWritten)")
    }

    override func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        print("downloaded to \(location.path)")
    }
}

let everyEventSession = Session(delegate: EveryEventDelegate())
