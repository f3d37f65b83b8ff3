import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Request {
    /// What an `onHTTPResponse` handler decides once a response's headers have arrived.
    public enum ResponseDisposition: Sendable {
        /// Go on: receive the body.
        case allow
        /// Cancel the request, as `cancel()` does; the body is not received.
        case cancel
    }
}

extension Request {
    /// Registers an `onHTTPResponse` handler.
    func addHTTPResponseHandler(_ handler: HTTPResponseHandler) -> Self {
        mutableState.withLock { $0.httpResponseHandlers.append(handler) }
        return self
    }

    /// Tells the `onHTTPResponse` handlers (after a stream's validators) of a final response
    /// the engine could not announce while it ran: a redirect the request does not follow,
    /// or a 401/407 with no body, which libcurl might have answered. Runs on the delivery
    /// queue once the transfer has ended; `proceed` runs there when every handler allowed
    /// (or none listens, or validation failed); a `.cancel` cancels the request instead.
    func announceFinalHead(_ head: ResponseHead, on queue: DispatchQueue, proceed: @escaping @Sendable () -> Void) {
        guard head.statusCode >= 200 else { return proceed() }
        if let stream = self as? DataStreamRequest, !stream.streams.validateFinal(head) { return proceed() }
        let handlers = mutableState.withLock { $0.httpResponseHandlers }
        guard !handlers.isEmpty, let response = head.makeHTTPURLResponse() else { return proceed() }
        HTTPResponseHandler.run(handlers, response: response, inlineOn: nil) { disposition in
            switch disposition {
            case .allow: queue.async(execute: proceed)
            case .cancel: self.cancel()
            }
        }
    }
}

/// One `onHTTPResponse` registration: its queue and a handler that answers with a
/// disposition (a handler that takes only the response answers `.allow` once it ran).
///
/// The transfer waits, paused in libcurl, until every handler has answered, as URLSession
/// waits for its delegate: no body byte arrives before the handlers have seen the response,
/// so they also always run before the request completes.
struct HTTPResponseHandler: Sendable {
    typealias Body = @Sendable (HTTPURLResponse, @escaping @Sendable (Request.ResponseDisposition) -> Void) -> Void

    let queue: DispatchQueue
    let body: Body

    /// A handler that only looks at the response.
    init(queue: DispatchQueue, observing handler: @escaping @Sendable (HTTPURLResponse) -> Void) {
        self.queue = queue
        body = { response, completion in
            handler(response)
            completion(.allow)
        }
    }

    /// A handler that decides.
    init(queue: DispatchQueue, deciding body: @escaping Body) {
        self.queue = queue
        self.body = body
    }

    /// An `async` handler that decides, run in a `Task`.
    init(queue: DispatchQueue, decidingAsync handler: @escaping @Sendable (HTTPURLResponse) async -> Request.ResponseDisposition) {
        self.init(queue: queue) { response, completion in
            Task { completion(await handler(response)) }
        }
    }

    /// An `async` handler that only looks at the response, run in a `Task`; the body waits
    /// until it returns.
    init(queue: DispatchQueue, observingAsync handler: @escaping @Sendable (HTTPURLResponse) async -> Void) {
        self.init(queue: queue) { response, completion in
            Task {
                await handler(response)
                completion(.allow)
            }
        }
    }

    /// Calls every handler with `response` on its queue (inline when it is `currentQueue`),
    /// and `decided` once: `.cancel` as soon as one handler says so, `.allow` when all have
    /// allowed. A handler that answers twice counts once.
    static func run(_ handlers: [HTTPResponseHandler], response: HTTPURLResponse, inlineOn currentQueue: DispatchQueue?,
                    decided: @escaping @Sendable (Request.ResponseDisposition) -> Void) {
        let tally = Tally(waiting: handlers.count, decided: decided)
        for (index, handler) in handlers.enumerated() {
            let call: @Sendable () -> Void = {
                handler.body(response) { disposition in tally.answer(index, disposition) }
            }
            if handler.queue === currentQueue { call() } else { handler.queue.async(execute: call) }
        }
    }

    /// Counts the handlers' answers.
    private final class Tally: Sendable {
        private struct State {
            var answered: Set<Int> = []
            var waiting: Int
            var done = false
        }

        private let state: Mutex<State>
        private let decided: @Sendable (Request.ResponseDisposition) -> Void

        init(waiting: Int, decided: @escaping @Sendable (Request.ResponseDisposition) -> Void) {
            state = Mutex(State(waiting: waiting))
            self.decided = decided
        }

        func answer(_ index: Int, _ disposition: Request.ResponseDisposition) {
            let outcome = state.withLock { state -> Request.ResponseDisposition? in
                guard !state.done, state.answered.insert(index).inserted else { return nil }
                state.waiting -= 1
                guard disposition == .cancel || state.waiting == 0 else { return nil }
                state.done = true
                return disposition
            }
            if let outcome { decided(outcome) }
        }
    }
}
