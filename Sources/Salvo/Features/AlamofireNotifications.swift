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
/// let session = Session()  // posts them, as Alamofire's sessions do
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
/// | `didSuspendTaskNotification` | `requestDidSuspend(_:)`, while an attempt is under way (between `request(_:didCreateURLRequest:)` and `request(_:didCompleteAttemptWithError:)`) |
/// | `didCancelTaskNotification` | `requestDidCancel(_:)`, while an attempt is under way |
/// | `didCompleteTaskNotification` | `request(_:didCompleteAttemptWithError:)`, once per attempt |
///
/// A `Session` includes one by default (its `eventMonitors` default is
/// `[AlamofireNotifications()]`, as in Alamofire); a session made with other monitors and
/// without it posts none.
///
/// - Note: Differences from Alamofire: the notifications are posted from a private serial
///   queue, in event order, never from the main queue; observers that need the main thread
///   must hop there themselves.
public final class AlamofireNotifications: EventMonitor {
    /// The private serial queue the notifications are posted from. Never `.main`.
    public let queue = DispatchQueue(label: "org.salvo.alamofireNotifications")

    /// Which requests have an attempt under way, and which of those this monitor reported as
    /// suspended, as the events arrive on `queue`.
    ///
    /// Kept from the events themselves, not read from the request: events reach `queue` after
    /// they happen, so when `requestDidSuspend(_:)` runs the request may already have started
    /// (or finished) an attempt it had not started when it was suspended.
    private struct Attempts {
        var running: Set<ObjectIdentifier> = []
        var paused: Set<ObjectIdentifier> = []
    }

    /// Only `queue` touches it; the lock makes the monitor `Sendable`.
    private let attempts = Mutex(Attempts())

    /// Creates a monitor; a `Session` has one by default.
    public init() {}

    /// The events the notifications follow, as a session hands them over.
    enum Event: Sendable {
        case resume, suspend, cancel, finish
        /// An attempt's request is final and its transfer about to start.
        case attemptStarted
        case attemptCompleted
    }

    /// Events recorded and not yet posted, in order.
    ///
    /// A session hands its requests' events over here rather than as one `queue.async` each:
    /// the queue is woken only when the list goes from empty to not empty, so a busy session
    /// posts many events per wake-up, and a request costs no thread hand-off of its own for
    /// notifications nobody may observe.
    private let pending = Mutex<[(Event, Request)]>([])

    /// Records `event` of `request`, to be posted on `queue` after the events recorded before.
    func record(_ event: Event, for request: Request) {
        let wake = pending.withLock { pending in
            pending.append((event, request))
            return pending.count == 1
        }
        if wake { queue.async { self.drain() } }
    }

    private func drain() {
        var batch: [(Event, Request)] = []
        while true {
            pending.withLock { swap(&$0, &batch) }
            if batch.isEmpty { return }
            for (event, request) in batch {
                switch event {
                case .resume: requestDidResume(request)
                case .suspend: requestDidSuspend(request)
                case .cancel: requestDidCancel(request)
                case .finish: requestDidFinish(request)
                case .attemptStarted: attemptStarted(request)
                case .attemptCompleted: attemptCompleted(request)
                }
            }
            batch.removeAll(keepingCapacity: true)
            // The batch held the requests; the last reference may go here, not inside a post.
            lastUserInfo.withLock { $0 = nil }
        }
    }

    /// The `userInfo` of the last notification posted, and whose it is: a request's events
    /// mostly come in pairs (resume then its attempt's start, the attempt's completion then
    /// the finish), and building the dictionary (hashing Alamofire's 38-byte key) costs more
    /// than posting it. Only `queue` touches it.
    private let lastUserInfo = Mutex<(request: ObjectIdentifier, userInfo: [AnyHashable: Any])?>(nil)

    private func post(_ name: Notification.Name, _ request: Request) {
        let id = ObjectIdentifier(request)
        let userInfo = lastUserInfo.withLock { last -> [AnyHashable: Any] in
            if let last, last.request == id { return last.userInfo }
            let made: [AnyHashable: Any] = [Notification.requestUserInfoKey: request]
            last = (id, made)
            return made
        }
        center.post(name: name, object: nil, userInfo: userInfo)
    }

    /// `NotificationCenter.default`, looked up once.
    private let center = NotificationCenter.default

    /// Posts `Request.didResumeNotification`, then `didResumeTaskNotification` when the
    /// request's paused attempt continues.
    public func requestDidResume(_ request: Request) {
        post(Request.didResumeNotification, request)
        let id = ObjectIdentifier(request)
        if attempts.withLock({ $0.paused.remove(id) }) != nil {
            post(Request.didResumeTaskNotification, request)
        }
    }

    /// Posts `Request.didSuspendNotification`, then `didSuspendTaskNotification` when an
    /// attempt was under way.
    public func requestDidSuspend(_ request: Request) {
        post(Request.didSuspendNotification, request)
        let id = ObjectIdentifier(request)
        let underWay = attempts.withLock { attempts in
            guard attempts.running.contains(id) else { return false }
            attempts.paused.insert(id)
            return true
        }
        if underWay { post(Request.didSuspendTaskNotification, request) }
    }

    /// Posts `Request.didCancelNotification`, then `didCancelTaskNotification` when an
    /// attempt was under way.
    public func requestDidCancel(_ request: Request) {
        post(Request.didCancelNotification, request)
        let id = ObjectIdentifier(request)
        if attempts.withLock({ $0.running.contains(id) }) {
            post(Request.didCancelTaskNotification, request)
        }
    }

    /// Posts `Request.didFinishNotification`.
    public func requestDidFinish(_ request: Request) {
        let id = ObjectIdentifier(request)
        attempts.withLock { attempts in
            attempts.running.remove(id)
            attempts.paused.remove(id)
        }
        post(Request.didFinishNotification, request)
    }

    /// Posts `Request.didResumeTaskNotification`: an attempt's request is final and its
    /// transfer is about to start.
    public func request(_ request: Request, didCreateURLRequest urlRequest: URLRequest) {
        attemptStarted(request)
    }

    private func attemptStarted(_ request: Request) {
        let id = ObjectIdentifier(request)
        attempts.withLock { _ = $0.running.insert(id) }
        post(Request.didResumeTaskNotification, request)
    }

    /// Posts `Request.didCompleteTaskNotification`: an attempt completed.
    public func request(_ request: Request, didCompleteAttemptWithError error: AFError?) {
        attemptCompleted(request)
    }

    private func attemptCompleted(_ request: Request) {
        let id = ObjectIdentifier(request)
        attempts.withLock { attempts in
            attempts.running.remove(id)
            attempts.paused.remove(id)
        }
        post(Request.didCompleteTaskNotification, request)
    }
}
