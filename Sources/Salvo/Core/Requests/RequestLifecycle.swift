import Foundation

/// A request's life as a value: its public `Request.State`, where its current attempt
/// stands, its error and its retry and redirect counts.
///
/// Every event a request goes through is one `mutating` method here, which changes the value
/// and returns what the request must do about it; the request calls it under its lock and
/// carries the `Action` out after releasing the lock. So one file says what each event does in
/// each state, and the rules can be tested as tables without a socket.
///
/// `Handle` is the running transfer (the engine's `Transfer` in a request); the lifecycle only
/// compares it by identity.
struct RequestLifecycle<Handle: AnyObject & Sendable>: Sendable {
    /// Where the request's current attempt stands.
    enum Phase {
        /// Not started: no attempt was ever begun.
        case idle
        /// Building or adapting an attempt's request, or waiting for a redirect handler.
        case preparing
        /// The first attempt was set up eagerly (`Session.RequestSetup.eager`): built and
        /// adapted, it waits for the request's first resume.
        case prepared
        /// The attempt's transfer runs in the engine.
        case running(Handle)
        /// The attempt ended: validators, retriers or `onHTTPResponse` handlers are deciding.
        case concluding
        /// Waiting out a retrier's delay before the next attempt.
        case backingOff
        /// Completed: the handlers ran or are running; nothing changes any more.
        case completed
    }

    /// What the owning request does after an event, outside its lock.
    enum Action {
        /// Nothing.
        case none
        /// Record the request as active, tell monitors it resumed, begin its first attempt.
        case start
        /// Begin the first attempt without resuming: the session sets requests up eagerly.
        case setUp
        /// Tell monitors the request resumed; send the first attempt, set up eagerly.
        case sendPrepared
        /// Tell monitors the request resumed; unpause the transfer, if one runs.
        case resumeTransfer(Handle?)
        /// Tell monitors the request was suspended; pause the transfer, if one runs.
        case suspendTransfer(Handle?)
        /// Tell monitors of the cancel and stop the transfer; its end finishes the request.
        case cancelTransfer(Handle)
        /// Tell monitors of the cancel and finish now: nothing runs.
        case cancelAndFinish
        /// Hand the prepared transfer to the engine, paused when the request is suspended.
        case send(paused: Bool)
        /// Keep the attempt, set up eagerly, until the request's first resume.
        case hold
        /// The request ended while its attempt was prepared: undo what was prepared, finish.
        case abandonAttempt
        /// Go on with the ended attempt: redirect, validate, retry or finish.
        case concludeAttempt
        /// The cancelled request's transfer ended: tell monitors, finish.
        case finishCancelledAttempt
        /// Follow the redirect.
        case followRedirect
        /// Fail the attempt: it followed more redirects than allowed.
        case failTooManyRedirects
        /// Begin the next attempt after this many seconds (0: at once).
        case retry(after: TimeInterval)
        /// Count the retry and begin the next attempt.
        case beginRetry
        /// Finish the request.
        case finish
        /// Run the new handler now: the request completed.
        case runHandler
        /// Keep the handler and resume the request, as a session that starts requests
        /// immediately does.
        case keepHandlerAndResume
        /// Keep the handler for the completion.
        case keepHandler
    }

    /// A retrier's answer, as the lifecycle needs it.
    enum RetryDecision {
        case retry(delay: TimeInterval)
        case doNotRetry
        case doNotRetryWithError(AFError)
    }

    private(set) var state = Request.State.initialized
    private(set) var phase = Phase.idle
    /// The first error of the current attempt (cleared when a retry begins), or the
    /// cancellation.
    private(set) var error: AFError?
    private(set) var retryCount = 0
    private(set) var redirectCount = 0
    /// Whether `resume()` ever took effect: until then an attempt set up eagerly is held.
    private(set) var wasResumed = false

    /// Whether the request completed.
    var isCompleted: Bool {
        if case .completed = phase { return true }
        return false
    }

    /// Completed or cancelled: nothing more may be sent for the request.
    var isOver: Bool { isCompleted || state == .cancelled }

    /// The transfer of the running attempt, if one runs.
    var runningTransfer: Handle? {
        if case let .running(handle) = phase { return handle }
        return nil
    }

    // MARK: Caller events

    /// `resume()`: from `.initialized` or `.suspended`; the first resume starts the request.
    mutating func resume() -> Action {
        guard state.canTransition(to: .resumed) else { return .none }
        state = .resumed
        wasResumed = true
        switch phase {
        case .idle:
            phase = .preparing
            return .start
        case .prepared:
            phase = .preparing
            return .sendPrepared
        default:
            return .resumeTransfer(runningTransfer)
        }
    }

    /// The session sets requests up eagerly: a new request begins its first attempt (builds
    /// and adapts it) without being resumed; the attempt is sent on the first resume.
    mutating func setUpEagerly() -> Action {
        guard case .idle = phase, !isOver else { return .none }
        phase = .preparing
        return .setUp
    }

    /// The first attempt is built and adapted: held until the first resume when set up
    /// eagerly, sent otherwise (the send abandons it if the request ended meanwhile).
    mutating func attemptPrepared() -> Action {
        guard !wasResumed, !isOver else { return .none }
        phase = .prepared
        return .hold
    }

    /// `suspend()`: from `.initialized` or `.resumed`, as in Alamofire; a request suspended
    /// before it starts starts on its next resume.
    mutating func suspend() -> Action {
        guard state.canTransition(to: .suspended) else { return .none }
        state = .suspended
        return .suspendTransfer(runningTransfer)
    }

    /// `cancel()`: the error becomes `explicitlyCancelled` unless the attempt already failed
    /// (cancelled while its retriers decide or during a back-off), as in Alamofire.
    mutating func cancel() -> Action {
        guard !isCompleted, state.canTransition(to: .cancelled) else { return .none }
        state = .cancelled
        if error == nil { error = .explicitlyCancelled }
        if case .prepared = phase {
            // The first attempt, set up eagerly, was never sent: nothing runs.
            phase = .concluding
            return .cancelAndFinish
        }
        if let transfer = runningTransfer { return .cancelTransfer(transfer) }
        return .cancelAndFinish
    }

    /// A response handler was added. Like Alamofire's, a request that may still resume
    /// (initialized or suspended) is resumed when the session starts requests immediately.
    mutating func handlerAdded(startsImmediately: Bool) -> Action {
        if isCompleted { return .runHandler }
        return startsImmediately && state.canTransition(to: .resumed) ? .keepHandlerAndResume : .keepHandler
    }

    // MARK: Attempt events

    /// An attempt's transfer is ready to go to the engine.
    mutating func transferReady(_ transfer: Handle) -> Action {
        guard !isOver else { return .abandonAttempt }
        phase = .running(transfer)
        return .send(paused: state == .suspended)
    }

    /// A transfer ended. One the request no longer waits for (superseded, or the request
    /// completed) is ignored.
    mutating func transferEnded(_ transfer: Handle) -> Action {
        guard let running = runningTransfer, running === transfer else { return .none }
        phase = .concluding
        return state == .cancelled ? .finishCancelledAttempt : .concludeAttempt
    }

    /// The ended attempt answered with a redirect the request follows, up to `limit` hops.
    mutating func redirected(limit: Int) -> Action {
        redirectCount += 1
        guard redirectCount <= limit else { return .failTooManyRedirects }
        phase = .preparing
        return .followRedirect
    }

    /// The attempt failed (transport, adapter, validator or handler): the first error stays.
    mutating func failed(_ error: AFError) {
        if self.error == nil { self.error = error }
    }

    /// A failure found after the attempt succeeded, such as a download that could not be
    /// moved into place; it is the request's error even over an earlier one.
    mutating func failedAfterSuccess(_ error: AFError) {
        self.error = error
    }

    /// The retriers answered.
    mutating func retryDecided(_ decision: RetryDecision) -> Action {
        switch decision {
        case let .retry(delay):
            // A request cancelled while its retriers decided was finished by the cancel.
            guard !isOver else { return .finish }
            phase = .backingOff
            return .retry(after: max(delay, 0))
        case .doNotRetry:
            return .finish
        case let .doNotRetryWithError(wrapped):
            error = wrapped
            return .finish
        }
    }

    /// The retry delay is over: as in Alamofire, the retry is counted and the error cleared
    /// only now. A request cancelled during the back-off was finished by the cancel.
    mutating func backOffEnded() -> Action {
        guard !isOver else { return .none }
        retryCount += 1
        error = nil
        redirectCount = 0
        phase = .preparing
        return .beginRetry
    }

    /// Completes the request with `error` unless it has one. Returns whether this call
    /// completed it: only the first does, so the handlers run once.
    mutating func finish(error newError: AFError? = nil) -> Bool {
        guard !isCompleted else { return false }
        phase = .completed
        if let newError, error == nil { error = newError }
        if state != .cancelled { state = .finished }
        return true
    }
}
