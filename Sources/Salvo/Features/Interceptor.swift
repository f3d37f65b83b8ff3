import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The closure an `Adapter` runs: receives the request and the session, and must call the
/// completion once, from any thread, with the adapted request or an error.
public typealias AdaptHandler = @Sendable (_ request: URLRequest,
                                           _ session: Session,
                                           _ completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) -> Void

/// The closure a `Retrier` runs: receives the failed request, its session and the error,
/// and must call the completion once, from any thread, with its decision.
public typealias RetryHandler = @Sendable (_ request: Request,
                                           _ session: Session,
                                           _ error: any Error,
                                           _ completion: @escaping @Sendable (RetryResult) -> Void) -> Void

// MARK: - Adapter

/// A `RequestAdapter` made from a closure, for one-off changes such as adding a header
/// without declaring a type.
///
/// ```swift
/// let session = Session(interceptor: Adapter { request, _, completion in
///     var request = request
///     request.headers.add(.authorization(bearerToken: token))
///     completion(.success(request))
/// })
/// ```
///
/// It conforms to `RequestInterceptor` so it can be passed wherever an interceptor is
/// expected; its retry half never retries.
open class Adapter: RequestInterceptor, @unchecked Sendable { // no lock: only immutable Sendable lets
    // `@unchecked Sendable` only because an `open` class cannot be checked: the one stored
    // property is an immutable `@Sendable` closure, so no lock is needed.

    private let adaptHandler: AdaptHandler

    /// Creates an adapter that runs `adaptHandler` for every attempt.
    ///
    /// - Parameter adaptHandler: Adapts the request; must call its completion exactly once.
    @preconcurrency
    public init(_ adaptHandler: @escaping AdaptHandler) {
        self.adaptHandler = adaptHandler
    }

    /// Runs the closure with the request and session.
    ///
    /// - Parameters:
    ///   - urlRequest: The request to adapt.
    ///   - session: The `Session` running it.
    ///   - completion: Receives the adapted request or an error.
    @preconcurrency
    open func adapt(_ urlRequest: URLRequest, for session: Session,
                    completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        adaptHandler(urlRequest, session, completion)
    }

    /// Runs the closure with the request and the state's session.
    ///
    /// Implemented here rather than left to the protocol's default so that it is `open`:
    /// this is the entry point `Session` calls, and a subclass can override it.
    ///
    /// - Parameters:
    ///   - urlRequest: The request to adapt.
    ///   - state: The request's id and session.
    ///   - completion: Receives the adapted request or an error.
    @preconcurrency
    open func adapt(_ urlRequest: URLRequest, using state: RequestAdapterState,
                    completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        adaptHandler(urlRequest, state.session, completion)
    }
}

extension RequestAdapter where Self == Adapter {
    /// An `Adapter` running `closure`, so call sites can write `.adapter { ... }`.
    ///
    /// - Parameter closure: Adapts the request; must call its completion exactly once.
    /// - Returns: The adapter.
    @preconcurrency
    public static func adapter(using closure: @escaping AdaptHandler) -> Adapter {
        Adapter(closure)
    }
}

// MARK: - Retrier

/// A `RequestRetrier` made from a closure.
///
/// It conforms to `RequestInterceptor` so it can be passed wherever an interceptor is
/// expected; its adapt half passes requests through unchanged.
open class Retrier: RequestInterceptor, @unchecked Sendable { // no lock: only immutable Sendable lets
    // `@unchecked Sendable` only because an `open` class cannot be checked: the one stored
    // property is an immutable `@Sendable` closure, so no lock is needed.

    private let retryHandler: RetryHandler

    /// Creates a retrier that runs `retryHandler` after every failed attempt.
    ///
    /// - Parameter retryHandler: Decides; must call its completion exactly once.
    @preconcurrency
    public init(_ retryHandler: @escaping RetryHandler) {
        self.retryHandler = retryHandler
    }

    /// Runs the closure with the failed request, its session and the error.
    ///
    /// - Parameters:
    ///   - request: The failed `Request`.
    ///   - session: The `Session` running it.
    ///   - error: Why the attempt failed.
    ///   - completion: Receives the decision.
    @preconcurrency
    open func retry(_ request: Request, for session: Session, dueTo error: any Error,
                    completion: @escaping @Sendable (RetryResult) -> Void) {
        retryHandler(request, session, error, completion)
    }
}

extension RequestRetrier where Self == Retrier {
    /// A `Retrier` running `closure`, so call sites can write `.retrier { ... }`.
    ///
    /// - Parameter closure: Decides; must call its completion exactly once.
    /// - Returns: The retrier.
    @preconcurrency
    public static func retrier(using closure: @escaping RetryHandler) -> Retrier {
        Retrier(closure)
    }
}

// MARK: - Interceptor

/// Combines several adapters and retriers into one `RequestInterceptor`.
///
/// - Adapting runs the adapters in order, each receiving the previous one's output; the
///   first failure stops the chain and becomes the result.
/// - Retrying asks the retriers in order and settles on the first answer other than
///   `.doNotRetry` (a retry, a delayed retry, or a failure with a new error); when every
///   retrier declines, the answer is `.doNotRetry`.
///
/// ```swift
/// let interceptor = Interceptor(adapters: [signer], retriers: [RetryPolicy()], interceptors: [auth])
/// ```
open class Interceptor: RequestInterceptor, @unchecked Sendable { // no lock: only immutable Sendable lets
    // `@unchecked Sendable` only because an `open` class cannot be checked: both stored
    // properties are immutable arrays of `Sendable` existentials, so no lock is needed.

    /// The adapters, run in this order until one fails.
    public let adapters: [any RequestAdapter]
    /// The retriers, asked in this order until one answers something other than `.doNotRetry`.
    public let retriers: [any RequestRetrier]

    /// Creates an interceptor from one adapting closure and one retrying closure.
    ///
    /// - Parameters:
    ///   - adaptHandler: Becomes the only adapter.
    ///   - retryHandler: Becomes the only retrier.
    public init(adaptHandler: @escaping AdaptHandler, retryHandler: @escaping RetryHandler) {
        adapters = [Adapter(adaptHandler)]
        retriers = [Retrier(retryHandler)]
    }

    /// Creates an interceptor from one adapter and one retrier.
    ///
    /// - Parameters:
    ///   - adapter: The only adapter.
    ///   - retrier: The only retrier.
    public init(adapter: any RequestAdapter, retrier: any RequestRetrier) {
        adapters = [adapter]
        retriers = [retrier]
    }

    /// Creates an interceptor from lists of adapters, retriers and interceptors.
    ///
    /// Each interceptor in `interceptors` takes part in both halves, after the plain
    /// adapters and after the plain retriers respectively.
    ///
    /// - Parameters:
    ///   - adapters: Adapters, run first. None by default.
    ///   - retriers: Retriers, asked first. None by default.
    ///   - interceptors: Interceptors, appended to both lists. None by default.
    public init(adapters: [any RequestAdapter] = [],
                retriers: [any RequestRetrier] = [],
                interceptors: [any RequestInterceptor] = []) {
        self.adapters = adapters + interceptors.map { $0 as any RequestAdapter }
        self.retriers = retriers + interceptors.map { $0 as any RequestRetrier }
    }

    /// Runs every adapter in order through `adapt(_:for:completion:)`.
    ///
    /// - Parameters:
    ///   - urlRequest: The request to adapt.
    ///   - session: The `Session` running it.
    ///   - completion: Receives the last adapter's output, or the first error.
    @preconcurrency
    open func adapt(_ urlRequest: URLRequest, for session: Session,
                    completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        Self.chain(urlRequest, through: adapters[...], step: { adapter, request, next in
            adapter.adapt(request, for: session, completion: next)
        }, completion: completion)
    }

    /// Runs every adapter in order through `adapt(_:using:completion:)`, so adapters that
    /// need the request's id receive it.
    ///
    /// - Parameters:
    ///   - urlRequest: The request to adapt.
    ///   - state: The request's id and session.
    ///   - completion: Receives the last adapter's output, or the first error.
    @preconcurrency
    open func adapt(_ urlRequest: URLRequest, using state: RequestAdapterState,
                    completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        Self.chain(urlRequest, through: adapters[...], step: { adapter, request, next in
            adapter.adapt(request, using: state, completion: next)
        }, completion: completion)
    }

    /// Asks every retrier in order until one answers something other than `.doNotRetry`.
    ///
    /// - Parameters:
    ///   - request: The failed `Request`.
    ///   - session: The `Session` running it.
    ///   - error: Why the attempt failed.
    ///   - completion: Receives the first decisive answer, or `.doNotRetry`.
    @preconcurrency
    open func retry(_ request: Request, for session: Session, dueTo error: any Error,
                    completion: @escaping @Sendable (RetryResult) -> Void) {
        Self.ask(retriers[...], request: request, session: session, error: error, completion: completion)
    }

    /// One adapter at a time: the next one starts from inside the previous one's completion,
    /// because adapters may answer asynchronously and on any thread.
    private static func chain(_ urlRequest: URLRequest,
                              through adapters: ArraySlice<any RequestAdapter>,
                              step: @escaping @Sendable (any RequestAdapter, URLRequest,
                                                         @escaping @Sendable (Result<URLRequest, any Error>) -> Void) -> Void,
                              completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        guard let adapter = adapters.first else {
            completion(.success(urlRequest))
            return
        }
        let remaining = adapters.dropFirst()
        step(adapter, urlRequest) { result in
            switch result {
            case let .success(adapted):
                chain(adapted, through: remaining, step: step, completion: completion)
            case .failure:
                completion(result)
            }
        }
    }

    /// One retrier at a time, for the same reason as `chain`.
    private static func ask(_ retriers: ArraySlice<any RequestRetrier>, request: Request, session: Session,
                            error: any Error, completion: @escaping @Sendable (RetryResult) -> Void) {
        guard let retrier = retriers.first else {
            completion(.doNotRetry)
            return
        }
        let remaining = retriers.dropFirst()
        retrier.retry(request, for: session, dueTo: error) { result in
            if case .doNotRetry = result {
                ask(remaining, request: request, session: session, error: error, completion: completion)
            } else {
                completion(result)
            }
        }
    }
}

extension RequestInterceptor where Self == Interceptor {
    /// An `Interceptor` from one adapting closure and one retrying closure.
    ///
    /// - Parameters:
    ///   - adapter: Adapts each attempt.
    ///   - retrier: Decides on each failure.
    /// - Returns: The interceptor.
    @preconcurrency
    public static func interceptor(adapter: @escaping AdaptHandler, retrier: @escaping RetryHandler) -> Interceptor {
        Interceptor(adaptHandler: adapter, retryHandler: retrier)
    }

    /// An `Interceptor` from one adapter and one retrier.
    ///
    /// - Parameters:
    ///   - adapter: Adapts each attempt.
    ///   - retrier: Decides on each failure.
    /// - Returns: The interceptor.
    @preconcurrency
    public static func interceptor(adapter: any RequestAdapter, retrier: any RequestRetrier) -> Interceptor {
        Interceptor(adapter: adapter, retrier: retrier)
    }

    /// An `Interceptor` from lists of adapters, retriers and interceptors; see
    /// `Interceptor.init(adapters:retriers:interceptors:)` for the order.
    ///
    /// - Parameters:
    ///   - adapters: Adapters, run first. None by default.
    ///   - retriers: Retriers, asked first. None by default.
    ///   - interceptors: Interceptors, appended to both lists. None by default.
    /// - Returns: The interceptor.
    @preconcurrency
    public static func interceptor(adapters: [any RequestAdapter] = [],
                                   retriers: [any RequestRetrier] = [],
                                   interceptors: [any RequestInterceptor] = []) -> Interceptor {
        Interceptor(adapters: adapters, retriers: retriers, interceptors: interceptors)
    }
}
