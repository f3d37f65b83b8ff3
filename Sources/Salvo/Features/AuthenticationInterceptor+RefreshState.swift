import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AuthenticationInterceptor {
    /// A limit on how often the credential may be refreshed, to stop endless refresh loops.
    ///
    /// Before each refresh the interceptor counts the refreshes started in the last `interval`
    /// seconds; when there are already `maximumAttempts` of them, the refresh is not started and
    /// every request waiting for it fails with `AuthenticationError.excessiveRefresh`.
    public struct RefreshWindow {
        /// How far back, in seconds, refreshes are counted.
        public let interval: TimeInterval

        /// How many refreshes may start within `interval`.
        public let maximumAttempts: Int

        /// Creates a refresh window.
        ///
        /// - Parameters:
        ///   - interval: How far back, in seconds, refreshes are counted. `30` by default.
        ///   - maximumAttempts: How many refreshes may start within `interval`. `5` by default.
        public init(interval: TimeInterval = 30.0, maximumAttempts: Int = 5) {
            self.interval = interval
            self.maximumAttempts = maximumAttempts
        }
    }
}

// MARK: - State machine

/// An adaptation held until a refresh finishes.
struct PendingAdapt: Sendable {
    let urlRequest: URLRequest
    let session: Session
    let completion: @Sendable (Result<URLRequest, any Error>) -> Void
}

/// The requests waiting for a refresh, taken out of the state in one piece when it ends.
struct AuthenticationWaiters: Sendable {
    var adaptations: [PendingAdapt] = []
    var retries: [@Sendable (RetryResult) -> Void] = []

    var isEmpty: Bool { adaptations.isEmpty && retries.isEmpty }
}

/// What `AuthenticationInterceptor` knows, and the decisions it takes from it.
///
/// Pure: the `mutating` methods only change the state and say what to do next; the
/// interceptor does it after releasing its lock, so no `Authenticator` method and no
/// completion handler ever runs under the lock.
struct AuthenticationState<AuthenticatorType: Authenticator> {
    typealias Credential = AuthenticatorType.Credential

    /// A `RefreshWindow`'s two numbers. Kept apart from `RefreshWindow` itself, which (as in
    /// Alamofire) is not declared `Sendable` and so could not be handed to the `Mutex`.
    struct RefreshLimit: Sendable {
        let interval: TimeInterval
        let maximumAttempts: Int
    }

    enum Phase {
        /// No refresh is running.
        case idle
        /// A refresh is running; waiters are collected. A refresh that fails fails its waiters
        /// and leaves the phase idle, so the next rejection refreshes again, as in Alamofire
        /// (the refresh window still bounds how often).
        case refreshing
    }

    enum AdaptDecision: Sendable {
        /// Apply this credential and complete.
        case apply(Credential)
        /// Complete with this error.
        case fail(AuthenticationError)
        /// The adaptation is held; a running refresh will continue it.
        case wait
        /// The adaptation is held; start refreshing this credential.
        case startRefresh(Credential)
        /// The refresh was refused: fail these waiters (the caller among them) with the error.
        case release(AuthenticationWaiters, AuthenticationError)
    }

    enum RetryDecision: Sendable {
        /// Complete with this result.
        case answer(RetryResult)
        /// The retry is held; a running refresh will answer it.
        case wait
        /// The retry is held; start refreshing the credential the caller read.
        case startRefresh
        /// The refresh was refused: fail these waiters (the caller among them) with the error.
        case release(AuthenticationWaiters, AuthenticationError)
    }

    private(set) var credential: Credential?
    /// Grows by one with every new credential, so a retry decision can tell whether the
    /// credential it read is still the current one.
    private(set) var credentialVersion = 0
    private var phase: Phase = .idle
    private let refreshLimit: RefreshLimit?
    /// Start times of the refreshes inside the window, oldest first.
    private var refreshTimes: [TimeInterval] = []
    private var waiters = AuthenticationWaiters()

    init(credential: Credential?, refreshLimit: RefreshLimit?) {
        self.credential = credential
        self.refreshLimit = refreshLimit
    }

    private var isRefreshing: Bool {
        if case .refreshing = phase { true } else { false }
    }

    /// A credential set from outside, or produced by a refresh.
    mutating func replaceCredential(with newCredential: Credential?) {
        credential = newCredential
        credentialVersion += 1
        phase = .idle
    }

    mutating func adapt(_ pending: PendingAdapt, now: TimeInterval) -> AdaptDecision {
        // Held adaptations mean the running refresh was started by `adapt` because the
        // credential expired: join it. A refresh started by a retry holds no adaptations, and
        // new requests go out with the current credential meanwhile, as in Alamofire.
        if isRefreshing, !waiters.adaptations.isEmpty {
            waiters.adaptations.append(pending)
            return .wait
        }
        guard let credential else { return .fail(.missingCredential) }
        guard credential.requiresRefresh, !isRefreshing else { return .apply(credential) }

        waiters.adaptations.append(pending)
        guard beginRefresh(now: now) else { return .release(takeWaiters(), .excessiveRefresh) }
        return .startRefresh(credential)
    }

    /// A request authenticated with the credential of `version` was rejected.
    mutating func retry(_ completion: @escaping @Sendable (RetryResult) -> Void,
                        credentialVersion version: Int, now: TimeInterval) -> RetryDecision {
        // Replaced since the caller read it: the new credential deserves a try.
        guard version == credentialVersion else { return .answer(.retry) }
        switch phase {
        case .refreshing:
            waiters.retries.append(completion)
            return .wait
        case .idle:
            waiters.retries.append(completion)
            guard beginRefresh(now: now) else { return .release(takeWaiters(), .excessiveRefresh) }
            return .startRefresh
        }
    }

    /// The running refresh ended; returns everyone who waited for it.
    mutating func finishRefresh(with result: Result<Credential, any Error>) -> AuthenticationWaiters {
        switch result {
        case let .success(newCredential):
            replaceCredential(with: newCredential)
        case .failure:
            phase = .idle
        }
        return takeWaiters()
    }

    /// Records a refresh about to start, or refuses it when the window is full.
    private mutating func beginRefresh(now: TimeInterval) -> Bool {
        if let refreshLimit {
            let windowStart = now - refreshLimit.interval
            refreshTimes.removeAll { $0 < windowStart }
            guard refreshTimes.count < refreshLimit.maximumAttempts else { return false }
            refreshTimes.append(now)
        }
        phase = .refreshing
        return true
    }

    private mutating func takeWaiters() -> AuthenticationWaiters {
        defer { waiters = AuthenticationWaiters() }
        return waiters
    }
}
