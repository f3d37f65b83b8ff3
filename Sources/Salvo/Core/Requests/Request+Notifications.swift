import Foundation

extension Request {
    /// Posted when a request is resumed. `Notification.request` is the request.
    ///
    /// Posted only by an `AlamofireNotifications` monitor in the session's `eventMonitors`;
    /// the names' raw values are Alamofire's.
    public static let didResumeNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didResume")
    /// Posted when a request is suspended. `Notification.request` is the request.
    public static let didSuspendNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didSuspend")
    /// Posted when a request is cancelled. `Notification.request` is the request.
    public static let didCancelNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didCancel")
    /// Posted when a request finishes, whatever its outcome. `Notification.request` is the
    /// request.
    public static let didFinishNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didFinish")

    /// Posted when an attempt's transfer starts: once per attempt (the first and each
    /// retry, not each redirect hop), and again when a suspended request whose transfer was
    /// paused is resumed. Alamofire posts it when a `URLSessionTask` is resumed; Salvo has
    /// no tasks, and an attempt is its counterpart. `Notification.request` is the request.
    public static let didResumeTaskNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didResumeTask")
    /// Posted after `didSuspendNotification` when the request had started an attempt, whose
    /// transfer is then paused. `Notification.request` is the request.
    public static let didSuspendTaskNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didSuspendTask")
    /// Posted after `didCancelNotification` when the request had started an attempt, whose
    /// transfer is then stopped. `Notification.request` is the request.
    public static let didCancelTaskNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didCancelTask")
    /// Posted when an attempt completes, successfully or not, before any retry: once per
    /// attempt. `Notification.request` is the request.
    public static let didCompleteTaskNotification = Notification.Name(rawValue: "org.alamofire.notification.name.request.didCompleteTask")
}

extension Notification {
    /// The `Request` a notification posted by `AlamofireNotifications` is about, or `nil`
    /// for any other notification.
    ///
    /// It is read from `userInfo` under the key Alamofire uses,
    /// `"org.alamofire.notification.key.request"`.
    public var request: Request? {
        userInfo?[Notification.requestUserInfoKey] as? Request
    }

    /// The `userInfo` key holding the request; Alamofire's string.
    static let requestUserInfoKey = "org.alamofire.notification.key.request"

    /// A notification about `request`, carried in `userInfo`.
    init(name: Notification.Name, request: Request) {
        self.init(name: name, object: nil, userInfo: [Notification.requestUserInfoKey: request])
    }
}
