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
open class Session: @unchecked Sendable {
    // `@unchecked Sendable`: the `let`s are Sendable or thread-safe (`EventLoop`), and the one
    // mutable collection, `activeRequests`, is behind a Mutex.

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
    /// The redirect handler applied to every request without its own.
    public let redirectHandler: (any RedirectHandler)?
    /// The event monitors, combined.
    public let eventMonitor: CompositeEventMonitor?
    /// Where handlers that name `.main` run instead, when set: the way to keep a server
    /// process, which never drains the main queue, away from it.
    public let responseQueue: DispatchQueue?

    let loop: EventLoop
    private let defaultHeaders: HTTPHeaders
    private let defaultTimeout: TimeInterval
    private let activeRequests = Mutex<[ObjectIdentifier: Request]>([:])

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
        self.redirectHandler = redirectHandler
        eventMonitor = eventMonitors.isEmpty ? nil : CompositeEventMonitor(monitors: eventMonitors)
        self.responseQueue = responseQueue

        var headers = HTTPHeaders()
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            if let name = name as? String, let value = value as? String { headers.add(name: name, value: value) }
        }
        defaultHeaders = headers
        defaultTimeout = configuration.timeoutIntervalForRequest

        var options = transport.engineOptions
        options.resourceTimeout = configuration.timeoutIntervalForResource
        options.maximumConnectionsPerHost = configuration.httpMaximumConnectionsPerHost
        options.cookies = configuration.httpShouldSetCookies
        loop = EventLoop(options: options)
        delegate.attach(to: self)
    }

    deinit {
        loop.shutdown(error: EventLoop.cancelledError)
        let orphans = activeRequests.withLock { $0 }
        for request in orphans.values {
            let queue = request.mutableState.withLock { $0.deliveryQueue } ?? request.underlyingQueue
            queue.async { request.finish(on: queue, error: .sessionDeinitialized) }
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
        return makeDataRequest(convertible, plainSpec: convertible.plainSpec, interceptor: interceptor)
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
        return makeDataRequest(convertible, plainSpec: nil, interceptor: interceptor)
    }

    /// Creates a `DataRequest` from a `URLRequestConvertible`, such as a router enum or a
    /// `URLRequest`.
    ///
    /// - Parameters:
    ///   - convertible: The request.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    /// - Returns: The request.
    open func request(_ convertible: any URLRequestConvertible, interceptor: (any RequestInterceptor)? = nil) -> DataRequest {
        makeDataRequest(convertible, plainSpec: nil, interceptor: interceptor)
    }

    private func makeDataRequest(_ convertible: any URLRequestConvertible, plainSpec: RequestSpec?,
                                 interceptor: (any RequestInterceptor)?) -> DataRequest {
        let request = DataRequest(convertible: convertible, plainSpec: plainSpec, underlyingQueue: rootQueue,
                                  serializationQueue: serializationQueue, eventMonitor: eventMonitor,
                                  interceptor: interceptor, delegate: self)
        return request
    }

    /// The queue a handler that asked for `queue` runs on.
    func handlerQueue(_ queue: DispatchQueue) -> DispatchQueue {
        if let responseQueue, queue === DispatchQueue.main { return responseQueue }
        return queue
    }

    // MARK: Attempts

    func startAttempt(of request: Request) {
        activeRequests.withLock { $0[ObjectIdentifier(request)] = request }
        let initial: (spec: RequestSpec, urlRequest: URLRequest?)
        do {
            var made = try request.makeInitialRequest()
            // A request left at URLRequest's default timeout takes the session's.
            if made.urlRequest == nil || made.spec.timeoutInterval == 60 { made.spec.timeoutInterval = defaultTimeout }
            initial = made
        } catch {
            let afError = error.asAFError(or: .createURLRequestFailed(error: error))
            eventMonitor?.request(request, didFailToCreateURLRequestWithError: afError)
            deliverFailure(of: request, afError)
            return
        }
        if let urlRequest = initial.urlRequest { eventMonitor?.request(request, didCreateInitialURLRequest: urlRequest) }
        request.mutableState.withLock {
            $0.currentSpec = initial.spec
            if let urlRequest = initial.urlRequest { $0.userRequests = [urlRequest] }
        }
        adaptAndSend(request, spec: initial.spec, urlRequest: initial.urlRequest)
    }

    private func adapters(for request: Request) -> [any RequestAdapter] {
        var adapters: [any RequestAdapter] = []
        if let interceptor { adapters.append(interceptor) }
        if let own = request.interceptor { adapters.append(own) }
        return adapters
    }

    func retriers(for request: Request) -> [any RequestRetrier] {
        var retriers: [any RequestRetrier] = []
        if let own = request.interceptor { retriers.append(own) }
        if let interceptor { retriers.append(interceptor) }
        return retriers
    }

    func adaptAndSend(_ request: Request, spec: RequestSpec, urlRequest: URLRequest?) {
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
                eventMonitor?.request(request, didAdaptInitialRequest: initialRequest, to: adapted)
                do {
                    try adapted.validate()
                    send(request, spec: try RequestSpec(adapted), urlRequest: adapted)
                } catch {
                    deliverFailure(of: request, error.asAFError(or: .requestAdaptationFailed(error: error)))
                }
            case let .failure(error):
                let afError = error.asAFError(or: .requestAdaptationFailed(error: error))
                eventMonitor?.request(request, didFailToAdaptURLRequest: initialRequest, withError: afError)
                deliverFailure(of: request, afError)
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

    private func deliverFailure(of request: Request, _ error: AFError) {
        let queue = request.mutableState.withLock { $0.deliveryQueue } ?? request.underlyingQueue
        queue.async { request.finish(on: queue, error: error) }
    }

    /// Hands an attempt to the engine, unless the request was cancelled meanwhile.
    func send(_ request: Request, spec: RequestSpec, urlRequest: URLRequest?) {
        let queue = request.mutableState.withLock { $0.deliveryQueue } ?? request.underlyingQueue
        let context = ResponseContext(spec: spec, urlRequest: urlRequest, head: nil)
        let transfer = Transfer(
            url: spec.url.absoluteString,
            hostKey: spec.hostKey,
            method: spec.method.rawValue,
            headers: headerList(for: spec),
            body: spec.body,
            idleTimeout: spec.timeoutInterval,
            options: loop.options,
            priorKnowledge: transport.httpVersion == .http2PriorKnowledge && spec.url.scheme?.lowercased() == "http",
            deliveryQueue: queue,
            completion: { _ in }
        )
        let generation = request.mutableState.withLock { state -> Int? in
            guard !state.completed, state.state != .cancelled else { return nil }
            state.attempt += 1
            state.attemptInFlight = true
            state.transfer = transfer
            state.contexts.append(context)
            if state.state == .suspended { transfer.userPaused = true }
            return state.attempt
        }
        guard let generation else {
            queue.async { request.finish(on: queue) }
            return
        }
        transfer.completion = { [weak self] outcome in
            if let self {
                self.didComplete(request, outcome: outcome, generation: generation, context: context, queue: queue)
            } else {
                request.finish(on: queue, error: .sessionDeinitialized)
            }
        }
        transfer.headHandler = (request as? DataRequest)?.headHandler()
        if let credential = request.credentialBox.value { transfer.credential = (credential.user, credential.password) }
        if let urlRequest { eventMonitor?.request(request, didCreateTransferFor: urlRequest) }
        loop.send(.add(transfer))
    }

    private func headerList(for spec: RequestSpec) -> CurlHeaderList {
        let list = CurlHeaderList()
        for header in spec.headers {
            list.append(header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)")
        }
        for header in defaultHeaders where spec.headers.value(for: header.name) == nil {
            list.append("\(header.name): \(header.value)")
        }
        // libcurl would otherwise wait for "100 Continue" before sending larger bodies.
        if spec.body != nil { list.append("Expect:") }
        return list
    }

    func requestDidFinish(_ request: Request) {
        activeRequests.withLock { $0[ObjectIdentifier(request)] = nil }
    }
}
