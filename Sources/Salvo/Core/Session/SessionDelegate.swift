import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives the transfer-level events of a `Session`'s requests; subclass it to watch or
/// change them, and call `super` to keep the default behaviour.
///
/// Alamofire's `SessionDelegate` implements `URLSessionDelegate`, whose methods take a
/// `URLSession` and a `URLSessionTask`. Salvo has neither, so its methods take the
/// `Request` instead; otherwise the roles are the same:
///
/// | Alamofire (URLSessionTaskDelegate) | Salvo |
/// |---|---|
/// | `urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:)` | `request(_:willPerformHTTPRedirection:newRequest:completionHandler:)` |
/// | `urlSession(_:task:didCompleteWithError:)` | `request(_:didCompleteWithError:)` |
/// | `urlSession(_:task:didFinishCollecting:)` | `request(_:didFinishCollecting:)` |
///
/// - Note: The methods run on the request's delivery queue (its first response handler's
///   queue), never on Salvo's event-loop thread.
open class SessionDelegate: @unchecked Sendable { // `session` is behind `sessionBox` (a Mutex), `fileManager` is a Sendable `let`; subclasses guard their own

    private let sessionBox = Mutex<WeakSession>(WeakSession())

    private struct WeakSession {
        weak var session: Session?
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
    }

    func attach(to session: Session) {
        sessionBox.withLock { $0.session = session }
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

    /// An attempt's metrics are known.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - metrics: The attempt's metrics.
    open func request(_ request: Request, didFinishCollecting metrics: TransferMetrics) {}

    /// An attempt's transfer ended, with the transport error if it failed. Validation and
    /// retries come after this.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - error: The transport error, or `nil`.
    open func request(_ request: Request, didCompleteWithError error: AFError?) {}
}
