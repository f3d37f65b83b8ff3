import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Retries failed requests with exponential backoff, for idempotent methods, for status
/// codes that signal a passing server problem, and for transport errors that may not recur.
///
/// A failed attempt is retried when all of these hold:
/// - the request has been retried fewer than `retryLimit` times;
/// - the method it was made with is in `retryableHTTPMethods` (a POST that a redirect turned
///   into a GET still counts as a POST);
/// - its response's status code is in `retryableHTTPStatusCodes`, or, failing that, the
///   error (a `URLError`, or an `AFError` wrapping one, as Salvo's transport reports them
///   in `AFError.sessionTaskFailed`) has a code in `retryableURLErrorCodes`.
///
/// The n-th retry (counting from zero) waits `pow(exponentialBackoffBase, n) *
/// exponentialBackoffScale` seconds: 0.5 s, then 1 s with the defaults.
///
/// - Note: A response with an error status is not a failure on its own. Add `validate()`
///   (or another validation) to the request so a 503 fails the attempt and reaches the
///   policy.
open class RetryPolicy: RequestInterceptor, @unchecked Sendable { // no lock: only immutable Sendable lets
    // `@unchecked Sendable` only because an `open` class cannot be checked: every stored
    // property is an immutable `Sendable` value, so no lock is needed.

    /// How often a request is retried by default: 2.
    public static let defaultRetryLimit: UInt = 2

    /// The default backoff base: 2.
    public static let defaultExponentialBackoffBase: UInt = 2

    /// The default backoff scale, in seconds: 0.5.
    public static let defaultExponentialBackoffScale: Double = 0.5

    /// Methods retried by default: those RFC 9110 calls idempotent (`DELETE`, `GET`, `HEAD`,
    /// `OPTIONS`, `PUT`, `TRACE`). `POST`, `PATCH` and `CONNECT` are left out: repeating
    /// them may repeat their effect.
    public static let defaultRetryableHTTPMethods: Set<HTTPMethod> = [.delete, .get, .head, .options, .put, .trace]

    /// Status codes retried by default: 408 (request timeout), 500 (internal error),
    /// 502 (bad gateway), 503 (unavailable), 504 (gateway timeout), all of which may clear
    /// up on their own.
    public static let defaultRetryableHTTPStatusCodes: Set<Int> = [408, 500, 502, 503, 504]

    /// `URLError` codes retried by default: failures of the network, of name resolution, of
    /// a connection, or of the server's answer, which a later attempt may not meet again.
    ///
    /// Left out on purpose: cancellation, bad or unsupported URLs, file-system errors,
    /// content that cannot be decoded, too many redirects, untrusted or unknown-root
    /// certificates, authentication, and unknown errors. None of these changes by trying
    /// again. The set is the same as Alamofire's, including the Apple-only codes, so a
    /// policy shared between platforms behaves the same.
    public static let defaultRetryableURLErrorCodes: Set<URLError.Code> = [
        // The system or the device's connectivity.
        .backgroundSessionInUseByAnotherProcess,
        .backgroundSessionWasDisconnected,
        .callIsActive,
        .dataNotAllowed,
        .internationalRoamingOff,
        .notConnectedToInternet,
        // Name resolution and connecting.
        .cannotFindHost,
        .dnsLookupFailed,
        .cannotConnectToHost,
        .cannotLoadFromNetwork,
        // The exchange itself.
        .networkConnectionLost,
        .timedOut,
        .badServerResponse,
        .downloadDecodingFailedMidStream,
        .downloadDecodingFailedToComplete,
        // TLS trouble that may be transient (a clock, a certificate about to become valid).
        .secureConnectionFailed,
        .serverCertificateHasBadDate,
        .serverCertificateNotYetValid,
    ]

    /// How often a request may be retried (not counting its first attempt).
    public let retryLimit: UInt
    /// The base of the backoff; at least 2.
    public let exponentialBackoffBase: UInt
    /// The scale of the backoff, in seconds.
    public let exponentialBackoffScale: Double
    /// The methods that may be retried.
    public let retryableHTTPMethods: Set<HTTPMethod>
    /// The response status codes that make an attempt retryable.
    public let retryableHTTPStatusCodes: Set<Int>
    /// The `URLError` codes that make an attempt retryable.
    public let retryableURLErrorCodes: Set<URLError.Code>

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - retryLimit: How often a request may be retried. `2` by default.
    ///   - exponentialBackoffBase: The base of the backoff; must be at least 2. `2` by default.
    ///   - exponentialBackoffScale: The scale of the backoff, in seconds. `0.5` by default.
    ///   - retryableHTTPMethods: The methods that may be retried.
    ///     `RetryPolicy.defaultRetryableHTTPMethods` by default.
    ///   - retryableHTTPStatusCodes: The status codes that make an attempt retryable.
    ///     `RetryPolicy.defaultRetryableHTTPStatusCodes` by default.
    ///   - retryableURLErrorCodes: The `URLError` codes that make an attempt retryable.
    ///     `RetryPolicy.defaultRetryableURLErrorCodes` by default.
    /// - Precondition: `exponentialBackoffBase >= 2`.
    public init(retryLimit: UInt = RetryPolicy.defaultRetryLimit,
                exponentialBackoffBase: UInt = RetryPolicy.defaultExponentialBackoffBase,
                exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
                retryableHTTPMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableHTTPMethods,
                retryableHTTPStatusCodes: Set<Int> = RetryPolicy.defaultRetryableHTTPStatusCodes,
                retryableURLErrorCodes: Set<URLError.Code> = RetryPolicy.defaultRetryableURLErrorCodes) {
        // A base of 1 (or 0) would never back off, hammering a struggling server.
        precondition(exponentialBackoffBase >= 2, "RetryPolicy's exponentialBackoffBase must be at least 2.")
        self.retryLimit = retryLimit
        self.exponentialBackoffBase = exponentialBackoffBase
        self.exponentialBackoffScale = exponentialBackoffScale
        self.retryableHTTPMethods = retryableHTTPMethods
        self.retryableHTTPStatusCodes = retryableHTTPStatusCodes
        self.retryableURLErrorCodes = retryableURLErrorCodes
    }

    /// Answers `.retryWithDelay` with the backoff for the request's `retryCount` when the
    /// limit is not reached and `shouldRetry(request:dueTo:)` agrees, `.doNotRetry` otherwise.
    ///
    /// - Parameters:
    ///   - request: The failed `Request`.
    ///   - session: The `Session` running it.
    ///   - error: Why the attempt failed.
    ///   - completion: Receives the decision, synchronously.
    open func retry(_ request: Request, for session: Session, dueTo error: any Error,
                    completion: @escaping @Sendable (RetryResult) -> Void) {
        let retryCount = request.retryCount
        guard retryCount < retryLimit, shouldRetry(request: request, dueTo: error) else {
            completion(.doNotRetry)
            return
        }
        let delay = pow(Double(exponentialBackoffBase), Double(retryCount)) * exponentialBackoffScale
        completion(.retryWithDelay(delay))
    }

    /// Whether the failed attempt qualifies for a retry, leaving the limit aside: the method
    /// must be retryable, and then either the response's status code or the error's
    /// `URLError` code.
    ///
    /// - Parameters:
    ///   - request: The failed `Request`.
    ///   - error: Why the attempt failed: a `URLError`, or an `AFError` whose
    ///     `underlyingError` is one, count for their code.
    /// - Returns: `true` when the attempt may be retried.
    open func shouldRetry(request: Request, dueTo error: any Error) -> Bool {
        // The method the request was made with, from its first request as adapted. Not
        // `request.request`: in Salvo that is the last request sent, redirects included, and
        // after a 301/302/303 a POST's last hop is a GET; judging that would send the POST
        // again. (Alamofire's `request.request` never holds a redirect hop, so it means the
        // same thing there.)
        guard let method = request.methodAsMade, retryableHTTPMethods.contains(method) else { return false }
        if let statusCode = request.response?.statusCode, retryableHTTPStatusCodes.contains(statusCode) {
            return true
        }
        let code = (error as? URLError)?.code ?? (error.asAFError?.underlyingError as? URLError)?.code
        guard let code else { return false }
        return retryableURLErrorCodes.contains(code)
    }
}

extension Request {
    /// The method of the first request sent or, when adaptation failed before anything was
    /// sent, of the request as built: Alamofire's `Request.request` holds that initial
    /// request from the start, so its policy can retry a transient adaptation failure.
    fileprivate var methodAsMade: HTTPMethod? {
        firstRequest?.method ?? mutableState.withLock { $0.currentSpec?.method }
    }
}

extension RequestInterceptor where Self == RetryPolicy {
    /// A `RetryPolicy` with the default settings, so call sites can write `.retryPolicy`.
    public static var retryPolicy: RetryPolicy { RetryPolicy() }

    /// A `RetryPolicy` with the given settings.
    ///
    /// - Parameters:
    ///   - retryLimit: How often a request may be retried. `2` by default.
    ///   - exponentialBackoffBase: The base of the backoff; must be at least 2. `2` by default.
    ///   - exponentialBackoffScale: The scale of the backoff, in seconds. `0.5` by default.
    ///   - retryableHTTPMethods: The methods that may be retried.
    ///     `RetryPolicy.defaultRetryableHTTPMethods` by default.
    ///   - retryableHTTPStatusCodes: The status codes that make an attempt retryable.
    ///     `RetryPolicy.defaultRetryableHTTPStatusCodes` by default.
    ///   - retryableURLErrorCodes: The `URLError` codes that make an attempt retryable.
    ///     `RetryPolicy.defaultRetryableURLErrorCodes` by default.
    /// - Returns: The policy.
    public static func retryPolicy(retryLimit: UInt = RetryPolicy.defaultRetryLimit,
                                   exponentialBackoffBase: UInt = RetryPolicy.defaultExponentialBackoffBase,
                                   exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
                                   retryableHTTPMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableHTTPMethods,
                                   retryableHTTPStatusCodes: Set<Int> = RetryPolicy.defaultRetryableHTTPStatusCodes,
                                   retryableURLErrorCodes: Set<URLError.Code> = RetryPolicy.defaultRetryableURLErrorCodes) -> RetryPolicy {
        RetryPolicy(retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
                    exponentialBackoffScale: exponentialBackoffScale, retryableHTTPMethods: retryableHTTPMethods,
                    retryableHTTPStatusCodes: retryableHTTPStatusCodes, retryableURLErrorCodes: retryableURLErrorCodes)
    }
}

// MARK: - ConnectionLostRetryPolicy

/// A `RetryPolicy` that retries idempotent requests only when the connection was lost
/// (`URLError.networkConnectionLost`), whatever the status code.
///
/// The typical case is a kept-alive connection the server closed just as a request went out
/// on it: the request never reached the server, so sending it again is safe and usually
/// succeeds at once. Salvo reports a reset, an empty reply or a truncated body this way.
open class ConnectionLostRetryPolicy: RetryPolicy, @unchecked Sendable { // no lock: only immutable Sendable lets
    // `@unchecked Sendable`: adds no stored state to `RetryPolicy`, whose properties are
    // immutable `Sendable` values.

    /// Creates a policy retrying lost connections only.
    ///
    /// - Parameters:
    ///   - retryLimit: How often a request may be retried. `RetryPolicy.defaultRetryLimit` by default.
    ///   - exponentialBackoffBase: The base of the backoff; must be at least 2.
    ///     `RetryPolicy.defaultExponentialBackoffBase` by default.
    ///   - exponentialBackoffScale: The scale of the backoff, in seconds.
    ///     `RetryPolicy.defaultExponentialBackoffScale` by default.
    ///   - retryableHTTPMethods: The methods that may be retried.
    ///     `RetryPolicy.defaultRetryableHTTPMethods` by default.
    public init(retryLimit: UInt = RetryPolicy.defaultRetryLimit,
                exponentialBackoffBase: UInt = RetryPolicy.defaultExponentialBackoffBase,
                exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
                retryableHTTPMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableHTTPMethods) {
        super.init(retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
                   exponentialBackoffScale: exponentialBackoffScale, retryableHTTPMethods: retryableHTTPMethods,
                   retryableHTTPStatusCodes: [], retryableURLErrorCodes: [.networkConnectionLost])
    }
}

extension RequestInterceptor where Self == ConnectionLostRetryPolicy {
    /// A `ConnectionLostRetryPolicy` with the default settings.
    public static var connectionLostRetryPolicy: ConnectionLostRetryPolicy { ConnectionLostRetryPolicy() }

    /// A `ConnectionLostRetryPolicy` with the given settings.
    ///
    /// - Parameters:
    ///   - retryLimit: How often a request may be retried. `RetryPolicy.defaultRetryLimit` by default.
    ///   - exponentialBackoffBase: The base of the backoff; must be at least 2.
    ///     `RetryPolicy.defaultExponentialBackoffBase` by default.
    ///   - exponentialBackoffScale: The scale of the backoff, in seconds.
    ///     `RetryPolicy.defaultExponentialBackoffScale` by default.
    ///   - retryableHTTPMethods: The methods that may be retried.
    ///     `RetryPolicy.defaultRetryableHTTPMethods` by default.
    /// - Returns: The policy.
    public static func connectionLostRetryPolicy(retryLimit: UInt = RetryPolicy.defaultRetryLimit,
                                                 exponentialBackoffBase: UInt = RetryPolicy.defaultExponentialBackoffBase,
                                                 exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
                                                 retryableHTTPMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableHTTPMethods)
        -> ConnectionLostRetryPolicy {
        ConnectionLostRetryPolicy(retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
                                  exponentialBackoffScale: exponentialBackoffScale, retryableHTTPMethods: retryableHTTPMethods)
    }
}
