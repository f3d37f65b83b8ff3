import Foundation

extension Request {
    /// Receives a request's progress: the request's own `uploadProgress` or
    /// `downloadProgress`, brought up to date just before the call.
    public typealias ProgressHandler = @Sendable (_ progress: Progress) -> Void

    /// How much of the request body has been sent.
    ///
    /// The same object for the whole life of the request, made on first use. It is brought
    /// up to date before each call of the upload progress handler, and when the request
    /// finishes (a request that succeeds ends at `fractionCompleted` 1; a retry starts it
    /// again from zero). Read it in the handler or once the request has finished: Foundation's
    /// `Progress` takes no lock on Linux, so a read from another thread while an update runs
    /// is a data race.
    public var uploadProgress: Progress { progressChannel(\.upload).progress }

    /// How much of the response body has arrived; for a resumed download, the bytes it
    /// already had count.
    ///
    /// The same object for the whole life of the request, made on first use. It is brought
    /// up to date before each call of the download progress handler, and when the request
    /// finishes (a request that succeeds ends at `fractionCompleted` 1; a retry starts it
    /// again from zero). Read it in the handler or once the request has finished: Foundation's
    /// `Progress` takes no lock on Linux, so a read from another thread while an update runs
    /// is a data race.
    public var downloadProgress: Progress { progressChannel(\.download).progress }

    /// The upload progress handler and the queue it runs on, once one is set.
    public var uploadProgressHandler: (handler: ProgressHandler, queue: DispatchQueue)? {
        mutableState.withLock { $0.progress?.upload?.handler }
    }

    /// The download progress handler and the queue it runs on, once one is set.
    public var downloadProgressHandler: (handler: ProgressHandler, queue: DispatchQueue)? {
        mutableState.withLock { $0.progress?.download?.handler }
    }

    /// Sets the closure called as the request body is sent; only the last one set is called,
    /// as in Alamofire.
    ///
    /// Updates come at most every 50 ms or each 1% of the body; a request that succeeds
    /// ends with one update whose `fractionCompleted` is exactly 1, before its response
    /// handlers start, on whatever queue. The response waits for it at most 100 ms, and for a
    /// handler on the main queue only once the main queue has been seen running, so a queue
    /// blocked until the response comes, or a main queue never drained, does not hold it.
    ///
    /// - Parameters:
    ///   - queue: Where `closure` runs. `.main` by default (see `Session.responseQueue`).
    ///   - closure: The handler. It receives `uploadProgress`.
    /// - Returns: The request.
    /// - Note: Set the handler before the request starts: an attempt that is already running
    ///   reports progress only if a handler was set when it started.
    @preconcurrency
    @discardableResult
    public func uploadProgress(queue: DispatchQueue = .main, closure: @escaping ProgressHandler) -> Self {
        setProgressHandler(\.upload, queue: queue, closure: closure)
    }

    /// Sets the closure called as the response body arrives; only the last one set is
    /// called, as in Alamofire.
    ///
    /// Updates come at most every 50 ms or each 1% of the body; a request that succeeds
    /// ends with one update whose `fractionCompleted` is exactly 1, before its response
    /// handlers start, on whatever queue (as for `uploadProgress(queue:closure:)`). A resumed
    /// download counts the bytes it already had.
    ///
    /// - Parameters:
    ///   - queue: Where `closure` runs. `.main` by default (see `Session.responseQueue`).
    ///   - closure: The handler. It receives `downloadProgress`.
    /// - Returns: The request.
    /// - Note: Set the handler before the request starts: an attempt that is already running
    ///   reports progress only if a handler was set when it started.
    @preconcurrency
    @discardableResult
    public func downloadProgress(queue: DispatchQueue = .main, closure: @escaping ProgressHandler) -> Self {
        setProgressHandler(\.download, queue: queue, closure: closure)
    }

    private func setProgressHandler(_ direction: WritableKeyPath<ProgressChannels, ProgressChannel?>,
                                    queue: DispatchQueue, closure: @escaping ProgressHandler) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        progressChannel(direction).setHandler(closure, queue: queue)
        return self
    }

    /// The channel of one direction, made on first use.
    private func progressChannel(_ direction: WritableKeyPath<ProgressChannels, ProgressChannel?>) -> ProgressChannel {
        mutableState.withLock { state in
            var channels = state.progress ?? ProgressChannels()
            if let channel = channels[keyPath: direction] { return channel }
            let channel = ProgressChannel()
            channels[keyPath: direction] = channel
            state.progress = channels
            return channel
        }
    }

    /// Sends the closing update, exactly 1.0, to each direction of a request that succeeded,
    /// then calls `next` (which hands out the response handlers). Called once, from `finish`.
    ///
    /// Both updates are queued at once, before `finish` runs its finish hooks (the end of an
    /// event sequence queued after its last event). A handler on `currentQueue` is called
    /// here; one on another queue is called there, and `next` runs after the last of them, on
    /// the queue it ran on: so code that awaits the response (on another queue again) finds
    /// the progress handlers already called with 1.0, as Alamofire's callers do. The main
    /// queue is the exception until it has been seen running: a server that never drains it
    /// would otherwise never see its responses.
    func reportFinalProgress(_ channels: ProgressChannels, metrics: TransferMetrics?, on currentQueue: DispatchQueue?,
                             then next: @escaping @Sendable (_ runningOn: DispatchQueue?) -> Void) {
        var closing: [(ProgressChannel, Int64)] = []
        // No body sent, no upload progress: URLSession reports none for a GET, nor for an
        // empty body.
        if let upload = channels.upload, let sent = metrics?.bytesSent, sent > 0 { closing.append((upload, sent)) }
        if let download = channels.download {
            closing.append((download, (attemptHooks as? DownloadAttempts)?.downloadedSize ?? metrics?.bytesReceived ?? 0))
        }
        guard !closing.isEmpty else { return next(currentQueue) }
        let left = Countdown(closing.count)
        for (channel, completed) in closing {
            channel.finish(completed: completed, inlineOn: currentQueue) { queue in
                if left.tick() { next(queue) }
            }
        }
    }
}

/// The progress channels of one request, `nil` where nothing asked for progress.
struct ProgressChannels: Sendable {
    var upload: ProgressChannel?
    var download: ProgressChannel?

    /// The engine's side of these channels, for one transfer: only directions with a handler
    /// are reported, or with an event (Alamofire's URLSession progress events, which also
    /// hear of the last bytes).
    func transferProgress(uploadEvent: (@Sendable (Int64, Int64) -> Void)? = nil,
                          downloadEvent: (@Sendable (Int64, Int64) -> Void)? = nil) -> TransferProgress? {
        let upload = Self.throttle(upload?.hasHandler == true ? upload : nil, uploadEvent)
        let download = Self.throttle(download?.hasHandler == true ? download : nil, downloadEvent)
        guard upload != nil || download != nil else { return nil }
        return TransferProgress(upload: upload, download: download)
    }

    private static func throttle(_ channel: ProgressChannel?, _ event: (@Sendable (Int64, Int64) -> Void)?) -> ProgressThrottle? {
        switch (channel, event) {
        case (nil, nil):
            return nil
        case let (channel?, nil):
            return ProgressThrottle { completed, total in channel.post(completed: completed, total: total) }
        case let (nil, event?):
            return ProgressThrottle(reportsLast: true, report: event)
        case let (channel?, event?):
            return ProgressThrottle(reportsLast: true) { completed, total in
                // The channel's closing update comes from the request's success.
                if total <= 0 || completed < total { channel.post(completed: completed, total: total) }
                event(completed, total)
            }
        }
    }
}

/// One direction's `Progress` and its handler.
///
/// Two locks: `slot` guards the handler and is never held while user code runs (the loop
/// thread reads it to post an update); `delivery` is held while the `Progress` is brought up
/// to date and the handler called, so updates on a concurrent queue do not overlap and a
/// handler sees a `Progress` no other thread is writing. A handler may set handlers or read
/// either property; only delivering another update from inside a handler would wait on itself,
/// and Salvo never does.
final class ProgressChannel: @unchecked Sendable { // `current` only under `slot`; `object` written only under `delivery`
    private let slot = NSLock()
    private let delivery = NSLock()
    private let object = Progress(totalUnitCount: 0)
    private var current: (handler: Request.ProgressHandler, queue: DispatchQueue)?

    var progress: Progress { object }

    var handler: (handler: Request.ProgressHandler, queue: DispatchQueue)? {
        slot.withLock { current }
    }

    var hasHandler: Bool { handler != nil }

    func setHandler(_ handler: @escaping Request.ProgressHandler, queue: DispatchQueue) {
        if queue.isMainQueue { MainQueueWatch.watch() }
        slot.withLock { current = (handler, queue) }
    }

    /// Hands one update to the handler's queue (from the loop thread).
    func post(completed: Int64, total: Int64) {
        guard let queue = handler?.queue else { return }
        queue.async { self.deliver(completed: completed, total: total) }
    }

    /// The closing update: the total is what was done, so the fraction is exactly 1 (an empty
    /// body counts as one unit of one, for the same reason).
    ///
    /// `next` runs once, told the queue it runs on: at once after an update delivered here (on
    /// `currentQueue`); else after the update, on the handler's queue, or after
    /// `closingWaitLimit` if that queue has not run it by then (a queue its owner blocks while
    /// it waits for the response must not hold the response forever), whichever comes first;
    /// and at once beside the update when that queue is the main queue and the main queue was
    /// never seen running (a server that never drains it).
    func finish(completed: Int64, inlineOn currentQueue: DispatchQueue?,
                then next: @escaping @Sendable (_ runningOn: DispatchQueue?) -> Void) {
        let done = max(completed, 1)
        guard let queue = handler?.queue, queue !== currentQueue else {
            deliver(completed: done, total: done)
            return next(currentQueue)
        }
        guard MainQueueWatch.isDrained || !queue.isMainQueue else {
            queue.async { self.deliver(completed: done, total: done) }
            return next(currentQueue)
        }
        let first = Countdown(1)
        queue.async {
            self.deliver(completed: done, total: done)
            if first.tick() { next(queue) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.closingWaitLimit) {
            if first.tick() { next(nil) }
        }
    }

    /// How long a response waits for its progress handler's queue to run the closing update.
    static let closingWaitLimit = DispatchTimeInterval.milliseconds(100)

    private func deliver(completed: Int64, total: Int64) {
        let handler = self.handler?.handler
        delivery.lock()
        defer { delivery.unlock() }
        object.totalUnitCount = total
        object.completedUnitCount = completed
        handler?(object)
    }
}
