import Foundation
import Synchronization

extension Request {
    /// Adds an interceptor to this request alone, after the interceptor it already has.
    ///
    /// Its adapter runs on every attempt that starts afterwards (each retry adapts again) and
    /// its retrier is asked about every failure that follows. Add it before the request
    /// starts for it to adapt the first attempt: a session that starts requests immediately
    /// starts one when its first response handler is added, so add interceptors before that.
    ///
    /// - Parameter interceptor: The interceptor.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func interceptor(_ interceptor: any RequestInterceptor) -> Self {
        addToInterceptor { current in
            guard let current else { return Interceptor(interceptors: [interceptor]) }
            if let combined = current as? Interceptor {
                return Interceptor(adapters: combined.adapters, retriers: combined.retriers, interceptors: [interceptor])
            }
            return Interceptor(interceptors: [current, interceptor])
        }
    }

    /// Adds an adapter to this request alone, run after the session's adapter and the adapters
    /// the request already has (when the request has a single interceptor that is not an
    /// `Interceptor`, the new adapter runs before it, as in Alamofire).
    ///
    /// - Parameter adapter: The adapter; it adapts every attempt that starts afterwards.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func adapt(using adapter: any RequestAdapter) -> Self {
        addToInterceptor { current in
            guard let current else { return Interceptor(adapters: [adapter]) }
            if let combined = current as? Interceptor {
                return Interceptor(adapters: combined.adapters + [adapter], retriers: combined.retriers)
            }
            // Alamofire's split of a lone interceptor: the added adapter runs before it, and it
            // stays the only retrier.
            return Interceptor(adapters: [adapter], interceptors: [current])
        }
    }

    /// Adds a retrier to this request alone, asked after the session's retrier and the
    /// retriers the request already has (when the request has a single interceptor that is not
    /// an `Interceptor`, the new retrier is asked before it, as in Alamofire).
    ///
    /// - Parameter retrier: The retrier; it is asked about every failure that follows.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func retry(using retrier: any RequestRetrier) -> Self {
        addToInterceptor { current in
            guard let current else { return Interceptor(retriers: [retrier]) }
            if let combined = current as? Interceptor {
                return Interceptor(adapters: combined.adapters, retriers: combined.retriers + [retrier])
            }
            // As for `adapt(using:)`: the added retrier is asked before the lone interceptor.
            return Interceptor(retriers: [retrier], interceptors: [current])
        }
    }

    /// Adds an event monitor to this request alone, called after the session's monitors.
    ///
    /// It receives the request's events from the moment it is added: the session's monitors
    /// keep receiving them too.
    ///
    /// - Parameter eventMonitor: The monitor.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func eventMonitor(_ eventMonitor: any EventMonitor) -> Self {
        mutableState.withLock { state in
            let current = monitorAdded.load(ordering: .relaxed) ? state.addedMonitor : sessionMonitor
            state.addedMonitor = CompositeEventMonitor(monitors: (current?.monitors ?? []) + [eventMonitor])
            monitorAdded.store(true, ordering: .releasing)
        }
        return self
    }

    /// Replaces the request's own interceptor with what `combine` makes of it, under the
    /// request's lock, so concurrent additions all survive.
    private func addToInterceptor(_ combine: (_ current: (any RequestInterceptor)?) -> any RequestInterceptor) -> Self {
        mutableState.withLock { state in
            let current = interceptorAdded.load(ordering: .relaxed) ? state.addedInterceptor : initialInterceptor
            state.addedInterceptor = combine(current)
            interceptorAdded.store(true, ordering: .releasing)
        }
        return self
    }
}
