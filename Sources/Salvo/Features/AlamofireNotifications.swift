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
/// - Note: Differences from Alamofire, whose notifications are posted on the main queue:
///   Salvo posts them synchronously where the event happens (the thread that resumes,
///   suspends or cancels the request, the one that sends an attempt, the request's delivery
///   queue for its completion and finish), outside Salvo's locks. A request's resume,
///   attempt start, attempt completion and finish come in that order; a suspend or cancel
///   from another thread may be posted while the attempt's are. Observers that need the main
///   thread hop there themselves; an observer that blocks holds that thread.
public final class AlamofireNotifications: EventMonitor {
    /// The queue `EventMonitor` asks for. A session does not use it: it posts where each event
    /// happens (see the note above). Never `.main`.
    public let queue = DispatchQueue(label: "org.salvo.alamofireNotifications")

    /// Which requests have an attempt under way, and which of those this monitor reported as
    /// suspended, as the events arrive.
    ///
    /// Kept from the events themselves, not read from the request: the request's state may
    /// already have moved on (another thread started or finished an attempt) by the time an
    /// event is posted.
    private struct Attempts {
        var running: Set<ObjectIdentifier> = []
        var paused: Set<ObjectIdentifier> = []
    }

    /// Events arrive from several threads.
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

    /// Posts the notifications of `event` of `request`, at once, on the calling thread.
    ///
    /// A session calls it where the event happens, after releasing its locks: the thread that
    /// resumes, suspends or cancels the request, the one that sends an attempt, the request's
    /// delivery queue for an attempt's completion and the finish. Posting there, rather than
    /// on a queue of the monitor's, costs no thread hand-off, and a finished request is freed
    /// by the thread that made the next one, not by a thread that only frees (which, in
    /// glibc's allocator, contends with the allocating thread for its arena's lock).
    ///
    /// `isSoleNotifier`: this is the session's only notifications monitor, so it may keep
    /// whether an attempt is under way (and paused) in the request's own state, read and
    /// written under the lock it takes for the `userInfo` anyway, rather than in its two sets,
    /// which cost a lock and a hash per event. A session with several keeps them per monitor.
    func record(_ event: Event, for request: Request, isSoleNotifier: Bool) {
        guard isSoleNotifier else {
            switch event {
            case .resume: requestDidResume(request)
            case .suspend: requestDidSuspend(request)
            case .cancel: requestDidCancel(request)
            case .finish: requestDidFinish(request)
            case .attemptStarted: attemptStarted(request)
            case .attemptCompleted: attemptCompleted(request)
            }
            return
        }
        let (first, second, userInfo) = request.mutableState.withLock { state -> (Notification.Name, Notification.Name?, [AnyHashable: Any]) in
            let names = Self.names(of: event, attempt: &state.notifiedAttempt)
            return (names.first, names.second, Self.userInfo(of: request, in: &state, isLast: event == .finish))
        }
        center.post(name: first, object: nil, userInfo: userInfo)
        if let second { center.post(name: second, object: nil, userInfo: userInfo) }
    }

    /// What this monitor knows of a request's attempt, as its events told it: kept in the
    /// request's state when the session has one notifications monitor (`record`).
    struct AttemptFlags {
        var isRunning = false
        var isPaused = false
    }

    /// The notifications of `event`, in order, updating what is known of the attempt as the
    /// public event methods update the monitor's sets.
    private static func names(of event: Event, attempt: inout AttemptFlags) -> (first: Notification.Name, second: Notification.Name?) {
        switch event {
        case .resume:
            defer { attempt.isPaused = false }
            return (Request.didResumeNotification, attempt.isPaused ? Request.didResumeTaskNotification : nil)
        case .suspend:
            guard attempt.isRunning else { return (Request.didSuspendNotification, nil) }
            attempt.isPaused = true
            return (Request.didSuspendNotification, Request.didSuspendTaskNotification)
        case .cancel:
            return (Request.didCancelNotification, attempt.isRunning ? Request.didCancelTaskNotification : nil)
        case .finish:
            attempt = AttemptFlags()
            return (Request.didFinishNotification, nil)
        case .attemptStarted:
            attempt.isRunning = true
            return (Request.didResumeTaskNotification, nil)
        case .attemptCompleted:
            attempt = AttemptFlags()
            return (Request.didCompleteTaskNotification, nil)
        }
    }

    private func post(_ name: Notification.Name, _ request: Request, isLast: Bool = false) {
        let userInfo = request.mutableState.withLock { state -> [AnyHashable: Any] in
            Self.userInfo(of: request, in: &state, isLast: isLast)
        }
        center.post(name: name, object: nil, userInfo: userInfo)
    }

    /// The `userInfo` of `request`'s next notification, reused from its last one.
    private static func userInfo(of request: Request, in state: inout Request.MutableState, isLast: Bool) -> [AnyHashable: Any] {
        if let made = state.notificationUserInfo {
            if isLast { state.notificationUserInfo = nil }
            return made.userInfo
        }
        // A copy of a one-entry template whose value is replaced in place: building the
        // dictionary anew hashed Alamofire's 38-byte key for every request.
        var made = userInfoTemplate.userInfo
        made.values[made.startIndex] = request
        // Kept only for a request that was resumed and has not finished: it will post
        // didFinish, which empties what is kept here (decided under the request's lock, so a
        // finish after this posts it later). A request suspended or cancelled before its
        // first resume may never finish, and must not keep itself alive.
        if !isLast && state.lifecycle.wasResumed && !state.lifecycle.isCompleted {
            state.notificationUserInfo = NotificationUserInfo(userInfo: made)
        }
        return made
    }

    /// A `userInfo` with the request key and a placeholder value (`userInfo(of:in:isLast:)`).
    private static let userInfoTemplate = NotificationUserInfo(userInfo: [Notification.requestUserInfoKey: 0])

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
        post(Request.didFinishNotification, request, isLast: true)
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
