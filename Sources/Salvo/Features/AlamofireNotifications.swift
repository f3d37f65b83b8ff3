import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An `EventMonitor` that posts Alamofire's request notifications (`Request.didResumeNotification`
/// and the rest) to `NotificationCenter.default`, each carrying its request in
/// `Notification.request`.
///
/// ```swift
/// let session = Session(eventMonitors: [AlamofireNotifications()])
/// let token = NotificationCenter.default.addObserver(forName: Request.didFinishNotification,
///                                                    object: nil, queue: nil) { note in
///     print(note.request?.description ?? "")
/// }
/// ```
///
/// How Salvo's events map to the notifications:
///
/// | Notification | Posted on |
/// |---|---|
/// | `didResumeNotification` | `requestDidResume(_:)` |
/// | `didSuspendNotification` | `requestDidSuspend(_:)` |
/// | `didCancelNotification` | `requestDidCancel(_:)` |
/// | `didFinishNotification` | `requestDidFinish(_:)` |
/// | `didResumeTaskNotification` | `request(_:didCreateURLRequest:)`, once per attempt; and `requestDidResume(_:)` after this monitor reported the attempt suspended |
/// | `didSuspendTaskNotification` | `requestDidSuspend(_:)`, when the request had started an attempt |
/// | `didCancelTaskNotification` | `requestDidCancel(_:)`, when the request had started an attempt |
/// | `didCompleteTaskNotification` | `request(_:didCompleteAttemptWithError:)`, once per attempt |
///
/// - Note: Differences from Alamofire: a `Session` does not include this monitor unless it
///   is passed in `eventMonitors` (Alamofire's default is `[AlamofireNotifications()]`),
///   since posting costs something on every request. The notifications are posted from a
///   private serial queue, in event order, never from the main queue; observers that need
///   the main thread must hop there themselves.
public final class AlamofireNotifications: EventMonitor {
    /// The private serial queue the notifications are posted from. Never `.main`.
    public let queue = DispatchQueue(label: "org.salvo.alamofireNotifications")

    /// Requests this monitor reported as suspended with an attempt under way, so that
    /// resuming them posts `didResumeTaskNotification` as well. Only `queue` touches it.
    private let suspendedAttempts = Mutex<Set<ObjectIdentifier>>([])

    /// Creates a monitor; pass it in a `Session`'s `eventMonitors`.
    public init() {}

    private func post(_ name: Notification.Name, _ request: Request) {
        NotificationCenter.default.post(Notification(name: name, request: request))
    }

    /// Posts `Request.didResumeNotification`, then `didResumeTaskNotification` when the
    /// request's paused attempt continues.
    public func requestDidResume(_ request: Request) {
        post(Request.didResumeNotification, request)
        let id = ObjectIdentifier(request)
        if suspendedAttempts.withLock({ $0.remove(id) }) != nil {
            post(Request.didResumeTaskNotification, request)
        }
    }

    /// Posts `Request.didSuspendNotification`, then `didSuspendTaskNotification` when an
    /// attempt had started.
    public func requestDidSuspend(_ request: Request) {
        post(Request.didSuspendNotification, request)
        guard !request.requests.isEmpty else { return }
        let id = ObjectIdentifier(request)
        suspendedAttempts.withLock { _ = $0.insert(id) }
        post(Request.didSuspendTaskNotification, request)
    }

    /// Posts `Request.didCancelNotification`, then `didCancelTaskNotification` when an
    /// attempt had started.
    public func requestDidCancel(_ request: Request) {
        post(Request.didCancelNotification, request)
        guard !request.requests.isEmpty else { return }
        post(Request.didCancelTaskNotification, request)
    }

    /// Posts `Request.didFinishNotification`.
    public func requestDidFinish(_ request: Request) {
        let id = ObjectIdentifier(request)
        suspendedAttempts.withLock { _ = $0.remove(id) }
        post(Request.didFinishNotification, request)
    }

    /// Posts `Request.didResumeTaskNotification`: an attempt's request is final and its
    /// transfer is about to start.
    public func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest) {
        post(Request.didResumeTaskNotification, request)
    }

    /// Posts `Request.didCompleteTaskNotification`: an attempt completed.
    public func request(_ request: Request, didCompleteAttemptWithError error: AFError?) {
        post(Request.didCompleteTaskNotification, request)
    }
}
