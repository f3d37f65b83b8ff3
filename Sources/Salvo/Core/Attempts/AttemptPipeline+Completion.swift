import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AttemptPipeline {
    /// The most redirects one request follows, as URLSession allows.
    static let maximumRedirects = 16

    /// Runs on the request's delivery queue when a transfer ends: follow a redirect,
    /// validate, retry or finish.
    func didComplete(_ request: Request, transfer: Transfer, outcome: TransferOutcome) {
        if let cache = session.responseCache, outcome.head?.statusCode == 304 {
            // A 304 answered from the cache was stored again when it was brought up to date.
            return conclude(request, transfer: transfer, outcome: answeredByCache(outcome, cache: cache, request: request), storable: false)
        }
        conclude(request, transfer: transfer, outcome: outcome, storable: outcome.error == nil)
    }

    private func conclude(_ request: Request, transfer: Transfer, outcome: TransferOutcome, storable: Bool) {
        enum Disposition { case stale, cancelled(ResponseContext), proceed(ResponseContext) }
        let queue = transfer.deliveryQueue
        let disposition = request.mutableState.withLock { state -> Disposition in
            let action = state.lifecycle.transferEnded(transfer)
            // A transfer the request no longer waits for (superseded, or already finished).
            guard let context = state.contexts.last else { return .stale }
            switch action {
            case .concludeAttempt, .finishCancelledAttempt: break
            default: return .stale
            }
            context.complete(head: outcome.head, metrics: outcome.metrics)
            state.data = outcome.body.isEmpty ? nil : outcome.body
            if case .finishCancelledAttempt = action { return .cancelled(context) }
            return .proceed(context)
        }
        // Every response's cookies count, a redirect's and an error's too, before the next hop
        // or attempt reads the storage.
        if transfer.usesCookies, let cookies = session.cookies, let head = outcome.head { cookies.store(from: head) }
        let finished: ResponseContext
        switch disposition {
        case .stale: return
        case let .cancelled(context):
            // The cancelled attempt still completed: monitors and the delegate hear of it once,
            // as Alamofire's hear of a cancelled task's completion.
            reportCompletion(request, error: .sessionTaskFailed(error: URLError(.cancelled)), context: context)
            attemptCompleted(request, error: request.error ?? .explicitlyCancelled)
            request.finish(on: queue)
            return
        case let .proceed(context): finished = context
        }
        let monitor = request.monitor
        monitor?.request(request, didGatherMetrics: outcome.metrics)
        delegate.request(request, didFinishCollecting: outcome.metrics)
        let transportError = outcome.error.map { error in trustFailure(error, transfer: transfer) ?? AFError.sessionTaskFailed(error: error.urlError) }
        if let error = transportError {
            reportCompletion(request, error: error, context: finished)
            monitor?.request(request, didFailTransferWithError: error)
            retryOrFinish(request, error: error, queue: queue)
            return
        }
        // Someone listens for the final head and the engine could not tell them: the request
        // announces it, unless it follows it as a redirect.
        let unannounced = transfer.headHandler != nil && !transfer.headAnnounced ? outcome.head : nil
        if let head = outcome.head, ResponseHead.isFollowedRedirect(status: head.statusCode) {
            if let target = head.redirectURL,
               followRedirect(request, head: head, target: target, from: finished, transfer: transfer,
                              unannounced: unannounced, queue: queue) {
                return
            }
            // Refused, or a `Location` libcurl could not use (an empty one): the redirect is
            // the answer.
            return finishAttempt(request, unannounced: unannounced, notFollowed: transfer, queue: queue)
        }
        if storable, let cache = session.responseCache { store(outcome, of: finished, in: cache, request: request) }
        reportCompletion(request, error: nil, context: finished)
        finishAttempt(request, unannounced: unannounced, queue: queue)
    }

    /// Tells monitors an attempt completed: Salvo's event, then Alamofire's task event.
    func attemptCompleted(_ request: Request, error: AFError?) {
        request.notify(.attemptCompleted)
        guard let monitor = request.monitor else { return }
        monitor.request(request, didCompleteAttemptWithError: error)
        if monitor.sendsTaskEvents, let task = request.lastTask { monitor.request(request, didCompleteTask: task, with: error) }
    }

    /// Tells the delegate an attempt's transfers are over, once per attempt as URLSession
    /// tells it once per task: after the last hop, not after each redirect followed.
    /// Monitors that watch task events hear Alamofire's URLSession-level event first.
    func reportCompletion(_ request: Request, error: AFError?, context: ResponseContext) {
        let monitor = request.taskEventMonitor
        guard session.delegateIsSubclass || monitor != nil else { return delegate.request(request, didCompleteWithError: error) }
        let task = request.task(for: context.origin ?? context)
        let reported: (any Error)? = error.map { error in
            if case let .sessionTaskFailed(underlying) = error { return underlying }
            return error
        }
        monitor?.urlSession(session.session, task: task, didCompleteWithError: reported)
        if session.delegateIsSubclass {
            delegate.urlSession(session.session, task: task, didCompleteWithError: reported)
        } else {
            delegate.request(request, didCompleteWithError: error)
        }
    }

    /// A `304 Not Modified` to a revalidation becomes the stored response, brought up to date.
    private func answeredByCache(_ outcome: TransferOutcome, cache: ResponseCache, request: Request) -> TransferOutcome {
        guard let head = outcome.head, head.statusCode == 304,
              let context = request.mutableState.withLock({ $0.contexts.last }), let entry = context.cacheEntry,
              !context.servedFromCache, let notModified = context.response(for: head) else { return outcome }
        let refreshed = cache.refreshed(entry, by: notModified, for: context.urlRequest)
        guard let response = refreshed.response as? HTTPURLResponse else { return outcome }
        context.prime(response)
        var answered = outcome
        answered.head = ResponseCache.head(of: response)
        answered.body = refreshed.data
        return answered
    }

    /// Offers a `GET` data request's final response to the session's cache.
    private func store(_ outcome: TransferOutcome, of context: ResponseContext, in cache: ResponseCache, request: Request) {
        guard !context.servedFromCache, context.spec.method == .get, request.attemptHooks == nil, request is DataRequest,
              !(request is UploadRequest), let response = context.httpResponse else { return }
        let handler = request.cachedResponseHandler ?? session.cachedResponseHandler
        cache.store(response, data: outcome.body, for: context.urlRequest, headers: context.spec.headers,
                    header: { sentHeader($0, spec: context.spec) }, request: request, handler: handler)
    }

    /// Announces a final head the engine did not, then validates and finishes. A redirect
    /// that is not followed (`notFollowed`, the transfer it ended) is the answer: a stream
    /// gets its body once the handlers have seen the head.
    private func finishAttempt(_ request: Request, unannounced head: ResponseHead?, notFollowed transfer: Transfer? = nil,
                               queue: DispatchQueue) {
        if transfer != nil, let context = request.mutableState.withLock({ $0.contexts.last }) {
            reportCompletion(request, error: nil, context: context)
        }
        let proceed: @Sendable () -> Void = { [self] in
            if let transfer { request.attemptHooks?.redirectNotFollowed(transfer, on: queue) }
            validateAndFinish(request, queue: queue)
        }
        guard let head else { return proceed() }
        request.announceFinalHead(head, on: queue, proceed: proceed)
    }

    /// Validates the attempt's response, then retries or finishes.
    private func validateAndFinish(_ request: Request, queue: DispatchQueue) {
        request.runValidators()
        if let error = request.error {
            retryOrFinish(request, error: error, queue: queue)
        } else if let failure = request.attemptHooks?.attemptSucceeded(request) {
            // A download that could not be moved into place: not a transport failure, so
            // not retried.
            request.mutableState.withLock { $0.lifecycle.failedAfterSuccess(failure) }
            attemptCompleted(request, error: failure)
            request.finish(on: queue)
        } else if request.mayRetry, let (serialization, failure) = request.firstSerializationFailure() {
            askRetriers(request, aboutSerialization: failure, of: serialization, queue: queue)
        } else {
            attemptCompleted(request, error: nil)
            request.finish(on: queue)
        }
    }

    /// A serializer failed on a response that otherwise succeeded: as in Alamofire, the
    /// retriers may retry the request. Declined, the request finishes without an error and
    /// each handler gets its own serializer's result; declined with an error, the failing
    /// serializer's handler gets `requestRetryFailed`, as Alamofire's does.
    private func askRetriers(_ request: Request, aboutSerialization failure: AFError, of serialization: any HandlerSerializing,
                             queue: DispatchQueue) {
        let retriers = retriers(for: request)
        Self.decideRetry(request, session: session, error: failure, retriers: retriers[...]) { [weak session] result in
            guard let session else {
                queue.async { request.finish(on: queue, error: .sessionDeinitialized) }
                return
            }
            let pipeline = AttemptPipeline(session: session)
            queue.async {
                switch result {
                case .retry, .retryWithDelay:
                    request.resetHandlerSerializations()
                    request.mutableState.withLock { $0.lifecycle.failed(failure) }
                    pipeline.attemptCompleted(request, error: failure)
                    pipeline.retryDecided(request, result, error: failure, queue: queue)
                case .doNotRetry:
                    pipeline.attemptCompleted(request, error: nil)
                    request.finish(on: queue)
                case let .doNotRetryWithError(retryError):
                    serialization.replaceFailure(with: .requestRetryFailed(retryError: retryError, originalError: failure))
                    pipeline.attemptCompleted(request, error: nil)
                    request.finish(on: queue)
                }
            }
        }
    }

    func retryOrFinish(_ request: Request, error: AFError, queue: DispatchQueue) {
        request.mutableState.withLock { $0.lifecycle.failed(error) }
        attemptCompleted(request, error: error)
        let retriers = retriers(for: request)
        guard !retriers.isEmpty else {
            request.finish(on: queue)
            return
        }
        // Weakly: a retrier that never answers must not keep the session alive.
        Self.decideRetry(request, session: session, error: error, retriers: retriers[...]) { [weak session] result in
            guard let session else {
                queue.async { request.finish(on: queue, error: .sessionDeinitialized) }
                return
            }
            AttemptPipeline(session: session).retryDecided(request, result, error: error, queue: queue)
        }
    }

    func retryDecided(_ request: Request, _ result: RetryResult, error: AFError, queue: DispatchQueue) {
        let decision: RequestLifecycle<Transfer>.RetryDecision
        switch result {
        case .retry, .retryWithDelay: decision = .retry(delay: result.delay ?? 0)
        case .doNotRetry: decision = .doNotRetry
        case let .doNotRetryWithError(retryError):
            decision = .doNotRetryWithError(.requestRetryFailed(retryError: retryError, originalError: error))
        }
        switch request.mutableState.withLock({ $0.lifecycle.retryDecided(decision) }) {
        case let .retry(delay):
            let retry: @Sendable () -> Void = { [self] in beginRetry(of: request) }
            if delay > 0 {
                rootQueue.asyncAfter(deadline: .now() + delay, execute: retry)
            } else {
                retry()
            }
        default:
            queue.async { request.finish(on: queue) }
        }
    }

    /// The back-off is over: as in Alamofire, the attempt is counted, its error cleared and
    /// monitors told only now, and the request is built again from what it was made of (a
    /// request modifier runs again) and adapted again. A request cancelled during the back-off
    /// was finished by `cancel()`.
    private func beginRetry(of request: Request) {
        let retrying = request.mutableState.withLock { state -> Bool in
            guard case .beginRetry = state.lifecycle.backOffEnded() else { return false }
            state.data = nil
            return true
        }
        guard retrying else { return }
        request.monitor?.requestIsRetrying(request)
        startAttempt(of: request)
    }

    private static func decideRetry(_ request: Request, session: Session, error: AFError, retriers: ArraySlice<any RequestRetrier>,
                                    completion: @escaping @Sendable (RetryResult) -> Void) {
        guard let first = retriers.first else {
            completion(.doNotRetry)
            return
        }
        let rest = retriers.dropFirst()
        first.retry(request, for: session, dueTo: error) { result in
            if case .doNotRetry = result {
                decideRetry(request, session: session, error: error, retriers: rest, completion: completion)
            } else {
                completion(result)
            }
        }
    }

    /// Builds the request URLSession would send after a redirect and asks the redirect
    /// handler. Returns `false` when the redirect is not followed here.
    /// libcurl writes the credential of `CURLOPT_USERNAME`/`CURLOPT_PASSWORD` into the
    /// redirect URL it resolves (`user:password@host`): left there, the password would show
    /// in every later request, response and log line. It is removed unless the URL the
    /// request was at carried user info itself; the credential still answers challenges.
    private static func withoutAddedCredential(_ target: URL, from current: URL, of request: Request) -> URL {
        guard target.user != nil, current.user == nil,
              let credential = request.mutableState.withLock({ $0.credential }), target.user == credential.user,
              var components = URLComponents(url: target, resolvingAgainstBaseURL: false) else { return target }
        components.user = nil
        components.password = nil
        return components.url ?? target
    }

    private func followRedirect(_ request: Request, head: ResponseHead, target: String, from context: ResponseContext,
                                transfer: Transfer, unannounced: ResponseHead?, queue: DispatchQueue) -> Bool {
        // The caller has checked that the status is one URLSession follows.
        guard var url = URL(string: target) else { return false }
        url = Self.withoutAddedCredential(url, from: context.spec.url, of: request)
        let (tooMany, redirectTime) = request.mutableState.withLock { state -> (Bool, TimeInterval) in
            state.redirectTime += context.metrics?.total ?? 0
            let action = state.lifecycle.redirected(limit: Self.maximumRedirects)
            if case .failTooManyRedirects = action { return (true, state.redirectTime) }
            return (false, state.redirectTime)
        }
        if tooMany {
            let error = AFError.sessionTaskFailed(error: URLError(.httpTooManyRedirects))
            reportCompletion(request, error: error, context: context)
            retryOrFinish(request, error: error, queue: queue)
            return true
        }
        // The resource timeout bounds the attempt with its redirects, as URLSession's bounds a
        // task: the next hop gets what is left of it.
        let resourceTimeout = loop.options.resourceTimeout
        let resourceLeft: TimeInterval? = resourceTimeout > 0 && resourceTimeout.isFinite ? resourceTimeout - redirectTime : nil
        if let resourceLeft, resourceLeft <= 0 {
            let error = AFError.sessionTaskFailed(error: URLError(.timedOut))
            reportCompletion(request, error: error, context: context)
            retryOrFinish(request, error: error, queue: queue)
            return true
        }
        var next = context.spec
        let changesToGet = head.statusCode == 303 && next.method != .head
            || (head.statusCode == 301 || head.statusCode == 302) && next.method == .post
        if changesToGet {
            next.method = .get
            next.body = nil
            next.headers.remove(name: "Content-Type")
            next.headers.remove(name: "Content-Length")
        }
        if url.host?.lowercased() != next.url.host?.lowercased() || url.port != next.url.port || url.scheme != next.url.scheme {
            // Credentials and cookies meant for one origin never go to another.
            next.headers.remove(name: "Authorization")
            next.headers.remove(name: "Proxy-Authorization")
            next.headers.remove(name: "Cookie")
        }
        next.url = url

        guard let response = context.httpResponse else {
            send(request, spec: next, urlRequest: nil, redirectHop: true, resourceLeft: resourceLeft)
            return true
        }
        let decided: @Sendable (URLRequest?) -> Void = { [weak session] redirected in
            guard let session else {
                queue.async { request.finish(on: queue, error: .sessionDeinitialized) }
                return
            }
            let pipeline = AttemptPipeline(session: session)
            guard let redirected, let spec = try? RequestSpec(redirected) else {
                // Not followed: the redirect response is the attempt's result.
                queue.async { pipeline.finishAttempt(request, unannounced: unannounced, notFollowed: transfer, queue: queue) }
                return
            }
            pipeline.send(request, spec: spec, urlRequest: redirected, redirectHop: true, resourceLeft: resourceLeft)
        }
        let monitor = request.taskEventMonitor
        let task = session.delegateIsSubclass || monitor != nil ? request.task(for: context.origin ?? context) : nil
        if let task {
            monitor?.urlSession(session.session, task: task, willPerformHTTPRedirection: response, newRequest: next.urlRequest)
        }
        if session.delegateIsSubclass, let task {
            delegate.urlSession(session.session, task: task, willPerformHTTPRedirection: response, newRequest: next.urlRequest,
                                completionHandler: decided)
        } else {
            delegate.request(request, willPerformHTTPRedirection: response, newRequest: next.urlRequest, completionHandler: decided)
        }
        return true
    }

    /// A failed handshake under the session's server trust evaluation, as Alamofire reports it.
    private func trustFailure(_ error: CurlError, transfer: Transfer) -> AFError? {
        guard let trust = transfer.trust, let manager = session.serverTrustManager,
              let host = URLComponents(string: transfer.url)?.host else { return nil }
        return ServerTrustEvaluation.failure(error, host: host, trust: trust, manager: manager)
    }
}
