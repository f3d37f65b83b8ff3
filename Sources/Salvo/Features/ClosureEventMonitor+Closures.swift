import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every closure of a `ClosureEventMonitor`, kept behind its one lock.
struct ClosureEventMonitorClosures: @unchecked Sendable { // under ClosureEventMonitor's `closures` Mutex; each closure runs only on its `queue`
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
    var sessionDidBecomeInvalidWithError: ((URLSession, (any Error)?) -> Void)?
    var taskDidReceiveChallenge: ((URLSession, URLSessionTask, URLAuthenticationChallenge) -> Void)?
    var taskDidSendBodyData: ((URLSession, URLSessionTask, Int64, Int64, Int64) -> Void)?
    var taskNeedNewBodyStream: ((URLSession, URLSessionTask) -> Void)?
    var taskWillPerformHTTPRedirection: ((URLSession, URLSessionTask, HTTPURLResponse, URLRequest) -> Void)?
    var taskDidFinishCollectingMetrics: ((URLSession, URLSessionTask, URLSessionTaskMetrics) -> Void)?
    var taskDidComplete: ((URLSession, URLSessionTask, (any Error)?) -> Void)?
    var taskIsWaitingForConnectivity: ((URLSession, URLSessionTask) -> Void)?
    var dataTaskDidReceiveResponse: ((URLSession, URLSessionDataTask, URLResponse) -> Void)?
    var dataTaskDidReceiveData: ((URLSession, URLSessionDataTask, Data) -> Void)?
    var dataTaskWillCacheResponse: ((URLSession, URLSessionDataTask, CachedURLResponse) -> Void)?
    var downloadTaskDidFinishDownloadingToURL: ((URLSession, URLSessionDownloadTask, URL) -> Void)?
    var downloadTaskDidWriteData: ((URLSession, URLSessionDownloadTask, Int64, Int64, Int64) -> Void)?
    var downloadTaskDidResumeAtOffset: ((URLSession, URLSessionDownloadTask, Int64, Int64) -> Void)?
    var requestDidFailTaskEarlyWithError: ((Request, URLSessionTask, AFError) -> Void)?
    var requestDidFinishDownloadingUsingTaskWithResult: ((DownloadRequest, URLSessionTask, Result<URL, AFError>) -> Void)?
}
