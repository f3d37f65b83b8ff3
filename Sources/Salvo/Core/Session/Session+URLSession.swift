import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// A `URLSession` for the `urlSession(...)` methods of `SessionDelegate` and the tasks
    /// Salvo hands out, which name one.
    ///
    /// It carries no traffic: Salvo's requests go through libcurl. The one given to
    /// `init(session:delegate:...)`, or one made from `sessionConfiguration` the first time
    /// it is asked for (~2 ms the first time in a process), whose `delegate` is the session's
    /// `delegate` and whose `delegateQueue` runs on `rootQueue`, as in Alamofire.
    public var session: URLSession {
        urlSessionSlot.withLock { slot in
            if let session = slot { return session }
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.underlyingQueue = rootQueue
            queue.name = "org.salvo.session.sessionDelegateQueue"
            let made = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: queue)
            slot = made
            return made
        }
    }

    /// Creates a session from a `URLSession`, as Alamofire's designated initializer does: its
    /// `configuration` is read, and it is what `session` answers. Salvo sends nothing through
    /// it.
    ///
    /// - Parameters:
    ///   - session: The `URLSession` whose configuration to use.
    ///   - delegate: Receives transfer-level events.
    ///   - rootQueue: The queue for internal callbacks of requests that have no handler yet.
    ///   - startRequestsImmediately: Whether requests start when their first response
    ///     handler is added. `true` by default.
    ///   - requestSetup: When new requests are set up. `.lazy` (on their first resume) by
    ///     default.
    ///   - requestQueue: Kept for compatibility.
    ///   - serializationQueue: The queue the `async` serializers run on.
    ///   - interceptor: Applied to every request. `nil` by default.
    ///   - serverTrustManager: Chooses how each HTTPS host's certificate is checked.
    ///   - redirectHandler: Applied to requests without their own. `nil` (follow) by default.
    ///   - cachedResponseHandler: Asked before a response is stored in the cache.
    ///   - eventMonitors: Receive every request's events. `[AlamofireNotifications()]` by
    ///     default, as in Alamofire.
    public convenience init(session: URLSession, delegate: SessionDelegate, rootQueue: DispatchQueue,
                            startRequestsImmediately: Bool = true, requestSetup: RequestSetup = .lazy,
                            requestQueue: DispatchQueue? = nil,
                            serializationQueue: DispatchQueue? = nil, interceptor: (any RequestInterceptor)? = nil,
                            serverTrustManager: ServerTrustManager? = nil, redirectHandler: (any RedirectHandler)? = nil,
                            cachedResponseHandler: (any CachedResponseHandler)? = nil, eventMonitors: [any EventMonitor] = [AlamofireNotifications()]) {
        self.init(configuration: session.configuration, delegate: delegate, rootQueue: rootQueue,
                  startRequestsImmediately: startRequestsImmediately, requestSetup: requestSetup, requestQueue: requestQueue,
                  serializationQueue: serializationQueue, interceptor: interceptor, serverTrustManager: serverTrustManager,
                  redirectHandler: redirectHandler, cachedResponseHandler: cachedResponseHandler, eventMonitors: eventMonitors)
        urlSessionSlot.withLock { $0 = session }
    }

    /// A new task identifier, unique within the session.
    func nextTaskIdentifier() -> Int {
        taskIdentifiers.add(1, ordering: .relaxed).newValue
    }
}
