import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Request {
    /// The `URLSessionTask` of the request's latest attempt, or `nil` before one was sent.
    ///
    /// Salvo's tasks (`RequestDataTask`, `RequestUploadTask`, `RequestDownloadTask`) carry no
    /// traffic: each mirrors one attempt of the request (its redirects included) and is made
    /// the first time someone asks for it.
    public var task: URLSessionTask? { lastTask }

    /// The request's monitors when one of them watches task events (Alamofire's task and
    /// URLSession-level events), which are made only for them; `nil` otherwise.
    var taskEventMonitor: CompositeEventMonitor? {
        monitor.flatMap { $0.sendsTaskEvents ? $0 : nil }
    }

    /// One task per attempt sent, the first attempt's first.
    public var tasks: [URLSessionTask] {
        attemptAnchors.map(task(for:))
    }

    /// The first attempt's task.
    public var firstTask: URLSessionTask? { attemptAnchors.first.map(task(for:)) }

    /// The latest attempt's task.
    public var lastTask: URLSessionTask? { attemptAnchors.last.map(task(for:)) }

    /// Calls `handler` with the task of each attempt sent: the first, then one per retry. When
    /// the request was already sent, it is also called straight away with the latest attempt's
    /// task. Only the last handler given is kept, as in Alamofire.
    ///
    /// - Parameters:
    ///   - queue: Where the handler runs. `.main` by default (see `Session.responseQueue`).
    ///   - handler: Called with each task.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func onURLSessionTaskCreation(on queue: DispatchQueue = .main,
                                         perform handler: @escaping @Sendable (URLSessionTask) -> Void) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        let last = mutableState.withLock { state -> ResponseContext? in
            state.taskCreationHandler = (queue, handler)
            return state.contexts.last
        }
        if let last, last.isCreated {
            let task = task(for: last.origin ?? last)
            queue.async { handler(task) }
        }
        return self
    }

    /// The first context of each attempt sent (or prepared, for an eager request), in order.
    private var attemptAnchors: [ResponseContext] {
        mutableState.withLock { $0.contexts.elements }.compactMap { context in
            context.isCreated ? context.origin ?? context : nil
        }
    }

    /// The task of an eager request's attempt made at set-up and not sent yet, if any.
    var preparedTask: URLSessionTask? {
        guard let last = mutableState.withLock({ $0.contexts.last }), last.isPrepared, !last.wasSent else { return nil }
        return task(for: last)
    }

    /// The task of the attempt whose first context is `anchor`.
    func task(for anchor: ResponseContext) -> URLSessionTask {
        anchor.task { [self] in
            let mirror = RequestTaskMirror(request: self, anchor: anchor, identifier: delegate?.nextTaskIdentifier() ?? 0)
            if self is DownloadRequest { return RequestDownloadTask(mirror: mirror) }
            if self is UploadRequest { return RequestUploadTask(mirror: mirror) }
            return RequestDataTask(mirror: mirror)
        }
    }
}
