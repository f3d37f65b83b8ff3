import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an adapter knows about the attempt it adapts.
public struct RequestAdapterState: Sendable {
    /// The `Request`'s `id`.
    public let requestID: UUID
    /// The `Session` running the request.
    public let session: Session
}

/// Changes a `URLRequest` before each attempt is sent: adding credentials, signing, ...
public protocol RequestAdapter: Sendable {
    /// Adapts a request.
    ///
    /// - Parameters:
    ///   - urlRequest: The request to adapt.
    ///   - session: The `Session` running it.
    ///   - completion: Call it once with the adapted request or an error; any thread.
    func adapt(_ urlRequest: URLRequest, for session: Session, completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void)

    /// Adapts a request, with the request's id. By default calls `adapt(_:for:completion:)`.
    ///
    /// - Parameters:
    ///   - urlRequest: The request to adapt.
    ///   - state: The request's id and session.
    ///   - completion: Call it once with the adapted request or an error; any thread.
    func adapt(_ urlRequest: URLRequest, using state: RequestAdapterState, completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void)
}

extension RequestAdapter {
    /// Calls `adapt(_:for:completion:)` with the state's session.
    @preconcurrency
    public func adapt(_ urlRequest: URLRequest, using state: RequestAdapterState, completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        adapt(urlRequest, for: state.session, completion: completion)
    }
}

/// What a retrier decides after a failed attempt.
public enum RetryResult: Sendable {
    /// Retry at once.
    case retry
    /// Retry after this many seconds.
    case retryWithDelay(TimeInterval)
    /// Do not retry; fail with the attempt's error.
    case doNotRetry
    /// Do not retry; fail with this error instead.
    case doNotRetryWithError(any Error)
}

extension RetryResult {
    var retryRequired: Bool {
        switch self {
        case .retry, .retryWithDelay: return true
        default: return false
        }
    }

    var delay: TimeInterval? {
        switch self {
        case let .retryWithDelay(delay): return delay
        default: return nil
        }
    }

    var error: (any Error)? {
        guard case let .doNotRetryWithError(error) = self else { return nil }
        return error
    }
}

/// Decides whether a failed request is tried again.
public protocol RequestRetrier: Sendable {
    /// Decides whether to retry.
    ///
    /// - Parameters:
    ///   - request: The failed `Request`; `retryCount` says how often it was retried.
    ///   - session: The `Session` running it.
    ///   - error: Why the attempt failed.
    ///   - completion: Call it once with the decision; any thread.
    func retry(_ request: Request, for session: Session, dueTo error: any Error, completion: @escaping @Sendable (RetryResult) -> Void)
}

/// Both an adapter and a retrier. Each half defaults to doing nothing.
public protocol RequestInterceptor: RequestAdapter, RequestRetrier {}

extension RequestInterceptor {
    /// Passes the request through unchanged.
    @preconcurrency
    public func adapt(_ urlRequest: URLRequest, for session: Session, completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        completion(.success(urlRequest))
    }

    /// Never retries.
    @preconcurrency
    public func retry(_ request: Request, for session: Session, dueTo error: any Error, completion: @escaping @Sendable (RetryResult) -> Void) {
        completion(.doNotRetry)
    }
}
