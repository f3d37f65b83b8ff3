// A ClosureEventMonitor set up as for Alamofire, with every URLSession-level closure, and an
// EventMonitor implementing the URLSession-level events: both must compile against Salvo in
// Swift 5 and Swift 6 language modes.
import Salvo
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let closureMonitor = ClosureEventMonitor()

func setEveryURLSessionClosure() {
    closureMonitor.sessionDidBecomeInvalidWithError = { _, error in print("invalid: \(String(describing: error))") }
    closureMonitor.taskDidReceiveChallenge = { _, task, challenge in print(task.taskIdentifier, challenge.protectionSpace.host) }
    closureMonitor.taskDidSendBodyData = { _, _, sent, total, expected in print(sent, total, expected) }
    closureMonitor.taskNeedNewBodyStream = { _, task in print(task.taskIdentifier) }
    closureMonitor.taskWillPerformHTTPRedirection = { _, _, response, request in print(response.statusCode, request) }
    closureMonitor.taskDidFinishCollectingMetrics = { _, _, metrics in print(metrics.redirectCount) }
    closureMonitor.taskDidComplete = { _, task, error in print(task.taskIdentifier, String(describing: error)) }
    closureMonitor.taskIsWaitingForConnectivity = { _, task in print(task.taskIdentifier) }
    closureMonitor.dataTaskDidReceiveResponse = { _, _, response in print(response.expectedContentLength) }
    closureMonitor.dataTaskDidReceiveData = { _, _, data in print(data.count) }
    closureMonitor.dataTaskWillCacheResponse = { _, _, proposed in print(proposed.data.count) }
    closureMonitor.downloadTaskDidFinishDownloadingToURL = { _, _, location in print(location.path) }
    closureMonitor.downloadTaskDidWriteData = { _, _, written, total, expected in print(written, total, expected) }
    closureMonitor.downloadTaskDidResumeAtOffset = { _, _, offset, expected in print(offset, expected) }
    closureMonitor.requestDidFailTaskEarlyWithError = { request, task, error in print(request.id, task.taskIdentifier, error) }
    closureMonitor.requestDidFinishDownloadingUsingTaskWithResult = { request, _, result in print(request.id, result) }
}

struct URLSessionEventLogger: EventMonitor {
    let queue = DispatchQueue(label: "logger")

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest) {
        print("redirect to \(request)")
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        print("task \(task.taskIdentifier) completed")
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        print("downloaded to \(location)")
    }
}

let monitoredSession = Session(eventMonitors: [closureMonitor, URLSessionEventLogger()])
