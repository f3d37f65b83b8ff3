import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A credential an `Authenticator` can put on a `URLRequest`, such as an OAuth2 access token.
///
/// The only thing `AuthenticationInterceptor` asks of a credential is whether it is still good
/// to use; everything else (how it is applied, how it is renewed) belongs to the
/// `Authenticator`.
public protocol AuthenticationCredential {
    /// Whether the credential must be refreshed before it is used again.
    ///
    /// Return `true` once the credential has expired, and preferably a little before: a token
    /// that expires in a few seconds may expire while the request travels through backend
    /// services. When `true`, `AuthenticationInterceptor` holds every request it adapts until a
    /// refresh has produced a new credential.
    var requiresRefresh: Bool { get }
}

// MARK: -

/// Applies an `AuthenticationCredential` to requests, refreshes it, and recognises requests the
/// server rejected because of it.
///
/// `AuthenticationInterceptor` does the queuing and the threading; an `Authenticator` only
/// answers questions about one credential type.
///
/// ```swift
/// final class OAuthAuthenticator: Authenticator {
///     func apply(_ credential: OAuthCredential, to urlRequest: inout URLRequest) {
///         urlRequest.headers.add(.authorization(bearerToken: credential.accessToken))
///     }
///     // refresh, didRequest, isRequest ...
/// }
/// ```
public protocol Authenticator: AnyObject, Sendable {
    /// The credential this authenticator works with.
    associatedtype Credential: AuthenticationCredential & Sendable

    /// Puts the credential on a request, for example as an `Authorization: Bearer` header.
    ///
    /// - Parameters:
    ///   - credential: The credential to apply.
    ///   - urlRequest: The request to authenticate, changed in place.
    func apply(_ credential: Credential, to urlRequest: inout URLRequest)

    /// Obtains a new credential to replace `credential`.
    ///
    /// `AuthenticationInterceptor` calls it in two situations: while adapting a request, when
    /// the current credential reports `requiresRefresh`; and while deciding on a retry, when
    /// the server rejected a request authenticated with the current credential. It never calls
    /// it again before `completion` has run, and every request waiting on the refresh is
    /// resumed (or failed) with its outcome.
    ///
    /// - Parameters:
    ///   - credential: The credential to refresh; for OAuth2 it holds the refresh token.
    ///   - session: The `Session` whose request needed the refresh; the refresh may use it.
    ///   - completion: Call it exactly once, from any thread, with the new credential or the
    ///     error that prevented one. An error fails every waiting request.
    ///
    /// - Note: When the authentication server answers the refresh itself with a rejection
    ///   (commonly a 401), the refresh token is no longer usable and the user must sign in
    ///   again; report that as an error rather than returning the old credential.
    func refresh(_ credential: Credential, for session: Session, completion: @escaping @Sendable (Result<Credential, any Error>) -> Void)

    /// Whether a request failed because the server rejected its credential.
    ///
    /// Return `false` when the server cannot revoke credentials once issued: expiry is then
    /// handled by `requiresRefresh` alone. When it can, recognise its rejection precisely,
    /// typically a 401 with a marker the authentication layer adds. A 401 from a downstream
    /// service that merely denies the operation must not count, or every such answer would
    /// trigger a refresh.
    ///
    /// - Parameters:
    ///   - urlRequest: The request as it was sent.
    ///   - response: The response that came back.
    ///   - error: Why the attempt failed.
    /// - Returns: `true` when the failure was an authentication failure, `false` otherwise.
    func didRequest(_ urlRequest: URLRequest, with response: HTTPURLResponse, failDueToAuthenticationError error: any Error) -> Bool

    /// Whether a request carries this credential.
    ///
    /// When several requests fail with an authentication error at about the same time, the
    /// first one refreshes the credential; a response that arrives after that refresh belongs
    /// to a request sent with the old credential, and needs a retry, not another refresh. Return
    /// `true` when the request was authenticated with `credential` (for OAuth2: its bearer
    /// token equals the credential's access token), `false` otherwise. When the server cannot
    /// revoke credentials, simply return `true`.
    ///
    /// - Parameters:
    ///   - urlRequest: The request as it was sent.
    ///   - credential: The interceptor's current credential.
    /// - Returns: `true` when `urlRequest` is authenticated with `credential`, `false` otherwise.
    func isRequest(_ urlRequest: URLRequest, authenticatedWith credential: Credential) -> Bool
}

// MARK: -

/// Why `AuthenticationInterceptor` could not authenticate a request.
///
/// These errors reach callers inside `AFError`: as the `error` of
/// `.requestAdaptationFailed` when they happen while a request is adapted, and as the
/// `retryError` of `.requestRetryFailed` when they happen while a retry is decided.
public enum AuthenticationError: Error {
    /// There was no credential to authenticate the request with.
    case missingCredential
    /// The credential was refreshed more often within the `RefreshWindow` than it allows.
    case excessiveRefresh
}

// MARK: -

/// A `RequestInterceptor` that authenticates requests with a credential and refreshes that
/// credential when it expires or the server rejects it.
///
/// - Adapting applies the current credential through the `Authenticator`. Without a credential
///   the request fails with `AuthenticationError.missingCredential`. When the credential
///   reports `requiresRefresh`, the request waits while one refresh runs; requests adapted in
///   the meantime wait for the same refresh, and all of them continue with its result.
/// - Retrying considers only attempts that received a response the `Authenticator` calls an
///   authentication failure. A request sent with an older credential than the current one is
///   retried at once; otherwise the credential is refreshed and the request retried after it.
///   Requests that failed at the same time wait for one shared refresh.
/// - Refreshes are counted within the `RefreshWindow`; the one beyond `maximumAttempts` is not
///   started, and every waiting request fails with `AuthenticationError.excessiveRefresh`.
///
/// ```swift
/// let interceptor = AuthenticationInterceptor(authenticator: OAuthAuthenticator(),
///                                             credential: storedCredential)
/// session.request(url, interceptor: interceptor).validate().responseDecodable(of: User.self) { ... }
/// ```
///
/// - Note: The `Authenticator`'s methods are never called while the interceptor holds its lock,
///   so they may call back into the interceptor (for example read `credential`).
public final class AuthenticationInterceptor<AuthenticatorType: Authenticator>: RequestInterceptor, Sendable {
    /// The credential type of the `Authenticator`.
    public typealias Credential = AuthenticatorType.Credential

    /// The credential requests are authenticated with.
    ///
    /// Reading and writing are thread-safe. Setting it (to a credential obtained elsewhere, or
    /// to `nil` on sign-out) counts as a new credential: requests sent with the previous one and
    /// rejected afterwards are retried with this one rather than triggering a refresh.
    public var credential: Credential? {
        get { state.withLock { $0.credential } }
        set { state.withLock { $0.replaceCredential(with: newValue) } }
    }

    let authenticator: AuthenticatorType

    /// Runs refreshes and resumes waiting requests, so neither happens inside the lock or on
    /// the caller's stack.
    private let queue = DispatchQueue(label: "org.salvo.authentication-interceptor")

    private let state: Mutex<AuthenticationState<AuthenticatorType>>

    /// Creates an interceptor.
    ///
    /// - Parameters:
    ///   - authenticator: Applies, refreshes and checks credentials.
    ///   - credential: The credential to start with. `nil` by default: requests then fail with
    ///     `AuthenticationError.missingCredential` until one is set.
    ///   - refreshWindow: Limits how often the credential is refreshed. `RefreshWindow()` (at
    ///     most 5 refreshes in 30 seconds) by default; `nil` disables the limit, which risks an
    ///     endless refresh loop when the server keeps rejecting fresh credentials.
    public init(authenticator: AuthenticatorType,
                credential: Credential? = nil,
                refreshWindow: RefreshWindow? = RefreshWindow()) {
        self.authenticator = authenticator
        let limit = refreshWindow.map {
            AuthenticationState<AuthenticatorType>.RefreshLimit(interval: $0.interval, maximumAttempts: $0.maximumAttempts)
        }
        state = Mutex(AuthenticationState(credential: credential, refreshLimit: limit))
    }

    // MARK: Adapt

    /// Authenticates the request with the current credential, or holds it while the credential
    /// is refreshed.
    ///
    /// - Parameters:
    ///   - urlRequest: The request to authenticate.
    ///   - session: The `Session` running it; passed on to `Authenticator.refresh`.
    ///   - completion: Receives the authenticated request, or
    ///     `AuthenticationError.missingCredential`, `AuthenticationError.excessiveRefresh` or the
    ///     refresh's error.
    public func adapt(_ urlRequest: URLRequest, for session: Session,
                      completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        let pending = PendingAdapt(urlRequest: urlRequest, session: session, completion: completion)
        let decision = state.withLock { $0.adapt(pending, now: Self.now()) }
        switch decision {
        case let .apply(credential):
            var authenticated = urlRequest
            authenticator.apply(credential, to: &authenticated)
            completion(.success(authenticated))
        case let .fail(error):
            completion(.failure(error))
        case .wait:
            break
        case let .startRefresh(credential):
            startRefresh(of: credential, for: session)
        case let .release(waiters, error):
            release(waiters, failingWith: error)
        }
    }

    // MARK: Retry

    /// Decides whether a failed request is retried with a newer credential.
    ///
    /// - Parameters:
    ///   - request: The failed `Request`; its last `request` and `response` are inspected.
    ///   - session: The `Session` running it; passed on to `Authenticator.refresh`.
    ///   - error: Why the attempt failed.
    ///   - completion: Receives `.retry` once a newer credential exists, `.doNotRetry` when the
    ///     failure was not an authentication failure, or `.doNotRetryWithError` with an
    ///     `AuthenticationError` or the refresh's error.
    public func retry(_ request: Request, for session: Session, dueTo error: any Error,
                      completion: @escaping @Sendable (RetryResult) -> Void) {
        // Only a server's rejection of the credential is this interceptor's business: no
        // response means nothing was rejected.
        guard let urlRequest = request.request, let response = request.response,
              authenticator.didRequest(urlRequest, with: response, failDueToAuthenticationError: error) else {
            completion(.doNotRetry)
            return
        }

        guard let (credential, version) = state.withLock({ state in
            state.credential.map { ($0, state.credentialVersion) }
        }) else {
            completion(.doNotRetryWithError(AuthenticationError.missingCredential))
            return
        }

        // Sent with a credential that has since been replaced: the replacement may work.
        guard authenticator.isRequest(urlRequest, authenticatedWith: credential) else {
            completion(.retry)
            return
        }

        let decision = state.withLock { $0.retry(completion, credentialVersion: version, now: Self.now()) }
        switch decision {
        case let .answer(result):
            completion(result)
        case .wait:
            break
        case .startRefresh:
            startRefresh(of: credential, for: session)
        case let .release(waiters, error):
            release(waiters, failingWith: error)
        }
    }

    // MARK: Refresh

    private func startRefresh(of credential: Credential, for session: Session) {
        queue.async { [self] in
            authenticator.refresh(credential, for: session) { [self] result in
                let waiters = state.withLock { $0.finishRefresh(with: result) }
                switch result {
                case .success:
                    resume(waiters)
                case let .failure(error):
                    release(waiters, failingWith: error)
                }
            }
        }
    }

    /// Continues the waiting requests after a successful refresh: held adaptations run again
    /// (they meet the new credential, or its own need for a refresh), held retries retry.
    private func resume(_ waiters: AuthenticationWaiters) {
        guard !waiters.isEmpty else { return }
        queue.async { [self] in
            for pending in waiters.adaptations {
                adapt(pending.urlRequest, for: pending.session, completion: pending.completion)
            }
            for answer in waiters.retries {
                answer(.retry)
            }
        }
    }

    /// Fails the waiting requests with `error`.
    private func release(_ waiters: AuthenticationWaiters, failingWith error: any Error) {
        guard !waiters.isEmpty else { return }
        queue.async {
            for pending in waiters.adaptations {
                pending.completion(.failure(error))
            }
            for answer in waiters.retries {
                answer(.doNotRetryWithError(error))
            }
        }
    }

    /// A monotonic clock in seconds, so refresh windows ignore wall-clock changes.
    private static func now() -> TimeInterval {
        ProcessInfo.processInfo.systemUptime
    }
}
