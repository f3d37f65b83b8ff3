import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The base of every request: its state machine, its attempts, and the handlers waiting
/// for its outcome.
///
/// All mutable state sits behind one `Mutex`; no lock is held while user code or the
/// engine runs. The outcome is reported exactly once: the first path to mark the request
/// complete takes the handler list, and handlers added later run straight away.
open class Request: @unchecked Sendable { // every stored `var` is in `mutableState` (a Mutex) but `activeSlot`, guarded by the session's ActiveRequests lock; the `let`s are Sendable

    /// The states of a request.
    public enum State: Sendable, Equatable {
        /// Created, not yet resumed.
        case initialized
        /// Running or about to run.
        case resumed
        /// Paused by `suspend()`; the transfer is paused too.
        case suspended
        /// Cancelled; handlers get `AFError.explicitlyCancelled`.
        case cancelled
        /// Completed, successfully or not.
        case finished

        func canTransition(to state: State) -> Bool {
            switch (self, state) {
            case (.initialized, _): return true
            case (_, .initialized), (.cancelled, _), (.finished, _): return false
            case (.resumed, .cancelled), (.suspended, .cancelled), (.resumed, .suspended), (.suspended, .resumed): return true
            case (.suspended, .suspended), (.resumed, .resumed): return false
            case (_, .finished): return true
            }
        }
    }

    struct Handler {
        let queue: DispatchQueue
        let run: @Sendable () -> Void
    }

    struct MutableState {
        /// The state, the attempt's phase, the error and the counts; changed only through its
        /// event methods.
        var lifecycle = RequestLifecycle<Transfer>()
        var contexts = SmallList<ResponseContext>()
        var currentSpec: RequestSpec?
        var data: Data?
        /// How long the current attempt's followed redirect hops took (seconds).
        var redirectTime: TimeInterval = 0
        /// The factory's `shouldAutomaticallyResume`, when given: it overrides the session's
        /// `startRequestsImmediately`.
        var automaticResume: Bool?
        var error: AFError? { lifecycle.error }
        /// Completed or cancelled: nothing more may be sent for the request.
        var isOver: Bool { lifecycle.isOver }
        var handlers = SmallList<Handler>()
        /// Kept here, not in `extras`: nearly every request is validated, and reaching the
        /// record would make one for most requests.
        var validators: [@Sendable () -> Void] = []
        var deliveryQueue: DispatchQueue?
        /// The `userInfo` of the request's Alamofire notifications, made by the first and
        /// reused by the rest (`AlamofireNotifications`): building it, hashing Alamofire's
        /// 38-byte key, costs more than posting it. It holds the request, so it is kept only
        /// between the first resume and didFinish, which empties it.
        var notificationUserInfo: NotificationUserInfo?
        /// Whether an attempt is under way and paused, as the session's notifications monitor
        /// was told (`AlamofireNotifications.record`).
        var notifiedAttempt = AlamofireNotifications.AttemptFlags()
        /// What only some requests use, in one optional record: a request that uses none of
        /// it creates and destroys one `nil` instead of eight fields. A class, so reading a
        /// field or testing for `nil` handles one reference: an optional struct this size was
        /// copied whole, through generic value witnesses, to read one field.
        var extras: Extras?

        final class Extras: @unchecked Sendable { // reached only under `Request.mutableState`'s lock, from one state
            var userRequests: [URLRequest] = []
            var credential: Credential?
            var redirectHandler: (any RedirectHandler)?
            var httpResponseHandlers: [HTTPResponseHandler] = []
            var finishHandlers: [@Sendable () -> Void] = []
            var cURLHandler: (queue: DispatchQueue, handler: @Sendable (String) -> Void)?
            var urlRequestHandler: (queue: DispatchQueue, handler: @Sendable (URLRequest) -> Void)?
            /// Upload and download progress; `nil` until someone asks for it.
            var progress: ProgressChannels?
            /// The interceptor once one was added to the request (see `interceptorAdded`).
            var interceptor: (any RequestInterceptor)?
            /// The monitors once one was added to the request (see `monitorAdded`).
            var monitor: CompositeEventMonitor?
            /// The request's own cached response handler, set by `cacheResponse(using:)`.
            var cachedResponseHandler: (any CachedResponseHandler)?
            var taskCreationHandler: (queue: DispatchQueue, handler: @Sendable (URLSessionTask) -> Void)?
            /// The serializing handlers' serializations, for a request that had a retrier as they were
            /// added (see `HandlerSerialization`).
            var serializations: [any HandlerSerializing] = []
            /// The first attempt of a request set up eagerly, built and adapted, waiting for
            /// the first resume (see `Session.RequestSetup.eager`).
            var preparedAttempt: (spec: RequestSpec, urlRequest: URLRequest?, context: ResponseContext)?
        }

        /// Writes one field of `extras`, creating the record only for a value worth keeping.
        private mutating func setExtra<Value>(_ keyPath: ReferenceWritableKeyPath<Extras, Value>, _ value: Value, isEmpty: Bool) {
            if let extras {
                extras[keyPath: keyPath] = value
            } else if !isEmpty {
                let made = Extras()
                made[keyPath: keyPath] = value
                extras = made
            }
        }

        var preparedAttempt: (spec: RequestSpec, urlRequest: URLRequest?, context: ResponseContext)? {
            get { extras?.preparedAttempt }
            set { setExtra(\.preparedAttempt, newValue, isEmpty: newValue == nil) }
        }

        var userRequests: [URLRequest] {
            get { extras?.userRequests ?? [] }
            set { setExtra(\.userRequests, newValue, isEmpty: newValue.isEmpty) }
        }
        var credential: Credential? {
            get { extras?.credential }
            set { setExtra(\.credential, newValue, isEmpty: newValue == nil) }
        }
        var redirectHandler: (any RedirectHandler)? {
            get { extras?.redirectHandler }
            set { setExtra(\.redirectHandler, newValue, isEmpty: newValue == nil) }
        }
        var httpResponseHandlers: [HTTPResponseHandler] {
            get { extras?.httpResponseHandlers ?? [] }
            set { setExtra(\.httpResponseHandlers, newValue, isEmpty: newValue.isEmpty) }
        }
        var finishHandlers: [@Sendable () -> Void] {
            get { extras?.finishHandlers ?? [] }
            set { setExtra(\.finishHandlers, newValue, isEmpty: newValue.isEmpty) }
        }
        var cURLHandler: (queue: DispatchQueue, handler: @Sendable (String) -> Void)? {
            get { extras?.cURLHandler }
            set { setExtra(\.cURLHandler, newValue, isEmpty: newValue == nil) }
        }
        var urlRequestHandler: (queue: DispatchQueue, handler: @Sendable (URLRequest) -> Void)? {
            get { extras?.urlRequestHandler }
            set { setExtra(\.urlRequestHandler, newValue, isEmpty: newValue == nil) }
        }
        var progress: ProgressChannels? {
            get { extras?.progress }
            set { setExtra(\.progress, newValue, isEmpty: newValue == nil) }
        }
        var addedInterceptor: (any RequestInterceptor)? {
            get { extras?.interceptor }
            set { setExtra(\.interceptor, newValue, isEmpty: newValue == nil) }
        }
        var serializations: [any HandlerSerializing] {
            get { extras?.serializations ?? [] }
            set { setExtra(\.serializations, newValue, isEmpty: newValue.isEmpty) }
        }
        var taskCreationHandler: (queue: DispatchQueue, handler: @Sendable (URLSessionTask) -> Void)? {
            get { extras?.taskCreationHandler }
            set { setExtra(\.taskCreationHandler, newValue, isEmpty: newValue == nil) }
        }
        var cachedResponseHandler: (any CachedResponseHandler)? {
            get { extras?.cachedResponseHandler }
            set { setExtra(\.cachedResponseHandler, newValue, isEmpty: newValue == nil) }
        }
        var addedMonitor: CompositeEventMonitor? {
            get { extras?.monitor }
            set { setExtra(\.monitor, newValue, isEmpty: newValue == nil) }
        }
    }

    let mutableState = Mutex(MutableState())

    /// A unique identifier, made on first access: Foundation's `UUID()` reads
    /// `/dev/urandom` on Linux, three system calls a request would otherwise pay.
    public var id: UUID {
        lazyID.withLock { id in
            if let id { return id }
            let made = UUID()
            id = made
            return made
        }
    }
    private let lazyID: Mutex<UUID?>
    /// The queue Salvo uses for this request's internal callbacks when no handler names one.
    public let underlyingQueue: DispatchQueue
    /// The queue the `async` serializers run on.
    public let serializationQueue: DispatchQueue
    /// The event monitors this request reports to, combined: the session's, then any added
    /// by `eventMonitor(_:)`; `nil` when there are none.
    public var eventMonitor: (any EventMonitor)? { monitor }
    /// The same monitors as the concrete type, read on the request's hot path without copying
    /// an existential, and without a lock unless `eventMonitor(_:)` added one.
    var monitor: CompositeEventMonitor? {
        monitorAdded.load(ordering: .acquiring) ? mutableState.withLock { $0.addedMonitor } : sessionMonitor
    }
    /// The session's monitors, combined, as the request was made with them.
    let sessionMonitor: CompositeEventMonitor?
    /// The session's `AlamofireNotifications`, told of the events they post about.
    let notifiers: [AlamofireNotifications]
    /// Set once `eventMonitor(_:)` has stored the request's own composite in `extras`.
    let monitorAdded = Atomic<Bool>(false)
    /// The request's own interceptor: the one it was made with, and those `interceptor(_:)`,
    /// `adapt(using:)` and `retry(using:)` added after it. It adapts after the session's
    /// interceptor and is asked about retries after it, as in Alamofire 5.10 and later.
    public var interceptor: (any RequestInterceptor)? {
        interceptorAdded.load(ordering: .acquiring) ? mutableState.withLock { $0.addedInterceptor } : initialInterceptor
    }
    /// The interceptor given to the request's factory.
    let initialInterceptor: (any RequestInterceptor)?
    /// Set once an interceptor, adapter or retrier was added to the request.
    let interceptorAdded = Atomic<Bool>(false)
    /// Whether `interceptor` is set, read without copying the existential (~200
    /// instructions a copy and a destroy, on every request without one).
    var hasInterceptor: Bool { initialHasInterceptor || interceptorAdded.load(ordering: .acquiring) }
    private let initialHasInterceptor: Bool
    /// Whether the session has an interceptor, read once: a weak load per check is not free.
    private let sessionHasInterceptor: Bool
    /// The `Session` running this request.
    public weak let delegate: Session?
    /// This request's index in its session's `ActiveRequests`, or -1; read and written only
    /// under that registry's lock.
    @exclusivity(unchecked) var activeSlot = -1

    /// User name and password for HTTP authentication, answered by libcurl when the server
    /// asks (Basic or Digest); kept in the request's locked state.
    var credentialBox: StateField<Credential?> {
        StateField(request: self, keyPath: \.credential)
    }

    /// Reads and writes one field of the locked state.
    struct StateField<Value: Sendable> {
        unowned let request: Request
        let keyPath: WritableKeyPath<MutableState, Value>

        var value: Value {
            get { request.mutableState.withLock { $0[keyPath: keyPath] } }
            nonmutating set { request.mutableState.withLock { $0[keyPath: keyPath] = newValue } }
        }
    }

    struct Credential: Sendable {
        let user: String
        let password: String
    }

    /// Where the request comes from.
    let origin: RequestOrigin
    /// What the request was made from (for a plain request, an equivalent convertible).
    var convertibleSource: any URLRequestConvertible { origin.convertible }
    /// Set when the request is a plain URL, method and headers, which skips `URLRequest`.
    var plainSpec: RequestSpec? { origin.plainSpec }
    /// A download's or an upload's part in each attempt; `nil` for data requests.
    let attemptHooks: (any AttemptHooks)?

    init(id: UUID? = nil, origin: RequestOrigin,
         underlyingQueue: DispatchQueue, serializationQueue: DispatchQueue,
         eventMonitor: CompositeEventMonitor?, interceptor: (any RequestInterceptor)?, delegate: Session,
         attemptHooks: (any AttemptHooks)? = nil) {
        self.attemptHooks = attemptHooks
        lazyID = Mutex(id)
        self.origin = origin
        self.underlyingQueue = underlyingQueue
        self.serializationQueue = serializationQueue
        sessionMonitor = eventMonitor
        notifiers = delegate.notifiers
        initialInterceptor = interceptor
        initialHasInterceptor = interceptor != nil
        sessionHasInterceptor = delegate.hasInterceptor
        self.delegate = delegate
    }

    // MARK: State

    /// The current state.
    public var state: State { mutableState.withLock { $0.lifecycle.state } }
    /// Whether the state is `.initialized`.
    public var isInitialized: Bool { state == .initialized }
    /// Whether the state is `.resumed`.
    public var isResumed: Bool { state == .resumed }
    /// Whether the state is `.suspended`.
    public var isSuspended: Bool { state == .suspended }
    /// Whether the state is `.cancelled`.
    public var isCancelled: Bool { state == .cancelled }
    /// Whether the state is `.finished`.
    public var isFinished: Bool { state == .finished }

    /// How often the request has been retried.
    public var retryCount: Int { mutableState.withLock { $0.lifecycle.retryCount } }

    /// The error the request failed with, if any.
    public var error: AFError? { mutableState.withLock { $0.error } }

    /// The first `URLRequest` sent, as adapted.
    public var firstRequest: URLRequest? { mutableState.withLock { $0.contexts.first }?.attemptRequest }
    /// The last `URLRequest` sent, as adapted.
    public var lastRequest: URLRequest? { mutableState.withLock { $0.contexts.last }?.attemptRequest }
    /// The last `URLRequest` sent; same as `lastRequest`.
    public var request: URLRequest? { lastRequest }
    /// Every `URLRequest` sent, one per attempt and redirect.
    public var requests: [URLRequest] { mutableState.withLock { $0.contexts }.elements.map(\.attemptRequest) }

    /// The response to the last attempt, if one arrived.
    public var response: HTTPURLResponse? { mutableState.withLock { $0.contexts.last }?.httpResponse }

    /// The metrics of the last attempt.
    public var metrics: TransferMetrics? { mutableState.withLock { $0.contexts.last }?.metrics }
    /// The metrics of every attempt.
    public var allMetrics: [TransferMetrics] { mutableState.withLock { $0.contexts }.elements.compactMap(\.metrics) }
    /// The metrics of the first attempt.
    public var firstMetrics: TransferMetrics? { mutableState.withLock { $0.contexts.first }?.metrics }
    /// The metrics of the last attempt; same as `metrics`.
    public var lastMetrics: TransferMetrics? { metrics }
    /// The `URLRequest` each attempt ended with: after redirects, the last hop's.
    public var performedRequests: [URLRequest] { mutableState.withLock { $0.contexts }.elements.map(\.urlRequest) }
    /// The credential set with `authenticate(username:password:persistence:)` or
    /// `authenticate(with:)`, if any.
    public var credential: URLCredential? {
        mutableState.withLock { $0.credential }.map { URLCredential(user: $0.user, password: $0.password, persistence: .forSession) }
    }

    // MARK: Control

    /// Starts or continues the request. A request suspended before it started starts now.
    ///
    /// - Returns: The request.
    @discardableResult
    public func resume() -> Self {
        let action = mutableState.withLock { state in
            let action = state.lifecycle.resume()
            // Recorded under the request's lock, so a cancel's finish, which forgets the
            // request after taking this lock, cannot come first and leave it recorded.
            if case .start = action { delegate?.activeRequests.insert(self) }
            return action
        }
        perform(action)
        return self
    }

    /// Pauses the request; a running transfer is paused in libcurl. A request not yet started
    /// becomes `.suspended` and starts on its next `resume()`.
    ///
    /// - Returns: The request.
    @discardableResult
    public func suspend() -> Self {
        perform(mutableState.withLock { $0.lifecycle.suspend() })
        return self
    }

    /// Cancels the request. Its handlers receive `AFError.explicitlyCancelled`, once; as in
    /// Alamofire, a request that already had an error (cancelled while it waits to retry a
    /// failed attempt, or while its retriers decide) keeps that error instead.
    ///
    /// - Returns: The request.
    @discardableResult
    public func cancel() -> Self {
        perform(mutableState.withLock { $0.lifecycle.cancel() })
        return self
    }

    /// Carries out what the lifecycle decided about `resume()`, `suspend()` or `cancel()`.
    private func perform(_ action: RequestLifecycle<Transfer>.Action) {
        switch action {
        case .start:
            monitor?.requestDidResume(self)
            notify(.resume)
            if let session = delegate {
                AttemptPipeline(session: session).startAttempt(of: self)
            } else {
                let queue = mutableState.withLock { $0.deliveryQueue } ?? underlyingQueue
                queue.async { self.finish(on: queue, error: .sessionDeinitialized) }
            }
        case .setUp:
            // On the root queue, as Alamofire sets requests up, so the factory returns first.
            // The set-up holds the session, as Alamofire's does: a session released right after
            // making its requests goes once their tasks exist, and finishes them as it goes.
            let session = delegate
            underlyingQueue.async {
                // Cancelled (and finished) before the set-up began: nothing to set up.
                guard !self.mutableState.withLock({ $0.isOver }) else { return }
                if let session {
                    AttemptPipeline(session: session).startAttempt(of: self)
                } else {
                    self.finish(on: self.underlyingQueue, error: .sessionDeinitialized)
                }
            }
        case .sendPrepared:
            // Set up eagerly: the prepared attempt goes now (a cancel meanwhile abandons it as
            // it is sent). Its task events come from the send, which makes the attempt's task.
            monitor?.requestDidResume(self)
            notify(.resume)
            let prepared = mutableState.withLock { $0.preparedAttempt.take() }
            if let session = delegate, let prepared {
                AttemptPipeline(session: session).send(self, spec: prepared.spec, urlRequest: prepared.urlRequest,
                                                       prepared: prepared.context)
            } else {
                let queue = mutableState.withLock { $0.deliveryQueue } ?? underlyingQueue
                queue.async { self.finish(on: queue, error: .sessionDeinitialized) }
            }
        case let .resumeTransfer(transfer):
            notify(.resume)
            if let monitor {
                monitor.requestDidResume(self)
                if transfer != nil, monitor.sendsTaskEvents, let task = lastTask { monitor.request(self, didResumeTask: task) }
            }
            if let transfer { delegate?.loop.send(.resume(transfer)) }
        case let .suspendTransfer(transfer):
            notify(.suspend)
            if let monitor {
                monitor.requestDidSuspend(self)
                if monitor.sendsTaskEvents, let task = transfer != nil ? lastTask : preparedTask {
                    monitor.request(self, didSuspendTask: task)
                }
            }
            if let transfer { delegate?.loop.send(.pause(transfer)) }
        case let .cancelTransfer(transfer):
            notify(.cancel)
            if let monitor {
                monitor.requestDidCancel(self)
                if monitor.sendsTaskEvents, let task = lastTask { monitor.request(self, didCancelTask: task) }
            }
            delegate?.loop.send(.cancel(transfer))
        case .cancelAndFinish:
            if let monitor {
                monitor.requestDidCancel(self)
                // An eager request's task, made at set-up, is cancelled with it.
                if monitor.sendsTaskEvents, let task = preparedTask { monitor.request(self, didCancelTask: task) }
            }
            notify(.cancel)
            // Nothing is running (never started, set up eagerly and never sent, adapting, or
            // waiting to retry): finish here.
            let queue = mutableState.withLock { $0.deliveryQueue ?? $0.handlers.first?.queue } ?? underlyingQueue
            queue.async { self.finish(on: queue) }
        default:
            break
        }
    }

    // MARK: Redirects

    /// The request's own redirect handler, set by `redirect(using:)`.
    public var redirectHandler: (any RedirectHandler)? { mutableState.withLock { $0.redirectHandler } }

    /// Sets a redirect handler for this request alone; it takes precedence over the
    /// session's. Every kind of request has one, as in Alamofire.
    ///
    /// - Parameter handler: The handler.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func redirect(using handler: any RedirectHandler) -> Self {
        mutableState.withLock { $0.redirectHandler = handler }
        return self
    }

    /// The request's own cached response handler, set by `cacheResponse(using:)`.
    public var cachedResponseHandler: (any CachedResponseHandler)? { mutableState.withLock { $0.cachedResponseHandler } }

    /// Sets a cached response handler for this request alone; it is asked instead of the
    /// session's whether the response goes into the session's `URLCache`.
    ///
    /// - Parameter handler: The handler.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func cacheResponse(using handler: any CachedResponseHandler) -> Self {
        mutableState.withLock { $0.cachedResponseHandler = handler }
        return self
    }

    // MARK: Attempts

    /// Builds the first request, from the plain spec or the convertible.
    func makeInitialRequest() throws -> (spec: RequestSpec, urlRequest: URLRequest?) {
        if let plainSpec { return (plainSpec, nil) }
        let urlRequest: URLRequest
        do {
            urlRequest = try convertibleSource.asURLRequest()
        } catch {
            throw error.asAFError(or: .createURLRequestFailed(error: error))
        }
        try urlRequest.validate()
        return (try RequestSpec(urlRequest), urlRequest)
    }

    /// Runs the validators in order until one fails.
    func runValidators() {
        let validators = mutableState.withLock { $0.validators }
        guard !validators.isEmpty else { return }
        for validator in validators { validator() }
    }

    // MARK: Handlers

    /// Adds a handler. When the session starts requests immediately, adding one resumes a
    /// request that is initialized or suspended, as adding a response serializer does in
    /// Alamofire. A handler added after completion runs at once on its queue.
    /// Whether a retrier may be asked about this request: its own interceptor or its session's.
    var mayRetry: Bool { sessionHasInterceptor || hasInterceptor }

    /// The first serialization error among the handlers' serializations, each keeping what it
    /// worked out; `nil` when every serializer succeeds or none serializes ahead.
    func firstSerializationFailure() -> (serialization: any HandlerSerializing, error: AFError)? {
        let serializations = mutableState.withLock { $0.serializations }
        for serialization in serializations {
            if let failure = serialization.failure() { return (serialization, failure) }
        }
        return nil
    }

    /// Forgets what the serializations worked out, before a retry.
    func resetHandlerSerializations() {
        mutableState.withLock { $0.serializations }.forEach { $0.reset() }
    }

    func appendHandler(queue: DispatchQueue, serialization: (any HandlerSerializing)? = nil, _ run: @escaping @Sendable () -> Void) {
        // Without its session nothing else would ever start the request: resuming it finishes
        // it with `sessionDeinitialized`, as Alamofire's session does with its requests when it
        // goes.
        let startImmediately = delegate?.startRequestsImmediately ?? true
        let action = mutableState.withLock { state in
            let action = state.lifecycle.handlerAdded(startsImmediately: state.automaticResume ?? startImmediately)
            if case .runHandler = action { return action }
            state.handlers.append(Handler(queue: queue, run: run))
            if let serialization { state.serializations.append(serialization) }
            // Salvo's own bookkeeping never runs on the main queue, which server processes may
            // never drain: a handler on `.main` is reached by a second hop from the root queue.
            if state.deliveryQueue == nil { state.deliveryQueue = queue.isMainQueue ? underlyingQueue : queue }
            return action
        }
        switch action {
        case .runHandler: queue.async(execute: run)
        case .keepHandlerAndResume: resume()
        default: break
        }
    }

    /// Sets whether adding a response handler starts this request (`nil`: as its session
    /// says), for the request factories' `shouldAutomaticallyResume`.
    func resumingAutomatically(_ shouldAutomaticallyResume: Bool?, setUp: Session.RequestSetup) -> Self {
        if let shouldAutomaticallyResume { mutableState.withLock { $0.automaticResume = shouldAutomaticallyResume } }
        if setUp == .eager {
            // Recorded as started at once, as Alamofire's eager set-up records it.
            perform(mutableState.withLock { state in
                let action = state.lifecycle.setUpEagerly()
                if case .setUp = action { delegate?.activeRequests.insert(self) }
                return action
            })
        }
        return self
    }

    /// Tells the session's `AlamofireNotifications` of `event`.
    func notify(_ event: AlamofireNotifications.Event) {
        for notifier in notifiers { notifier.record(event, for: self, isSoleNotifier: notifiers.count == 1) }
    }

    /// Finishes a request whose first attempt, set up eagerly, waits for a resume that can no
    /// longer send it (its session is going).
    func finishIfPrepared(error: AFError) {
        let queue = mutableState.withLock { state -> DispatchQueue? in
            guard case .prepared = state.lifecycle.phase else { return nil }
            return state.deliveryQueue ?? state.handlers.first?.queue ?? underlyingQueue
        }
        queue?.async { self.finish(on: queue, error: error) }
    }

    /// Adds a closure that runs when the request finishes: after its response handlers have
    /// been dispatched, or, for a request with progress handlers, once its closing progress
    /// updates are queued (the handlers follow those updates).
    func onFinish(_ body: @escaping @Sendable () -> Void) {
        let runNow = mutableState.withLock { state -> Bool in
            if state.lifecycle.isCompleted { return true }
            state.finishHandlers.append(body)
            return false
        }
        if runNow { body() }
    }

    /// Completes the request: marks it finished (unless cancelled) and runs every handler.
    /// Safe to reach from several paths; only the first does anything.
    func finish(on currentQueue: DispatchQueue?, error: AFError? = nil) {
        // Taken under the same lock, so requests without progress handlers pay nothing more.
        var finalProgress: (channels: ProgressChannels, metrics: TransferMetrics?)?
        typealias CURLHandler = (queue: DispatchQueue, handler: @Sendable (String) -> Void)
        let taken = mutableState.withLock { state -> (SmallList<Handler>, [@Sendable () -> Void], CURLHandler?)? in
            guard state.lifecycle.finish(error: error) else { return nil }
            defer { state.handlers.removeAll() }
            guard state.extras != nil else { return (state.handlers, [], nil) }
            if let progress = state.progress, state.error == nil { finalProgress = (progress, state.contexts.last?.metrics) }
            defer {
                state.finishHandlers = []
                // The serializations hold the request, as the handlers do: gone with them.
                state.extras?.serializations = []
            }
            // A request that never got as far as sending still answers its cURL handler once.
            return (state.handlers, state.finishHandlers, state.contexts.elements.contains { $0.isCreated } ? nil : state.cURLHandler)
        }
        guard let (handlers, finishHandlers, unsentCURLHandler) = taken else { return }
        delegate?.activeRequests.remove(self)
        if let unsentCURLHandler {
            unsentCURLHandler.queue.async { unsentCURLHandler.handler(self.cURLDescription()) }
        }
        attemptHooks?.requestFinishing(self)
        // The closing progress updates come first, as URLSession's last progress event comes
        // before the task completes; the handlers wait for them and for the monitors (see
        // `reportFinalProgress`), on whichever thread is last.
        let gate = finalProgress.map { finalProgress in
            let gate = Countdown(2)
            reportFinalProgress(finalProgress.channels, metrics: finalProgress.metrics, on: currentQueue) { queue in
                if gate.tick() { Self.run(handlers, on: queue) }
            }
            return gate
        }
        // Monitors hear of the finish before serialization, as in Alamofire.
        monitor?.requestDidFinish(self)
        notify(.finish)
        if gate?.tick() ?? true { Self.run(handlers, on: currentQueue) }
        for body in finishHandlers { body() }
    }
}

extension Request {
    /// Runs each handler on its queue: at once when that is `currentQueue` (the queue this
    /// runs on), else queued there.
    fileprivate static func run(_ handlers: SmallList<Handler>, on currentQueue: DispatchQueue?) {
        handlers.forEach { handler in
            if handler.queue === currentQueue {
                handler.run()
            } else {
                handler.queue.async(execute: handler.run)
            }
        }
    }
}

extension Request: TransferOwner {
    package func transferDidFinish(_ transfer: Transfer, outcome: TransferOutcome) {
        // A stream's handlers finish with the chunks they were given first; a cancelled
        // request waits for nobody.
        if let attemptHooks, !isCancelled,
           attemptHooks.holdsTransferEnd({ [self] in transfer.deliveryQueue.async { self.transferDidFinish(transfer, outcome: outcome) } }) {
            return
        }
        attemptHooks?.transferEnded(transfer, outcome: outcome)
        if let session = delegate {
            AttemptPipeline(session: session).didComplete(self, transfer: transfer, outcome: outcome)
        } else {
            finish(on: transfer.deliveryQueue, error: .sessionDeinitialized)
        }
    }
}

extension Request: CustomStringConvertible {
    /// The method and URL of the last request sent, with the response's status code once one
    /// came, e.g. `GET https://example.com/users (200)`.
    public var description: String {
        guard let request = performedRequests.last ?? lastRequest, let url = request.url, let method = request.httpMethod else {
            return "No request created yet."
        }
        let text = "\(method) \(url.absoluteString)"
        return response.map { "\(text) (\($0.statusCode))" } ?? text
    }
}

extension Request: Equatable {
    /// Requests are equal when their `id`s are, which is when they are the same request.
    public static func == (lhs: Request, rhs: Request) -> Bool { lhs === rhs }
}

extension Request: Hashable {
    /// Hashes the request's identity, which its `id` stands for.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
