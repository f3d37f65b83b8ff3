import Foundation

extension Request {
    /// Receives a request's progress: a new `Progress` for each update, made on the
    /// handler's queue, so the handler may keep it.
    public typealias ProgressHandler = @Sendable (_ progress: Progress) -> Void

    /// Calls `closure` as the request body is sent.
    ///
    /// Updates come at most every 50 ms or each 1% of the body; a request that succeeds
    /// ends with one update whose `fractionCompleted` is exactly 1.
    ///
    /// - Parameters:
    ///   - queue: Where `closure` runs. `.main` by default (see `Session.responseQueue`).
    ///   - closure: The handler.
    /// - Returns: The request.
    /// - Note: Register handlers before the request starts; an attempt that is already
    ///   running keeps the handlers it started with.
    @preconcurrency
    @discardableResult
    public func uploadProgress(queue: DispatchQueue = .main, closure: @escaping ProgressHandler) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        mutableState.withLock { state in
            var handlers = state.progress ?? ProgressHandlers()
            handlers.upload.append((queue, closure))
            state.progress = handlers
        }
        return self
    }

    /// Calls `closure` as the response body arrives.
    ///
    /// Updates come at most every 50 ms or each 1% of the body; a request that succeeds
    /// ends with one update whose `fractionCompleted` is exactly 1. A resumed download
    /// counts the bytes it already had.
    ///
    /// - Parameters:
    ///   - queue: Where `closure` runs. `.main` by default (see `Session.responseQueue`).
    ///   - closure: The handler.
    /// - Returns: The request.
    /// - Note: Register handlers before the request starts; an attempt that is already
    ///   running keeps the handlers it started with.
    @preconcurrency
    @discardableResult
    public func downloadProgress(queue: DispatchQueue = .main, closure: @escaping ProgressHandler) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        mutableState.withLock { state in
            var handlers = state.progress ?? ProgressHandlers()
            handlers.download.append((queue, closure))
            state.progress = handlers
        }
        return self
    }

    /// Sends the closing update, exactly 1.0, to every progress handler of a request that
    /// succeeded. Called once, from `finish`.
    /// Posts the final, complete progress before any response handler runs: handlers on
    /// `currentQueue` are called here, at once, and those on other queues are queued now, ahead
    /// of the response handlers queued after them.
    func reportFinalProgress(_ handlers: ProgressHandlers, metrics: TransferMetrics?, on currentQueue: DispatchQueue?) {
        if !handlers.upload.isEmpty {
            ProgressHandlers.post(handlers.upload, completed: metrics?.bytesSent ?? 0, total: nil, inlineOn: currentQueue)
        }
        if !handlers.download.isEmpty {
            let bytes = (attemptHooks as? DownloadAttempts)?.downloadedSize ?? metrics?.bytesReceived ?? 0
            ProgressHandlers.post(handlers.download, completed: bytes, total: nil, inlineOn: currentQueue)
        }
    }
}

/// The progress handlers of one request.
struct ProgressHandlers: Sendable {
    var upload: [(DispatchQueue, Request.ProgressHandler)] = []
    var download: [(DispatchQueue, Request.ProgressHandler)] = []

    /// The engine's side of these handlers, for one transfer.
    func transferProgress() -> TransferProgress {
        let upload = upload
        let download = download
        return TransferProgress(
            upload: upload.isEmpty ? nil : ProgressThrottle { completed, total in Self.post(upload, completed: completed, total: total) },
            download: download.isEmpty ? nil : ProgressThrottle { completed, total in Self.post(download, completed: completed, total: total) }
        )
    }

    /// Hands an update to each handler's queue. `total` `nil` marks the final update: the
    /// total is then what was done, so the fraction is exactly 1 (an empty body counts as
    /// one unit of one, for the same reason).
    static func post(_ handlers: [(DispatchQueue, Request.ProgressHandler)], completed: Int64, total: Int64?,
                     inlineOn currentQueue: DispatchQueue? = nil) {
        let done = total == nil ? max(completed, 1) : completed
        let total = total ?? done
        for (queue, handler) in handlers {
            let call: @Sendable () -> Void = {
                // Made here, on the handler's queue, so no `Progress` crosses threads.
                let progress = Progress(totalUnitCount: total)
                progress.completedUnitCount = done
                handler(progress)
            }
            if queue === currentQueue { call() } else { queue.async(execute: call) }
        }
    }
}
