import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The attempts of a session's requests: builds each attempt's request, adapts it, builds
/// its transfer and hands it to the engine; then follows redirects, validates, retries and
/// finishes (`AttemptPipeline+Completion`).
///
/// A value made for one step from the session that runs it; holding the session, it keeps
/// the session alive while a step (an adapter, a retrier, a redirect handler) is under way,
/// as a session waiting on such a closure stays alive.
struct AttemptPipeline: Sendable {
    let session: Session

    private var defaults: AttemptDefaults { session.attemptDefaults }
    var delegate: SessionDelegate { session.delegate }
    var loop: EventLoop { session.loop }
    var rootQueue: DispatchQueue { session.rootQueue }
    private var transport: TransportConfiguration { session.transport }
    private var interceptor: (any RequestInterceptor)? { session.interceptor }
    private var hasInterceptor: Bool { session.hasInterceptor }

    /// Builds the request's first attempt and sends it.
    func startAttempt(of request: Request) {
        let initial: (spec: RequestSpec, urlRequest: URLRequest?)
        do {
            var made = try request.makeInitialRequest()
            if made.urlRequest == nil {
                // A spec made without a URLRequest has no timeout of its own (written only when
                // it differs: writing copies the spec).
                if made.spec.timeoutInterval != defaults.timeout { made.spec.timeoutInterval = defaults.timeout }
            } else {
                applySessionTimeout(to: &made.spec)
            }
            initial = made
        } catch {
            let afError = error.asAFError(or: .createURLRequestFailed(error: error))
            request.monitor?.request(request, didFailToCreateURLRequestWithError: afError)
            deliverFailure(of: request, afError)
            return
        }
        if let monitor = request.monitor {
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
        if spec.timeoutInterval == 60 && defaults.timeout != 60 { spec.timeoutInterval = defaults.timeout }
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

    /// The session's interceptor adapts first, then the request's own (with what
    /// `adapt(using:)` and `interceptor(_:)` added to it), as in Alamofire 5.10 and later.
    private func adapters(for request: Request) -> [any RequestAdapter] {
        var adapters: [any RequestAdapter] = []
        if let interceptor { adapters.append(interceptor) }
        if let own = request.interceptor { adapters.append(own) }
        return adapters
    }

    /// The session's interceptor is asked first, then the request's own.
    func retriers(for request: Request) -> [any RequestRetrier] {
        var retriers: [any RequestRetrier] = []
        if let interceptor { retriers.append(interceptor) }
        if let own = request.interceptor { retriers.append(own) }
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
        let state = RequestAdapterState(requestID: request.id, session: session)
        Self.adapt(initialRequest, with: adapters[...], state: state) { [self] result in
            switch result {
            case let .success(adapted):
                request.monitor?.request(request, didAdaptInitialRequest: initialRequest, to: adapted)
                do {
                    try adapted.validate()
                    // Adapters see the request as built, at URLRequest's default timeout when
                    // the caller set none; the session's timeout still applies to what they return.
                    var spec = try RequestSpec(adapted)
                    applySessionTimeout(to: &spec)
                    send(request, spec: spec, urlRequest: adapted)
                } catch {
                    adaptationFailed(request, spec, initialRequest, AFError.requestAdaptationFailed(error: error))
                }
            case let .failure(error):
                adaptationFailed(request, spec, initialRequest, AFError.requestAdaptationFailed(error: error))
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
    /// As in Alamofire, the request (and its response) then reports the request as it was
    /// before adapting.
    private func adaptationFailed(_ request: Request, _ spec: RequestSpec, _ initialRequest: URLRequest, _ error: AFError) {
        request.monitor?.request(request, didFailToAdaptURLRequest: initialRequest, withError: error)
        let unsent = ResponseContext(spec: spec, urlRequest: initialRequest, sent: false)
        let queue = request.mutableState.withLock { state in
            state.contexts.append(unsent)
            return state.deliveryQueue
        } ?? request.underlyingQueue
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
    /// - Parameter prepared: The context an eager request's attempt was announced with at
    ///   set-up, now sent.
    func send(_ request: Request, spec: RequestSpec, urlRequest: URLRequest?, redirectHop: Bool = false,
              resourceLeft: TimeInterval? = nil, prepared: ResponseContext? = nil) {
        if !redirectHop, prepared == nil, session.requestSetup == .eager,
           holdsPreparedAttempt(request, spec: spec, urlRequest: urlRequest) {
            return
        }
        if let cache = session.responseCache, spec.method == .get, request.attemptHooks == nil,
           request is DataRequest, !(request is UploadRequest) {
            return sendThroughCache(cache, request, spec: spec, urlRequest: urlRequest, redirectHop: redirectHop, resourceLeft: resourceLeft,
                                    prepared: prepared)
        }
        if let adjusted = request.attemptHooks?.attemptSpec(spec) {
            // Hooks change headers only: the caller's (or adapter's) URLRequest keeps its other
            // properties, and without one the spec's is built when asked for.
            var described = urlRequest
            described?.headers = adjusted.headers
            sendAttempt(request, spec: adjusted, urlRequest: described, redirectHop: redirectHop, resourceLeft: resourceLeft,
                        prepared: prepared)
        } else {
            sendAttempt(request, spec: spec, urlRequest: urlRequest, redirectHop: redirectHop, resourceLeft: resourceLeft,
                        prepared: prepared)
        }
    }

    /// An eager session's request, built and adapted before anyone resumed it: the attempt
    /// waits in the request for its first resume, which sends it (so the credential, handlers,
    /// cache lookup and a download's file are all taken at the send, as for a lazy request).
    /// As in Alamofire, its request and task exist from now on: monitors hear
    /// `didCreateURLRequest` and `didCreateTask`, and the `cURLDescription`,
    /// `onURLRequestCreation` and `onURLSessionTaskCreation` handlers are called.
    private func holdsPreparedAttempt(_ request: Request, spec: RequestSpec, urlRequest: URLRequest?) -> Bool {
        let context = ResponseContext(spec: spec, urlRequest: urlRequest, sent: false, prepared: true)
        let held = request.mutableState.withLock { state -> (handlers: CreationHandlers, suspended: Bool)? in
            guard case .hold = state.lifecycle.attemptPrepared() else { return nil }
            state.preparedAttempt = (spec, urlRequest, context)
            state.contexts.append(context)
            let suspended = state.lifecycle.state == .suspended
            guard let extras = state.extras else { return ((nil, nil, nil), suspended) }
            return ((extras.cURLHandler, extras.urlRequestHandler, extras.taskCreationHandler), suspended)
        }
        guard let (handlers, suspended) = held else { return false }
        if let monitor = request.monitor {
            monitor.request(request, didCreateURLRequest: context.urlRequest)
            if monitor.sendsTaskEvents {
                let task = request.task(for: context)
                monitor.request(request, didCreateTask: task)
                // Suspended before its task existed: the new task is suspended, and the monitors
                // hear it, as Alamofire suspends a task it creates for a suspended request.
                if suspended { monitor.request(request, didSuspendTask: task) }
            }
        }
        announce(handlers, of: request, context: context)
        return true
    }

    /// The handlers told of each attempt's request and task (`cURLDescription`,
    /// `onURLRequestCreation`, `onURLSessionTaskCreation`), read under the request's lock.
    typealias CreationHandlers = (cURL: (queue: DispatchQueue, handler: @Sendable (String) -> Void)?,
                                  onRequest: (queue: DispatchQueue, handler: @Sendable (URLRequest) -> Void)?,
                                  onTask: (queue: DispatchQueue, handler: @Sendable (URLSessionTask) -> Void)?)

    /// Calls `handlers`, each on its queue, with the attempt whose first context is `context`.
    private func announce(_ handlers: CreationHandlers, of request: Request, context: ResponseContext) {
        if let cURL = handlers.cURL { cURL.queue.async { cURL.handler(request.cURLDescription()) } }
        if let onRequest = handlers.onRequest {
            let urlRequest = context.urlRequest
            onRequest.queue.async { onRequest.handler(urlRequest) }
        }
        if let onTask = handlers.onTask {
            let task = request.task(for: context)
            onTask.queue.async { onTask.handler(task) }
        }
    }

    /// A `GET` data request with a cache: answered from it, sent with its conditions, or sent.
    private func sendThroughCache(_ cache: ResponseCache, _ request: Request, spec: RequestSpec, urlRequest: URLRequest?,
                                  redirectHop: Bool, resourceLeft: TimeInterval?, prepared: ResponseContext?) {
        let original = urlRequest ?? spec.urlRequest
        switch cache.lookup(original, headers: spec.headers, header: { sentHeader($0, spec: spec) }) {
        case .load:
            sendAttempt(request, spec: spec, urlRequest: urlRequest, redirectHop: redirectHop, resourceLeft: resourceLeft,
                        prepared: prepared)
        case .unavailable:
            // `returnCacheDataDontLoad` with nothing stored, as URLSession fails it.
            let queue = request.mutableState.withLock { $0.deliveryQueue } ?? request.underlyingQueue
            queue.async { request.finish(on: queue, error: .sessionTaskFailed(error: URLError(.resourceUnavailable))) }
        case let .serve(entry):
            sendAttempt(request, spec: spec, urlRequest: original, redirectHop: redirectHop, resourceLeft: resourceLeft,
                        prepared: prepared, cacheEntry: entry, servedFromCache: true)
        case let .revalidate(entry, conditions):
            var conditional = spec
            for condition in conditions { conditional.headers.update(name: condition.name, value: condition.value) }
            // The request reported stays the caller's; only the one sent carries the conditions.
            sendAttempt(request, spec: conditional, urlRequest: original, redirectHop: redirectHop, resourceLeft: resourceLeft,
                        prepared: prepared, cacheEntry: entry)
        }
    }

    /// Ends a request whose attempt fails before anything is sent; a redirect hop's attempt had
    /// a transfer, whose completion the delegate is told of, as of any attempt's.
    /// A first hop that is refused (a URL Salvo does not fetch, a header it will not send) is
    /// recorded unsent, so the request and its response still report the `URLRequest` it
    /// would have sent, as Alamofire's report the request whose task failed.
    private func failBeforeSending(_ request: Request, error: AFError, redirectHop: Bool, queue: DispatchQueue,
                                   spec: RequestSpec, urlRequest: URLRequest?, prepared: ResponseContext? = nil) {
        if redirectHop, let context = request.mutableState.withLock({ $0.contexts.last }) {
            reportCompletion(request, error: error, context: context)
        } else if !redirectHop && prepared == nil {
            let unsent = ResponseContext(spec: spec, urlRequest: urlRequest, sent: false)
            request.mutableState.withLock { $0.contexts.append(unsent) }
        }
        queue.async { request.finish(on: queue, error: error) }
    }

    /// The value of a header as the request goes out: its own, or else the session's.
    func sentHeader(_ name: String, spec: RequestSpec) -> String? {
        if let own = spec.headers.value(for: name) { return own }
        return defaults.headerLines.first { HTTPHeaders.equalIgnoringASCIICase($0.name, name) }.map { line in
            String(line.line.dropFirst(line.name.count + 2))
        }
    }

    private func sendAttempt(_ request: Request, spec: RequestSpec, urlRequest: URLRequest?, redirectHop: Bool,
                             resourceLeft: TimeInterval?, prepared: ResponseContext? = nil, cacheEntry: CachedURLResponse? = nil,
                             servedFromCache: Bool = false) {
        let hooks = request.attemptHooks
        let origin = redirectHop ? request.mutableState.withLock({ $0.contexts.last }).map { $0.origin ?? $0 } : nil
        // An eager request's prepared attempt keeps its context (its task was handed out at
        // set-up), unless the cache changes what the attempt is.
        let context = prepared.flatMap { cacheEntry == nil && $0.spec.urlString == spec.urlString ? $0 : nil }
            ?? ResponseContext(spec: spec, urlRequest: urlRequest, origin: origin, cacheEntry: cacheEntry, servedFromCache: servedFromCache)
        let urlString = spec.urlString
        let hostKey = defaults.originKeys.key(of: urlString)
        // One lock: take the delivery queue and the hooks the transfer needs.
        typealias Hooks = (queue: DispatchQueue, credential: Request.Credential?, hasHeadHandlers: Bool, progress: ProgressChannels?)
        let (queue, credential, hasHeadHandlers, progress) = request.mutableState.withLock { state -> Hooks in
            let queue = state.deliveryQueue ?? request.underlyingQueue
            guard let extras = state.extras else { return (queue, nil, false, nil) }
            return (queue, extras.credential, !extras.httpResponseHandlers.isEmpty, extras.progress)
        }
        if let failure = defaults.headerFailure
            ?? WireCheck.failure(method: spec.method, headers: spec.headers, originKey: hostKey, url: urlString) {
            failBeforeSending(request, error: failure, redirectHop: redirectHop, queue: queue, spec: spec, urlRequest: urlRequest,
                              prepared: prepared)
            return
        }
        var trust: TLSTrust?
        if let manager = session.serverTrustManager, spec.url.scheme?.lowercased() == "https" {
            do {
                trust = try ServerTrustEvaluation.tlsTrust(forHost: spec.url.host ?? "", manager: manager)
            } catch {
                failBeforeSending(request, error: error, redirectHop: redirectHop, queue: queue, spec: spec, urlRequest: urlRequest,
                                  prepared: prepared)
                return
            }
        }
        // With the storage taking part, the request's (or else the session's) Cookie header
        // and the stored cookies go on one line, the stored ones first.
        var jarCookie: String?
        if let cookies = session.cookies, spec.handlesCookies {
            let own = (spec.headers.isEmpty ? nil : spec.headers.value(for: "Cookie")) ?? defaults.sessionCookie
            switch (own, cookies.header(for: spec.url)) {
            case let (own?, stored?): jarCookie = stored + "; " + own
            case let (own, stored): jarCookie = own ?? stored
            }
        }
        let description = describeTransfer(of: request, spec: spec, urlString: urlString, hostKey: hostKey, jarCookie: jarCookie,
                                           sendsBodySource: hooks?.sendsBodySource == true, hasHeadHandlers: hasHeadHandlers,
                                           credential: credential, resourceLeft: resourceLeft, progress: progress,
                                           events: taskProgressEvents(request, context: context))
        description.trust = trust
        if let hooks {
            // A request cancelled while adapting or waiting to retry was finished by
            // `cancel()`: preparing now would touch a download's partial file after its resume
            // data was made.
            guard !request.mutableState.withLock({ $0.isOver }) else {
                queue.async { request.finish(on: queue) }
                return
            }
            do {
                try hooks.prepare(description, spec: spec)
            } catch {
                let afError = error.asAFError(or: .sessionTaskFailed(error: error))
                queue.async { request.finish(on: queue, error: afError) }
                return
            }
        }
        let transfer = Transfer(description, deliveryQueue: queue, owner: request)
        // The handlers are read in the same lock that records the attempt, so one added
        // meanwhile is called either here or by its own registration, not both.
        let accepted = request.mutableState.withLock { state -> (announce: CreationHandlers?, paused: Bool)? in
            guard case let .send(paused) = state.lifecycle.transferReady(transfer) else { return nil }
            if paused { transfer.startsSuspended() }
            if redirectHop {
                state.contexts.replaceLast(context)
            } else if let prepared {
                // Already recorded at set-up: now sent (or replaced by what the cache made of it).
                if prepared === context { context.markSent() } else { state.contexts.replaceLast(context) }
                state.redirectTime = 0
            } else {
                state.contexts.append(context)
                state.redirectTime = 0
            }
            // A prepared attempt's handlers were called at set-up.
            guard !redirectHop, prepared == nil, let extras = state.extras else { return (nil, paused) }
            return ((extras.cURLHandler, extras.urlRequestHandler, extras.taskCreationHandler), paused)
        }
        guard let (announce, startsPaused) = accepted else {
            // Cancelled meanwhile: whatever `prepare` made (a download's partial file) goes.
            hooks?.requestFinishing(request)
            queue.async { request.finish(on: queue) }
            return
        }
        if !redirectHop { request.notify(.attemptStarted) }
        if let monitor = request.monitor {
            if !redirectHop && prepared == nil { monitor.request(request, didCreateURLRequest: context.urlRequest) }
            monitor.request(request, didCreateTransferFor: context.urlRequest)
            if !redirectHop && monitor.sendsTaskEvents {
                let task = request.task(for: context)
                if prepared == nil { monitor.request(request, didCreateTask: task) }
                if !startsPaused { monitor.request(request, didResumeTask: task) }
            }
        }
        if let announce { self.announce(announce, of: request, context: context) }
        if servedFromCache, let entry = cacheEntry, let response = entry.response as? HTTPURLResponse {
            // Answered from the cache: the transfer never reaches libcurl, and completes as if
            // it had received the stored response.
            context.prime(response)
            let outcome = TransferOutcome(head: ResponseCache.head(of: response), body: entry.data, error: nil, metrics: TransferMetrics())
            queue.async { request.transferDidFinish(transfer, outcome: outcome) }
            return
        }
        loop.send(.add(transfer))
    }

    /// What the engine is asked to do for one attempt, but for the attempt hooks' part.
    private func describeTransfer(of request: Request, spec: RequestSpec, urlString: String, hostKey: Substring,
                                  jarCookie: String?, sendsBodySource: Bool, hasHeadHandlers: Bool,
                                  credential: Request.Credential?, resourceLeft: TimeInterval?,
                                  progress: ProgressChannels?, events: TaskProgressEvents?) -> TransferDescription {
        let description = TransferDescription(
            url: urlString,
            hostKey: hostKey,
            method: spec.method.rawValue,
            headers: headerList(for: spec, sendsBodySource: sendsBodySource, jarCookie: jarCookie),
            body: spec.body,
            idleTimeout: spec.timeoutInterval,
            verboseLogger: loop.options.verboseLogger,
            priorKnowledge: transport.httpVersion == .http2PriorKnowledge && RequestSpec.isPlainHTTP(originKey: hostKey)
        )
        if hasHeadHandlers, let dataRequest = request as? DataRequest {
            let loop = loop
            if let handler = dataRequest.headHandler(decided: { transfer in Self.responseDecision(request, transfer, loop) }) {
                description.headHandler = handler
                description.holdsForResponse = true
            }
        }
        if let credential { description.credential = (credential.user, credential.password) }
        if !spec.handlesCookies { description.usesCookies = false }
        if let jarCookie { description.cookieHeader = jarCookie }
        if let resourceLeft { description.resourceTimeout = resourceLeft }
        if let events {
            description.progress = (progress ?? ProgressChannels()).transferProgress(uploadEvent: events.uploadEvent(),
                                                                                    downloadEvent: events.downloadEvent())
        } else if let progress {
            description.progress = progress.transferProgress()
        }
        return description
    }

    /// The progress events of Alamofire's URLSession delegate methods, when a delegate
    /// subclass or a monitor may hear them.
    private func taskProgressEvents(_ request: Request, context: ResponseContext) -> TaskProgressEvents? {
        guard session.delegateIsSubclass || request.taskEventMonitor != nil else { return nil }
        // A serial queue, so that the events arrive in order (a response handler's queue may
        // be concurrent).
        return TaskProgressEvents(request: request, session: session, anchor: context.origin ?? context, queue: request.underlyingQueue)
    }

    private func headerList(for spec: RequestSpec, sendsBodySource: Bool, jarCookie: String?) -> CurlHeaderList {
        // The session's Cookie header goes on a line of its own only when the jar is left out.
        let sessionCookieLine = jarCookie == nil && (spec.headers.isEmpty || spec.headers.value(for: "Cookie") == nil)
            ? defaults.sessionCookie.map { "Cookie: \($0)" } : nil
        // Most requests add nothing to the session's headers: they share one list, built once.
        if spec.headers.isEmpty && spec.body == nil && !sendsBodySource && sessionCookieLine == nil { return defaults.sharedHeaderList }
        let list = CurlHeaderList()
        for header in spec.headers {
            if jarCookie != nil && HTTPHeaders.equalIgnoringASCIICase(header.name, "Cookie") { continue }
            list.append(name: header.name, value: header.value)
        }
        for (name, line) in defaults.headerLines where spec.headers.isEmpty || spec.headers.value(for: name) == nil {
            list.append(line)
        }
        if let sessionCookieLine { list.append(sessionCookieLine) }
        // libcurl would otherwise wait for "100 Continue" before sending larger bodies.
        if spec.body != nil || sendsBodySource { list.append("Expect:") }
        // An upload without a Content-Type sends none, as an upload task does; libcurl would
        // label a POSTed body `application/x-www-form-urlencoded`.
        if sendsBodySource && (spec.headers.isEmpty || spec.headers.value(for: "Content-Type") == nil)
            && !defaults.headerLines.contains(where: { HTTPHeaders.equalIgnoringASCIICase($0.name, "Content-Type") }) {
            list.append("Content-Type:")
        }
        return list
    }
}
