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
open class Session: @unchecked Sendable { // no lock: immutable lets; EventLoop and queues are thread-safe
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
    /// The queue URL requests are built on (kept for compatibility: Salvo builds them on the
    /// calling thread).
    public let requestQueue: DispatchQueue
    /// The queue the `async` serializers run on.
    public let serializationQueue: DispatchQueue
    /// The interceptor applied to every request.
    public let interceptor: (any RequestInterceptor)?
    /// The origin key of the session's last request, reused while the origin stays the same.
    let originKeys = OriginKeyCache()
    /// The redirect handler applied to every request without its own.
    public let redirectHandler: (any RedirectHandler)?
    /// Whether `interceptor` is set, read without copying the existential.
    let hasInterceptor: Bool
    /// The event monitors, combined (none by default).
    public let eventMonitor: CompositeEventMonitor
    /// `eventMonitor` when it has monitors: a session without any skips building events.
    let monitor: CompositeEventMonitor?
    /// Where handlers that name `.main` run instead, when set: the way to keep a server
    /// process, which never drains the main queue, away from it.
    public let responseQueue: DispatchQueue?

    let loop: EventLoop
    /// The requests started and not finished.
    let activeRequests = ActiveRequests()
    /// The session's headers as ready-made `Name: value` lines, built once.
    private let defaultHeaderLines: [(name: String, line: String)]
    /// `defaultHeaderLines` as a curl list; libcurl never changes a list it is given.
    private let sharedHeaderList: CurlHeaderList
    /// The session's own `Cookie` header when the session keeps a jar: it joins the jar's
    /// `Cookie` line (see `Transfer.cookieHeader`), so it is not among `defaultHeaderLines`.
    private let sessionCookie: String?
    private let defaultTimeout: TimeInterval
    /// Why the configuration's own headers cannot be sent (see `WireCheck`), checked once;
    /// every request of such a session fails with it.
    private let defaultHeaderFailure: AFError?

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - configuration: Headers, timeouts and limits, read once. `URLSessionConfiguration.af.default` by default.
    ///   - delegate: Receives transfer-level events. A plain `SessionDelegate` by default.
    ///   - transport: libcurl settings. Defaults suit most servers.
    ///   - rootQueue: The queue for internal callbacks of requests that have no handler yet.
    ///   - startRequestsImmediately: Whether requests start when their first response
    ///     handler is added. `true` by default.
    ///   - requestQueue: Kept for compatibility.
    ///   - serializationQueue: The queue the `async` serializers run on. A queue targeting
    ///     `rootQueue` by default.
    ///   - interceptor: Applied to every request. `nil` by default.
    ///   - redirectHandler: Applied to requests without their own. `nil` (follow) by default.
    ///   - eventMonitors: Receive every request's events. None by default.
    ///   - responseQueue: Where handlers that name `.main` run instead. `nil` by default.
    public init(configuration: URLSessionConfiguration = URLSessionConfiguration.af.default,
                delegate: SessionDelegate = SessionDelegate(),
                transport: TransportConfiguration = TransportConfiguration(),
                rootQueue: DispatchQueue = DispatchQueue(label: "org.salvo.session.rootQueue"),
                startRequestsImmediately: Bool = true,
                requestQueue: DispatchQueue? = nil,
                serializationQueue: DispatchQueue? = nil,
                interceptor: (any RequestInterceptor)? = nil,
                redirectHandler: (any RedirectHandler)? = nil,
                eventMonitors: [any EventMonitor] = [],
                responseQueue: DispatchQueue? = nil) {
        sessionConfiguration = configuration
        self.delegate = delegate
        self.transport = transport
        self.rootQueue = rootQueue
        self.startRequestsImmediately = startRequestsImmediately
        self.requestQueue = requestQueue ?? DispatchQueue(label: "org.salvo.session.requestQueue", target: rootQueue)
        self.serializationQueue = serializationQueue ?? DispatchQueue(label: "org.salvo.session.serializationQueue", attributes: .concurrent)
        self.interceptor = interceptor
        hasInterceptor = interceptor != nil
        self.redirectHandler = redirectHandler
        eventMonitor = CompositeEventMonitor(monitors: eventMonitors)
        monitor = eventMonitors.isEmpty ? nil : eventMonitor
        self.responseQueue = responseQueue

        let headers = configuration.headers
        defaultHeaderFailure = WireCheck.headerFailure(headers)
        // Accept-Encoding stays a header line of ours even with decoding on: libcurl formats
        // its own Accept-Encoding option character by character on every request (~5,000
        // instructions for this line alone), a custom line is copied once.
        let sessionCookie = configuration.httpShouldSetCookies ? headers.value(for: "Cookie") : nil
        self.sessionCookie = sessionCookie
        let lines = headers.filter { header in
            sessionCookie == nil || !HTTPHeaders.equalIgnoringASCIICase(header.name, "Cookie")
        }.map { ($0.name, "\($0.name): \($0.value)") }
        defaultHeaderLines = lines
        let shared = CurlHeaderList()
        for (_, line) in lines { shared.append(line) }
        sharedHeaderList = shared
        defaultTimeout = configuration.timeoutIntervalForRequest

        var options = transport.engineOptions
        if options.proxy == nil, let proxies = ConnectionProxySettings(configuration.connectionProxyDictionary) {
            options.proxy = proxies.http
            if proxies.https != proxies.http { options.httpsProxy = proxies.https }
            options.noProxy = proxies.exceptions
        } else if options.proxy == nil && !Self.environmentNamesAProxy() {
            // "" tells libcurl there is no proxy, which spares it reading the proxy variables
            // from the environment on every transfer.
            options.proxy = ""
        }
        options.resourceTimeout = configuration.timeoutIntervalForResource
        options.maximumConnectionsPerHost = configuration.httpMaximumConnectionsPerHost
        options.cookies = configuration.httpShouldSetCookies
        loop = EventLoop(options: options)
        delegate.attach(to: self)
    }

    /// Requests need no registry for this: a request waiting on an adapter, a retry delay or a
    /// redirect handler keeps the session alive through that closure, so when the session goes,
    /// its only unfinished requests are the ones inside the engine, which the shutdown fails
    /// (each then finishes with `sessionDeinitialized`); a request resumed later finds no
    /// session and finishes the same way.
    deinit {
        loop.shutdown(error: EventLoop.cancelledError)
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
    ///   - requestModifier: Changes the `URLRequest` before encoding. `nil` by default.
    /// - Returns: The request.
    open func request(_ convertible: any URLConvertible,
                      method: HTTPMethod = .get,
                      parameters: Parameters? = nil,
                      encoding: any ParameterEncoding = URLEncoding.default,
                      headers: HTTPHeaders? = nil,
                      interceptor: (any RequestInterceptor)? = nil,
                      requestModifier: RequestModifier? = nil) -> DataRequest {
        let convertible = RequestConvertible(url: convertible, method: method, parameters: parameters, encoding: encoding,
                                             headers: headers, requestModifier: requestModifier)
        if let spec = plainSpec(of: convertible) { return makeDataRequest(.plain(spec), interceptor: interceptor) }
        return makeDataRequest(.convertible(convertible, plainSpec: nil), interceptor: interceptor)
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
    ///   - requestModifier: Changes the `URLRequest` before encoding. `nil` by default.
    /// - Returns: The request.
    open func request<Parameters: Encodable & Sendable>(_ convertible: any URLConvertible,
                                                        method: HTTPMethod = .get,
                                                        parameters: Parameters? = nil,
                                                        encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default,
                                                        headers: HTTPHeaders? = nil,
                                                        interceptor: (any RequestInterceptor)? = nil,
                                                        requestModifier: RequestModifier? = nil) -> DataRequest {
        let convertible = RequestEncodableConvertible(url: convertible, method: method, parameters: parameters, encoder: encoder,
                                                      headers: headers, requestModifier: requestModifier)
        return makeDataRequest(.convertible(convertible, plainSpec: nil), interceptor: interceptor)
    }

    /// Creates a `DataRequest` from a `URLRequestConvertible`, such as a router enum or a
    /// `URLRequest`.
    ///
    /// - Parameters:
    ///   - convertible: The request.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    /// - Returns: The request.
    open func request(_ convertible: any URLRequestConvertible, interceptor: (any RequestInterceptor)? = nil) -> DataRequest {
        makeDataRequest(.convertible(convertible, plainSpec: nil), interceptor: interceptor)
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
        spec?.timeoutInterval = defaultTimeout
        return spec
    }

    /// The queue a handler that asked for `queue` runs on.
    func handlerQueue(_ queue: DispatchQueue) -> DispatchQueue {
        if let responseQueue, queue.isMainQueue { return responseQueue }
        return queue
    }

    // MARK: Attempts

    func startAttempt(of request: Request) {
        let initial: (spec: RequestSpec, urlRequest: URLRequest?)
        do {
            var made = try request.makeInitialRequest()
            if made.urlRequest == nil {
                // A spec made without a URLRequest has no timeout of its own (written only when
                // it differs: writing copies the spec).
                if made.spec.timeoutInterval != defaultTimeout { made.spec.timeoutInterval = defaultTimeout }
            } else {
                applySessionTimeout(to: &made.spec)
            }
            initial = made
        } catch {
            let afError = error.asAFError(or: .createURLRequestFailed(error: error))
            monitor?.request(request, didFailToCreateURLRequestWithError: afError)
            deliverFailure(of: request, afError)
            return
        }
        if let monitor {
            // The plain path builds no URLRequest; monitors still get one.
            monitor.request(request, didCreateInitialURLRequest: initial.urlRequest ?? initial.spec.urlRequest)
        }
        request.mutableState.withLock {
            $0.currentSpec = initial.spec
            if let urlRequest = initial.urlRequest { $0.userRequests = [urlRequest] }
        }
        adaptAndSend(request, spec: initial.spec, urlRequest: initial.urlRequest)
    }

    /// A request left at URLRequest's default timeout (60 s) takes the session's
    /// `timeoutIntervalForRequest`, as URLSession gives it to such a request's task.
    private func applySessionTimeout(to spec: inout RequestSpec) {
        if spec.timeoutInterval == 60 && defaultTimeout != 60 { spec.timeoutInterval = defaultTimeout }
    }

    /// Carries out what a request's `onHTTPResponse` handlers decided about a transfer held
    /// for them: release it, or cancel the request.
    static func responseDecision(_ request: Request, _ transfer: Transfer,
                                 _ loop: EventLoop) -> @Sendable (Request.ResponseDisposition) -> Void {
        { [weak request, weak transfer, weak loop] disposition in
            switch disposition {
            case .allow: if let transfer { loop?.send(.release(transfer)) }
            case .cancel: request?.cancel()
            }
        }
    }

    /// The request's own interceptor adapts first, then the session's, as in Alamofire.
    private func adapters(for request: Request) -> [any RequestAdapter] {
        var adapters: [any RequestAdapter] = []
        if let own = request.interceptor { adapters.append(own) }
        if let interceptor { adapters.append(interceptor) }
        return adapters
    }

    func retriers(for request: Request) -> [any RequestRetrier] {
        var retriers: [any RequestRetrier] = []
        if let own = request.interceptor { retriers.append(own) }
        if let interceptor { retriers.append(interceptor) }
        return retriers
    }

    func adaptAndSend(_ request: Request, spec: RequestSpec, urlRequest: URLRequest?) {
        guard request.hasInterceptor || hasInterceptor else {
            send(request, spec: spec, urlRequest: urlRequest)
            return
        }
        let adapters = adapters(for: request)
        guard !adapters.isEmpty else {
            send(request, spec: spec, urlRequest: urlRequest)
            return
        }
        let initialRequest = urlRequest ?? spec.urlRequest
        let state = RequestAdapterState(requestID: request.id, session: self)
        Self.adapt(initialRequest, with: adapters[...], state: state) { [self] result in
            switch result {
            case let .success(adapted):
                monitor?.request(request, didAdaptInitialRequest: initialRequest, to: adapted)
                do {
                    try adapted.validate()
                    // Adapters see the request as built, at URLRequest's default timeout when
                    // the caller set none; the session's timeout still applies to what they return.
                    var spec = try RequestSpec(adapted)
                    applySessionTimeout(to: &spec)
                    send(request, spec: spec, urlRequest: adapted)
                } catch {
                    adaptationFailed(request, initialRequest, AFError.requestAdaptationFailed(error: error))
                }
            case let .failure(error):
                adaptationFailed(request, initialRequest, AFError.requestAdaptationFailed(error: error))
            }
        }
    }

    private static func adapt(_ urlRequest: URLRequest, with adapters: ArraySlice<any RequestAdapter>, state: RequestAdapterState,
                              completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        guard let first = adapters.first else {
            completion(.success(urlRequest))
            return
        }
        let rest = adapters.dropFirst()
        first.adapt(urlRequest, using: state) { result in
            switch result {
            case let .success(adapted): adapt(adapted, with: rest, state: state, completion: completion)
            case .failure: completion(result)
            }
        }
    }

    /// A failed adaptation is offered to the retriers, as Alamofire does: a token-refreshing
    /// interceptor fails the adapt and then asks for a retry.
    private func adaptationFailed(_ request: Request, _ initialRequest: URLRequest, _ error: AFError) {
        monitor?.request(request, didFailToAdaptURLRequest: initialRequest, withError: error)
        let queue = request.mutableState.withLock { $0.deliveryQueue } ?? request.underlyingQueue
        queue.async { self.retryOrFinish(request, error: error, queue: queue) }
    }

    private func deliverFailure(of request: Request, _ error: AFError) {
        let queue = request.mutableState.withLock { $0.deliveryQueue } ?? request.underlyingQueue
        queue.async { request.finish(on: queue, error: error) }
    }

    /// Hands an attempt to the engine, unless the request was cancelled meanwhile.
    /// - Parameter redirectHop: The send follows a redirect within the same attempt: its
    ///   context replaces the attempt's, remembering the attempt's first request, which stays
    ///   the one `Request.request` reports, as with URLSession's original request.
    /// - Parameter resourceLeft: For a redirect hop, what is left of the session's resource
    ///   timeout; `nil` for all of it.
    func send(_ request: Request, spec: RequestSpec, urlRequest: URLRequest?, redirectHop: Bool = false,
              resourceLeft: TimeInterval? = nil) {
        if let adjusted = request.attemptHooks?.attemptSpec(spec) {
            // Hooks change headers only: the caller's (or adapter's) URLRequest keeps its other
            // properties, and without one the spec's is built when asked for.
            var described = urlRequest
            described?.headers = adjusted.headers
            sendAttempt(request, spec: adjusted, urlRequest: described, redirectHop: redirectHop, resourceLeft: resourceLeft)
        } else {
            sendAttempt(request, spec: spec, urlRequest: urlRequest, redirectHop: redirectHop, resourceLeft: resourceLeft)
        }
    }

    private func sendAttempt(_ request: Request, spec: RequestSpec, urlRequest: URLRequest?, redirectHop: Bool,
                             resourceLeft: TimeInterval?) {
        let hooks = request.attemptHooks
        let origin = redirectHop ? request.mutableState.withLock({ $0.contexts.last }).map { $0.origin ?? $0 } : nil
        let context = ResponseContext(spec: spec, urlRequest: urlRequest, origin: origin)
        let urlString = spec.urlString
        let hostKey = originKeys.key(of: urlString)
        // One lock: take the delivery queue and the hooks the transfer needs.
        typealias Hooks = (queue: DispatchQueue, credential: Request.Credential?, hasHeadHandlers: Bool, progress: ProgressHandlers?)
        let (queue, credential, hasHeadHandlers, progress) = request.mutableState.withLock { state -> Hooks in
            let queue = state.deliveryQueue ?? request.underlyingQueue
            guard let extras = state.extras else { return (queue, nil, false, nil) }
            return (queue, extras.credential, !extras.httpResponseHandlers.isEmpty, extras.progress)
        }
        if let failure = defaultHeaderFailure
            ?? WireCheck.failure(method: spec.method, headers: spec.headers, originKey: hostKey, url: urlString) {
            queue.async { request.finish(on: queue, error: failure) }
            return
        }
        // With the jar taking part, the request's (or else the session's) Cookie header joins
        // the jar's line.
        var jarCookie: String?
        if loop.options.cookies && spec.handlesCookies {
            jarCookie = (spec.headers.isEmpty ? nil : spec.headers.value(for: "Cookie")) ?? sessionCookie
        }
        let transfer = Transfer(
            url: urlString,
            hostKey: hostKey,
            method: spec.method.rawValue,
            headers: headerList(for: spec, sendsBodySource: hooks?.sendsBodySource == true, jarCookie: jarCookie),
            body: spec.body,
            idleTimeout: spec.timeoutInterval,
            verboseLogger: loop.options.verboseLogger,
            priorKnowledge: transport.httpVersion == .http2PriorKnowledge && RequestSpec.isPlainHTTP(originKey: hostKey),
            deliveryQueue: queue,
            owner: request
        )
        if hasHeadHandlers, let dataRequest = request as? DataRequest {
            transfer.headHandler = dataRequest.headHandler(decided: Self.responseDecision(request, transfer, loop))
            transfer.holdsForResponse = transfer.headHandler != nil
        }
        if let credential { transfer.credential = (credential.user, credential.password) }
        if !spec.handlesCookies { transfer.usesCookies = false }
        if let jarCookie { transfer.cookieHeader = jarCookie }
        if let resourceLeft { transfer.resourceTimeout = resourceLeft }
        if let progress { transfer.progress = progress.transferProgress() }
        if let hooks {
            // A request cancelled while adapting or waiting to retry was finished by
            // `cancel()`: preparing now would touch a download's partial file after its resume
            // data was made.
            guard !request.mutableState.withLock({ $0.isOver }) else {
                queue.async { request.finish(on: queue) }
                return
            }
            do {
                try hooks.prepare(transfer, spec: spec)
            } catch {
                let afError = error.asAFError(or: .sessionTaskFailed(error: error))
                queue.async { request.finish(on: queue, error: afError) }
                return
            }
        }
        typealias Announce = (cURL: (queue: DispatchQueue, handler: @Sendable (String) -> Void)?,
                              onRequest: (queue: DispatchQueue, handler: @Sendable (URLRequest) -> Void)?)
        // The handlers are read in the same lock that records the attempt, so one added
        // meanwhile is called either here or by its own registration, not both.
        let accepted = request.mutableState.withLock { state -> Announce?? in
            guard case let .send(paused) = state.lifecycle.transferReady(transfer) else { return nil }
            if redirectHop {
                state.contexts.replaceLast(context)
            } else {
                state.contexts.append(context)
                state.redirectTime = 0
            }
            if paused { transfer.holds.insert(.suspended) }
            guard !redirectHop, let extras = state.extras else { return .some(nil) }
            return .some((extras.cURLHandler, extras.urlRequestHandler))
        }
        guard let announce = accepted else {
            // Cancelled meanwhile: whatever `prepare` made (a download's partial file) goes.
            hooks?.requestFinishing(request)
            queue.async { request.finish(on: queue) }
            return
        }
        if let monitor {
            if !redirectHop { monitor.request(request, didCreateURLRequest: context.urlRequest) }
            monitor.request(request, didCreateTransferFor: context.urlRequest)
        }
        if let announce {
            if let cURL = announce.cURL { cURL.queue.async { cURL.handler(request.cURLDescription()) } }
            if let onRequest = announce.onRequest {
                let urlRequest = context.urlRequest
                onRequest.queue.async { onRequest.handler(urlRequest) }
            }
        }
        loop.send(.add(transfer))
    }

    private func headerList(for spec: RequestSpec, sendsBodySource: Bool, jarCookie: String?) -> CurlHeaderList {
        // The session's Cookie header goes on a line of its own only when the jar is left out.
        let sessionCookieLine = jarCookie == nil && (spec.headers.isEmpty || spec.headers.value(for: "Cookie") == nil)
            ? sessionCookie.map { "Cookie: \($0)" } : nil
        // Most requests add nothing to the session's headers: they share one list, built once.
        if spec.headers.isEmpty && spec.body == nil && !sendsBodySource && sessionCookieLine == nil { return sharedHeaderList }
        let list = CurlHeaderList()
        for header in spec.headers {
            if jarCookie != nil && HTTPHeaders.equalIgnoringASCIICase(header.name, "Cookie") { continue }
            list.append(header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
        }
        for (name, line) in defaultHeaderLines where spec.headers.isEmpty || spec.headers.value(for: name) == nil {
            list.append(line)
        }
        if let sessionCookieLine { list.append(sessionCookieLine) }
        // libcurl would otherwise wait for "100 Continue" before sending larger bodies.
        if spec.body != nil || sendsBodySource { list.append("Expect:") }
        return list
    }

    /// Whether the proxy variables libcurl honours are set in this process's environment.
    private static func environmentNamesAProxy() -> Bool {
        let names = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        return names.contains { ProcessInfo.processInfo.environment[$0]?.isEmpty == false }
    }
}
