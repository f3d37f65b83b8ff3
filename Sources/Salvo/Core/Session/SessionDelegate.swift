import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives the transfer-level events of a `Session`'s requests; subclass it to watch or
/// change them, and call `super` to keep the default behaviour.
///
/// Alamofire's `SessionDelegate` implements `URLSessionDelegate`, whose methods take a
/// `URLSession` and a `URLSessionTask`. Salvo's has both kinds of method: Alamofire's
/// `urlSession(...)` methods, with Alamofire's signatures, called with `Session.session` and
/// the attempt's task (`Request.task`), and methods that take the `Request`. Each
/// `urlSession(...)` method's default calls its `request(...)` counterpart, so a subclass may
/// override either:
///
/// | Alamofire (URLSessionTaskDelegate) | Salvo's `Request` counterpart |
/// |---|---|
/// | `urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:)` | `request(_:willPerformHTTPRedirection:newRequest:completionHandler:)` |
/// | `urlSession(_:task:didCompleteWithError:)` | `request(_:didCompleteWithError:)` |
/// | `urlSession(_:task:didFinishCollecting:)` (`URLSessionTaskMetrics`, which only URLSession can make: not called) | `request(_:didFinishCollecting:)` with `TransferMetrics` |
/// | `urlSession(_:downloadTask:didFinishDownloadingTo:)` (before the request moves the file) | none |
/// | `urlSession(_:task:didSendBodyData:totalBytesSent:totalBytesExpectedToSend:)`, `urlSession(_:downloadTask:didWriteData:totalBytesWritten:totalBytesExpectedToWrite:)` (throttled, as progress handlers are) | none |
///
/// Alamofire's other `urlSession(...)` methods are declared, so a subclass written for
/// Alamofire compiles, but not called: each says where Salvo offers the same.
///
/// - Note: The methods run on the request's delivery queue (its first response handler's
///   queue), never on Salvo's event-loop thread.
open class SessionDelegate: NSObject, @unchecked Sendable { // `session` is behind `sessionBox` (a Mutex), `fileManager` is a Sendable `let`; subclasses guard their own

    private let sessionBox = Mutex<WeakSession>(WeakSession())

    private struct WeakSession {
        weak var session: Session?
        /// The session's monitors, held strongly as Alamofire's delegate holds its
        /// `eventMonitor`: they hear of the session's invalidation after it is gone.
        var monitor: CompositeEventMonitor?
    }

    /// The session this delegate serves, set when the session is created.
    public var session: Session? { sessionBox.withLock { $0.session } }

    /// The file manager given at creation, for the delegate's file work.
    ///
    /// - Note: Alamofire's delegate moves finished downloads with it. Salvo's downloads are
    ///   moved into place by the request itself, which uses `FileManager.default` for now.
    let fileManager: FileManager

    /// Creates a delegate.
    ///
    /// - Parameter fileManager: The `FileManager` for file work. `.default` by default.
    public init(fileManager: FileManager = .default) {
        self.fileManager = fileManager
        super.init()
    }

    func attach(to session: Session) {
        sessionBox.withLock {
            $0.session = session
            $0.monitor = session.monitor
        }
    }

    /// A response redirects. The default asks the request's redirect handler, else the
    /// session's, and follows when there is none, as URLSession does.
    ///
    /// - Parameters:
    ///   - request: The request being redirected.
    ///   - response: The redirect response.
    ///   - newRequest: What Salvo would send next (method and headers adjusted as URLSession
    ///     adjusts them; credentials and cookies dropped when the origin changes).
    ///   - completionHandler: Call once with the request to send, or `nil` to stop and
    ///     deliver the redirect response itself.
    open func request(_ request: Request, willPerformHTTPRedirection response: HTTPURLResponse, newRequest: URLRequest,
                      completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        let handler = request.redirectHandler ?? session?.redirectHandler
        guard let handler else {
            completionHandler(newRequest)
            return
        }
        handler.task(request, willBeRedirectedTo: newRequest, for: response, completion: completionHandler)
    }

    /// A response redirects: Alamofire's method. The default calls
    /// `request(_:willPerformHTTPRedirection:newRequest:completionHandler:)` with the task's
    /// request (and follows, for a task that is not Salvo's).
    ///
    /// - Parameters:
    ///   - session: `Session.session`.
    ///   - task: The attempt's task.
    ///   - response: The redirect response.
    ///   - request: What Salvo would send next.
    ///   - completionHandler: Call once with the request to send, or `nil` to stop.
    open func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                         newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        let completion = UncheckedCompletion(completionHandler)
        guard let salvoRequest = (task as? any RequestTask)?.request else { return completion.call(request) }
        self.request(salvoRequest, willPerformHTTPRedirection: response, newRequest: request) { completion.call($0) }
    }

    /// An attempt's transfer ended: Alamofire's method. The default calls
    /// `request(_:didCompleteWithError:)` with the task's request.
    ///
    /// - Parameters:
    ///   - session: `Session.session`.
    ///   - task: The attempt's task.
    ///   - error: The transport error (the `URLError`, or the `AFError` of a failed server
    ///     trust evaluation), or `nil`.
    open func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let salvoRequest = (task as? any RequestTask)?.request else { return }
        request(salvoRequest, didCompleteWithError: error.map { $0.asAFError(or: .sessionTaskFailed(error: $0)) })
    }

    /// A download's file is complete: Alamofire's method, called with the file at its
    /// temporary location just before the request moves it to its destination (Alamofire's
    /// default does the move; Salvo's request does it after this returns, so the file must be
    /// left where it is). Called only for a subclass. The default does nothing.
    ///
    /// - Parameters:
    ///   - session: `Session.session`.
    ///   - downloadTask: The attempt's task.
    ///   - location: The complete file.
    open func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {}

    // Alamofire's other URLSession delegate methods, declared with its signatures so that a
    // subclass written for Alamofire compiles. The events they stand for happen inside
    // libcurl on Salvo's event loop, not in a URLSession, so Salvo does not call them; each
    // says where Salvo offers the same.

    /// Called with `nil` once the session has gone away, on its `rootQueue`, as URLSession
    /// tells its delegate when Alamofire's `Session` invalidates it in its `deinit`; the
    /// session's requests still running then end with `sessionDeinitialized`. The default
    /// tells the session's event monitors (`EventMonitor.urlSession(_:didBecomeInvalidWithError:)`),
    /// so an override that does not call `super` keeps them from hearing it, as in Alamofire.
    open func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        sessionBox.withLock { $0.monitor }?.urlSession(session, didBecomeInvalidWithError: error)
    }

    /// Not called: libcurl answers authentication challenges with the request's credential
    /// (`authenticate(username:password:)`), and server trust is the `ServerTrustManager`'s.
    open func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                         completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        completionHandler(.performDefaultHandling, nil)
    }

    /// A request's body is being sent: Alamofire's method, called for a subclass in order on
    /// the session's root queue, at most every 50 ms or 1% of the body, and once with the
    /// whole body sent; the total expected is -1 when unknown (a stream). The default does
    /// nothing; `uploadProgress` handlers and `Request.uploadProgress` are the request's own.
    open func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
                         totalBytesExpectedToSend: Int64) {}

    /// Not called: an upload stream that must be sent again fails the request, as a stream
    /// cannot be read twice.
    open func urlSession(_ session: URLSession, task: URLSessionTask, needNewBodyStream completionHandler: @escaping (InputStream?) -> Void) {
        completionHandler(nil)
    }

    /// Not called: only URLSession can make `URLSessionTaskMetrics`; see
    /// `request(_:didFinishCollecting:)` with `TransferMetrics`.
    open func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {}

    /// Not called: a request waits for a connection inside libcurl, up to its timeouts.
    open func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask) {}

    /// Not called: `onHTTPResponse` handlers receive the response and may cancel the request.
    open func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                         completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        completionHandler(.allow)
    }

    /// Not called: a data request's body is gathered on the event loop; a stream request
    /// hands each piece to its stream handlers.
    open func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {}

    /// Not called: the `CachedResponseHandler` (the request's, else the session's) decides
    /// what is stored.
    open func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse,
                         completionHandler: @escaping (CachedURLResponse?) -> Void) {
        completionHandler(proposedResponse)
    }

    /// Not called: a download resumed from resume data continues where its file ends, which
    /// `Request.downloadProgress` starts from.
    open func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
                         expectedTotalBytes: Int64) {}

    /// A download's bytes are being written: Alamofire's method, called for a subclass in
    /// order on the session's root queue, at most every 50 ms or 1% of the file, and once with the
    /// whole file written when its size is known (-1 when it is not). The default does
    /// nothing; `downloadProgress` handlers and `Request.downloadProgress` are the request's own.
    open func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                         totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {}

    /// An attempt's metrics are known.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - metrics: The attempt's metrics.
    open func request(_ request: Request, didFinishCollecting metrics: TransferMetrics) {}

    /// An attempt's transfers ended, with the transport error if it failed: once per attempt,
    /// after its last redirect hop, as URLSession reports a task's completion. Validation and
    /// retries come after this.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - error: The transport error, or `nil`.
    open func request(_ request: Request, didCompleteWithError error: AFError?) {}
}

/// A completion handler of Alamofire's (plain) type, called from the `@Sendable` one Salvo's
/// request methods take. URLSession calls such handlers from its own queue too; the caller
/// gave it knowing it is called once, from another thread.
private struct UncheckedCompletion: @unchecked Sendable { // called once, from the request's delivery queue
    let body: (URLRequest?) -> Void

    init(_ body: @escaping (URLRequest?) -> Void) {
        self.body = body
    }

    func call(_ request: URLRequest?) {
        body(request)
    }
}

// `Session.session` is made with the session's delegate as its delegate, as Alamofire's is, so
// `session.session.delegate === session.delegate`. That URLSession carries no traffic, so
// URLSession itself never calls these methods; Salvo calls the ones it documents.
extension SessionDelegate: URLSessionDelegate, URLSessionTaskDelegate, URLSessionDataDelegate, URLSessionDownloadDelegate {}
