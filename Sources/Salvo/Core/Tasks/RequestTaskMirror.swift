import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a Salvo `URLSessionTask` reports about its attempt, read from the request each time
/// it is asked: a task is a view of one attempt, never its engine.
///
/// `RequestDataTask`, `RequestUploadTask` and `RequestDownloadTask` repeat the same overrides,
/// each forwarding here: each must subclass its own Foundation class, and a superclass's
/// overrides cannot be shared across three branches of Foundation's hierarchy.
///
/// An attempt's redirect hops share one task, as they share one `URLSessionTask` in
/// URLSession: `anchor` is the attempt's first context, and the current hop is the request's
/// context that started from it.
final class RequestTaskMirror: Sendable {
    weak let request: Request?
    /// Weak: the context keeps the task, so a strong reference back would keep both forever.
    /// The request holds its contexts; a task kept after its request is gone reports nothing.
    weak let anchor: ResponseContext?
    let identifier: Int

    init(request: Request, anchor: ResponseContext, identifier: Int) {
        self.request = request
        self.anchor = anchor
        self.identifier = identifier
    }

    /// The attempt's latest hop, or the anchor when the request has moved on.
    private var current: ResponseContext? {
        guard let anchor else { return nil }
        let contexts = request?.mutableState.withLock { $0.contexts.elements } ?? []
        return contexts.last { ($0.origin ?? $0) === anchor } ?? anchor
    }

    private var isLastAttempt: Bool {
        guard let anchor, let last = request?.mutableState.withLock({ $0.contexts.last }) else { return false }
        return (last.origin ?? last) === anchor
    }

    var originalRequest: URLRequest? { anchor.flatMap { $0.isCreated ? $0.urlRequest : nil } }
    var currentRequest: URLRequest? { current?.urlRequest }
    var response: URLResponse? { current?.httpResponse }
    var bytesReceived: Int64 { current?.metrics?.bytesReceived ?? 0 }
    var bytesSent: Int64 { current?.metrics?.bytesSent ?? 0 }

    /// The transport error of the request's last attempt, as URLSession reports it.
    var error: (any Error)? {
        guard isLastAttempt, let error = request?.error else { return nil }
        if case let .sessionTaskFailed(underlying) = error { return underlying }
        return error.isExplicitlyCancelledError ? URLError(.cancelled) : nil
    }

    var state: URLSessionTask.State {
        guard let request else { return .completed }
        if !isLastAttempt || current?.metrics != nil { return .completed }
        if let anchor, !anchor.wasSent {
            // Made at set-up by an eager session and not sent: suspended, as URLSession's task
            // is until resumed.
            switch request.state {
            case .cancelled: return .canceling
            case .finished: return .completed
            default: return .suspended
            }
        }
        switch request.state {
        case .initialized, .resumed: return .running
        case .suspended: return .suspended
        case .cancelled: return .canceling
        case .finished: return .completed
        }
    }

    func cancel() { request?.cancel() }
    func suspend() { request?.suspend() }
    func resume() { request?.resume() }
}

/// A Salvo task: the `URLSessionTask` subclasses Salvo hands out for its requests' attempts.
public protocol RequestTask: URLSessionTask {
    /// The request whose attempt this task mirrors, while the request exists.
    var request: Request? { get }
}
