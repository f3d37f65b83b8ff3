import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Creates and runs requests over one libcurl event loop.
///
/// The counterpart of Alamofire's `Session`: same initializer labels and request methods.
/// The transport is Salvo's engine rather than a `URLSession`; of the
/// `URLSessionConfiguration` it reads `httpAdditionalHeaders`, `timeoutIntervalForRequest`,
/// `timeoutIntervalForResource`, `httpMaximumConnectionsPerHost` and `httpShouldSetCookies`.
/// libcurl-only settings live in `TransportConfiguration`.
///
/// Releasing a session with requests in flight fails each of them with
/// `AFError.sessionDeinitialized`, once, and stops its thread.
open class Session: @unchecked Sendable { // immutable lets of thread-safe values (EventLoop, queues, a Mutex and an Atomic)
    // `@unchecked Sendable`: every stored property is a `let` holding a Sendable value or a
    // thread-safe reference (`EventLoop`, queues, the header list libcurl only reads).

    /// A closure that changes a `URLRequest` after it is built and before it is encoded.
    public typealias RequestModifier = @Sendable (inout URLRequest) throws -> Void

    /// The shared session `AF` names.
    public static let `default` = Session()

    /// Receives transfer-level events; subclass `SessionDelegate` to watch them.
    public let delegate: SessionDelegate
    /// The configuration the session was made with.
    public let sessionConfiguration: URLSessionConfiguration
    /// Salvo's transport settings.
    public let transport: TransportConfiguration
    /// The queue used for internal callbacks of requests that have no handler yet.
    public let rootQueue: DispatchQueue
    /// Whether requests start when their first response handler is added.
    public let startRequestsImmediately: Bool
    /// When new requests are set up: on their first resume (`.lazy`, the default) or at once.
    public let requestSetup: RequestSetup
    /// The queue URL requests are built on (kept for compatibility: Salvo builds them on the
    /// calling thread).
    public let requestQueue: DispatchQueue
    /// The queue the `async` serializers run on.
    public let serializationQueue: DispatchQueue
    /// The interceptor applied to every request.
    public let interceptor: (any RequestInterceptor)?
    /// Chooses how each HTTPS host's certificate is checked; `nil`: libcurl's checks.
    public let serverTrustManager: ServerTrustManager?
    /// Asked before a response is stored in the configuration's `urlCache`, for requests
    /// without their own handler.
    public let cachedResponseHandler: (any CachedResponseHandler)?
    /// The configuration's `urlCache` and `requestCachePolicy`, when it has a cache.
    let responseCache: ResponseCache?
    /// The redirect handler applied to every request without its own.
    public let redirectHandler: (any RedirectHandler)?
    /// Whether `interceptor` is set, read without copying the existential.
    let hasInterceptor: Bool
    /// The event monitors, combined (`AlamofireNotifications` alone by default).
    public let eventMonitor: CompositeEventMonitor
    /// The monitors of `eventMonitor` other than `AlamofireNotifications`, when there are any:
    /// a session without them skips building events.
    let monitor: CompositeEventMonitor?
    /// The `AlamofireNotifications` among the monitors, told only of the events they post
    /// about, where they happen (see `AlamofireNotifications.record(_:for:)`), so the
    /// notifications Alamofire posts by default cost a request no events it does not need.
    let notifiers: [AlamofireNotifications]
    /// What Alamofire's `Session` once added to every session's monitors; now the default of
    /// `init`'s `eventMonitors`, as in Alamofire.
    @available(*, deprecated, message: "Use [AlamofireNotifications()] directly.")
    public var defaultEventMonitors: [any EventMonitor] { [AlamofireNotifications()] }
    /// Where handlers that name `.main` run instead, when set: the way to keep a server
    /// process, which never drains the main queue, away from it.
    public let responseQueue: DispatchQueue?

    let loop: EventLoop
    /// The requests started and not finished.
    let activeRequests = ActiveRequests()
    /// What every attempt of the session's requests starts from, worked out once.
    let attemptDefaults: AttemptDefaults
    /// The `URLSession` handed to `SessionDelegate`'s `urlSession` methods: given at creation,
    /// or made on first use.
    let urlSessionSlot: Mutex<URLSession?>
    /// The last task identifier handed out.
    let taskIdentifiers = Atomic<Int>(0)
    /// Whether the delegate is a subclass, which may override a `urlSession` method: only
    /// then are tasks made for its calls.
    let delegateIsSubclass: Bool
    /// The configuration's `httpCookieStorage` when `httpShouldSetCookies` is true.
    let cookies: SessionCookies?

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - configuration: Headers, timeouts and limits, read once. `URLSessionConfiguration.af.default` by default.
    ///   - delegate: Receives transfer-level events. A plain `SessionDelegate` by default.
    ///   - transport: libcurl settings. Defaults suit most servers.
    ///   - rootQueue: The queue for internal callbacks of requests that have no handler yet.
    ///   - startRequestsImmediately: Whether requests start when their first response
    ///     handler is added. `true` by default.
    ///   - requestSetup: When new requests are set up. `.lazy` (on their first resume) by
    ///     default.
    ///   - requestQueue: Kept for compatibility.
    ///   - serializationQueue: The queue the `async` serializers run on. A concurrent queue
    ///     of its own by default (Alamofire's is serial and targets `rootQueue`).
    ///   - interceptor: Applied to every request. `nil` by default.
    ///   - serverTrustManager: Chooses how each HTTPS host's certificate is checked. `nil`
    ///     (libcurl's checks, with `transport`'s CA bundle) by default.
    ///   - redirectHandler: Applied to requests without their own. `nil` (follow) by default.
    ///   - cachedResponseHandler: Asked before a response is stored in `configuration`'s
    ///     `urlCache`, for requests without their own. `nil` (store what HTTP allows) by
    ///     default.
    ///   - eventMonitors: Receive every request's events. `[AlamofireNotifications()]` by
    ///     default, as in Alamofire: Alamofire's request notifications are posted.
    ///   - responseQueue: Where handlers that name `.main` run instead. `nil` by default.
    public init(configuration: URLSessionConfiguration = URLSessionConfiguration.af.default,
                delegate: SessionDelegate = SessionDelegate(),
                transport: TransportConfiguration = TransportConfiguration(),
                rootQueue: DispatchQueue = DispatchQueue(label: "org.salvo.session.rootQueue"),
                startRequestsImmediately: Bool = true,
                requestSetup: RequestSetup = .lazy,
                requestQueue: DispatchQueue? = nil,
                serializationQueue: DispatchQueue? = nil,
                interceptor: (any RequestInterceptor)? = nil,
                serverTrustManager: ServerTrustManager? = nil,
                redirectHandler: (any RedirectHandler)? = nil,
                cachedResponseHandler: (any CachedResponseHandler)? = nil,
                eventMonitors: [any EventMonitor] = [AlamofireNotifications()],
                responseQueue: DispatchQueue? = nil) {
        sessionConfiguration = configuration
        self.delegate = delegate
        self.transport = transport
        self.rootQueue = rootQueue
        self.startRequestsImmediately = startRequestsImmediately
        self.requestSetup = requestSetup
        self.requestQueue = requestQueue ?? DispatchQueue(label: "org.salvo.session.requestQueue", target: rootQueue)
        self.serializationQueue = serializationQueue ?? DispatchQueue(label: "org.salvo.session.serializationQueue", attributes: .concurrent)
        self.interceptor = interceptor
        hasInterceptor = interceptor != nil
        self.serverTrustManager = serverTrustManager
        self.redirectHandler = redirectHandler
        self.cachedResponseHandler = cachedResponseHandler
        responseCache = configuration.urlCache.map { ResponseCache(urlCache: $0, sessionPolicy: configuration.requestCachePolicy) }
        eventMonitor = CompositeEventMonitor(monitors: eventMonitors)
        notifiers = eventMonitors.compactMap { $0 as? AlamofireNotifications }
        let others = eventMonitors.filter { !($0 is AlamofireNotifications) }
        monitor = others.isEmpty ? nil : others.count == eventMonitors.count ? eventMonitor : CompositeEventMonitor(monitors: others)
        self.responseQueue = responseQueue

        attemptDefaults = AttemptDefaults(configuration: configuration)
        urlSessionSlot = Mutex(nil)
        delegateIsSubclass = type(of: delegate) != SessionDelegate.self

        var options = transport.engineOptions
        if options.proxy == nil, let proxies = ConnectionProxySettings(configuration.connectionProxyDictionary) {
            options.proxy = proxies.http
            if proxies.https != proxies.http { options.httpsProxy = proxies.https }
            options.noProxy = proxies.exceptions
        } else if options.proxy == nil && !EngineOptions.environmentNamesAProxy() {
            // "" tells libcurl there is no proxy, which spares it reading the proxy variables
            // from the environment on every transfer.
            options.proxy = ""
        }
        options.resourceTimeout = configuration.timeoutIntervalForResource
        options.maximumConnectionsPerHost = configuration.httpMaximumConnectionsPerHost
        // The configuration's cookie storage is the jar (`SessionCookies`), not libcurl's.
        options.cookies = false
        cookies = configuration.httpShouldSetCookies ? configuration.httpCookieStorage.map(SessionCookies.init) : nil
        loop = EventLoop(options: options)
        delegate.attach(to: self)
    }

    /// Requests need no registry for this: a request waiting on an adapter, a retry delay or a
    /// redirect handler keeps the session alive through that closure, so when the session goes,
    /// its only unfinished requests are the ones inside the engine, which the shutdown fails
    /// (each then finishes with `sessionDeinitialized`); a request resumed later finds no
    /// session and finishes the same way.
    ///
    /// An eager session's requests set up but never resumed are the exception: they wait in
    /// the request, not the engine, and finish here with `sessionDeinitialized`, as
    /// Alamofire's do.
    deinit {
        if requestSetup == .eager {
            for request in activeRequests.all { request.finishIfPrepared(error: .sessionDeinitialized) }
        }
        loop.shutdown(error: EventLoop.cancelledError)
        // Alamofire's session invalidates its URLSession as it goes, and URLSession then tells
        // the delegate, whose default tells the monitors it holds.
        if delegateIsSubclass || monitor != nil {
            let urlSession = session
            let delegate = delegate
            rootQueue.async { delegate.urlSession(urlSession, didBecomeInvalidWithError: nil) }
        }
    }

    // MARK: All requests

    /// Calls `action` on `rootQueue` with every request the session has started and not yet
    /// finished.
    ///
    /// - Parameter action: Receives the requests.
    public func withAllRequests(perform action: @escaping @Sendable (Set<Request>) -> Void) {
        rootQueue.async { action(self.activeRequests.all) }
    }

    /// Cancels every request the session has started and not yet finished, then calls
    /// `completion` on `queue` (the cancellations are under way then; each request still
    /// completes through its own handlers).
    ///
    /// - Parameters:
    ///   - queue: Where `completion` runs. `.main` by default, or the session's
    ///     `responseQueue` when it has one.
    ///   - completion: Called once every request was told to cancel. `nil` by default.
    public func cancelAllRequests(completingOnQueue queue: DispatchQueue = .main, completion: (@Sendable () -> Void)? = nil) {
        let queue = handlerQueue(queue)
        withAllRequests { requests in
            requests.forEach { $0.cancel() }
            if let completion { queue.async(execute: completion) }
        }
    }

    // MARK: Requests

    /// Creates a `DataRequest` from a URL, a method, `Parameters` and a `ParameterEncoding`.
    ///
    /// - Parameters:
    ///   - convertible: The URL.
    ///   - method: The method. `.get` by default.
    ///   - parameters: The parameters. `nil` by default.
    ///   - encoding: How the parameters are encoded. `URLEncoding.default` by default.
    ///   - headers: Extra headers. `nil` by default.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    ///   - requestModifier: Changes the `URLRequest` before encoding. `nil` by default.
    /// - Returns: The request.
    open func request(_ convertible: any URLConvertible,
                      method: HTTPMethod = .get,
                      parameters: Parameters? = nil,
                      encoding: any ParameterEncoding = URLEncoding.default,
                      headers: HTTPHeaders? = nil,
                      interceptor: (any RequestInterceptor)? = nil,
                      shouldAutomaticallyResume: Bool? = nil,
                      requestModifier: RequestModifier? = nil) -> DataRequest {
        let convertible = RequestConvertible(url: convertible, method: method, parameters: parameters, encoding: encoding,
                                             headers: headers, requestModifier: requestModifier)
        if let spec = plainSpec(of: convertible) {
            return makeDataRequest(.plain(spec), interceptor: interceptor).resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
        }
        return makeDataRequest(.convertible(convertible, plainSpec: nil), interceptor: interceptor)
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    /// Creates a `DataRequest` from a URL, a method, `Encodable` parameters and a
    /// `ParameterEncoder`.
    ///
    /// - Parameters:
    ///   - convertible: The URL.
    ///   - method: The method. `.get` by default.
    ///   - parameters: The parameters. `nil` by default.
    ///   - encoder: How they are encoded. `URLEncodedFormParameterEncoder.default` by default.
    ///   - headers: Extra headers. `nil` by default.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    ///   - requestModifier: Changes the `URLRequest` before encoding. `nil` by default.
    /// - Returns: The request.
    open func request<Parameters: Encodable & Sendable>(_ convertible: any URLConvertible,
                                                        method: HTTPMethod = .get,
                                                        parameters: Parameters? = nil,
                                                        encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default,
                                                        headers: HTTPHeaders? = nil,
                                                        interceptor: (any RequestInterceptor)? = nil,
                                                        shouldAutomaticallyResume: Bool? = nil,
                                                        requestModifier: RequestModifier? = nil) -> DataRequest {
        let convertible = RequestEncodableConvertible(url: convertible, method: method, parameters: parameters, encoder: encoder,
                                                      headers: headers, requestModifier: requestModifier)
        return makeDataRequest(.convertible(convertible, plainSpec: nil), interceptor: interceptor)
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    /// Creates a `DataRequest` from a `URLRequestConvertible`, such as a router enum or a
    /// `URLRequest`.
    ///
    /// - Parameters:
    ///   - convertible: The request.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    /// - Returns: The request.
    open func request(_ convertible: any URLRequestConvertible, interceptor: (any RequestInterceptor)? = nil,
                      shouldAutomaticallyResume: Bool? = nil) -> DataRequest {
        makeDataRequest(.convertible(convertible, plainSpec: nil), interceptor: interceptor)
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    private func makeDataRequest(_ origin: RequestOrigin, interceptor: (any RequestInterceptor)?) -> DataRequest {
        let request = DataRequest(origin: origin, underlyingQueue: rootQueue,
                                  serializationQueue: serializationQueue, eventMonitor: monitor,
                                  interceptor: interceptor, delegate: self)
        return request
    }

    /// The convertible's plain spec with the session's timeout, set while the spec is not
    /// yet shared (later, setting it would copy the spec).
    func plainSpec(of convertible: RequestConvertible) -> RequestSpec? {
        var spec = convertible.plainSpec
        spec?.timeoutInterval = attemptDefaults.timeout
        return spec
    }

    /// The queue a handler that asked for `queue` runs on.
    func handlerQueue(_ queue: DispatchQueue) -> DispatchQueue {
        if let responseQueue, queue.isMainQueue { return responseQueue }
        return queue
    }
}
