import Foundation
import Synchronization

/// A stream request's part in each attempt: a sink that feeds chunks to the handlers with
/// a bounded window, and validation when the headers arrive.
///
/// Chunks reach the request's delivery queue in order, then each handler's queue; a
/// handler on the delivery queue runs inline, so that it, like the others, sees every
/// chunk before `.complete`. A chunk's bytes count against the window until every handler
/// has finished with it.
package final class StreamAttempts: AttemptHooks {
    /// Takes a chunk; calls `done` once it has finished with it (at once, or later: an
    /// async consumer calls it when the chunk is taken from its buffer).
    typealias Consumer = @Sendable (_ data: Data, _ done: @escaping @Sendable () -> Void) -> Void
    typealias Validator = @Sendable (ResponseHead, ResponseContext?) -> Request.ValidationResult

    private struct State {
        weak var request: DataStreamRequest?
        var consumers: [(queue: DispatchQueue, consume: Consumer)] = []
        var validators: [Validator] = []
        /// Chunks handed to the consumers that not every consumer has finished with.
        var consuming = 0
        /// What waits for `consuming` to drop to zero (`holdsTransferEnd`).
        var whenConsumed: [@Sendable () -> Void] = []
        /// A consumer went away with chunks it may never release (`consumerGone`).
        var consumerGone = false
    }

    let bufferSize: Int
    private let state = Mutex(State())

    init(bufferSize: Int) {
        self.bufferSize = bufferSize
    }

    func attach(to request: DataStreamRequest) {
        state.withLock { $0.request = request }
    }

    func addConsumer(queue: DispatchQueue, _ consume: @escaping Consumer) {
        state.withLock { $0.consumers.append((queue, consume)) }
    }

    func addValidator(_ validator: @escaping Validator) {
        state.withLock { $0.validators.append(validator) }
    }

    var sendsBodySource: Bool { false }

    /// Runs `resume` once the consumers have finished with every chunk handed to them so far,
    /// and returns `true`; returns `false` when none is outstanding, leaving `resume` unrun.
    ///
    /// The end of a transfer waits here: a handler that cancels the request from a chunk
    /// (a serializer's failure with `automaticallyCancelOnStreamError`, a `for await` loop
    /// that stops after a value) does so before the request decides how it ended, even when
    /// the last bytes and the end of the response came together.
    func holdsTransferEnd(_ resume: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard state.consuming > 0, !state.consumerGone else { return false }
            state.whenConsumed.append(resume)
            return true
        }
    }

    /// A consumer stopped taking chunks (a `for await` loop left, its sequence ended): the
    /// chunks still buffered for it will never be released, so nothing waits for them any
    /// more, and what waited goes now.
    func consumerGone() {
        let waiting = state.withLock { state -> [@Sendable () -> Void] in
            state.consumerGone = true
            defer { state.whenConsumed.removeAll() }
            return state.whenConsumed
        }
        for body in waiting { body() }
    }

    // MARK: AttemptHooks

    func prepare(_ description: TransferDescription, spec: RequestSpec) throws {
        let (request, hasValidators) = state.withLock { ($0.request, !$0.validators.isEmpty) }
        let bufferSize = bufferSize
        description.makeSink = { [weak self] transfer in
            let window = StreamWindow(highWater: bufferSize)
            let queue = transfer.deliveryQueue
            // Weak: the transfer owns its sink, and the sink must not keep the transfer alive.
            return ResponseStreamSink(window: window) { [weak self, weak transfer] data in
                guard let self, let transfer else { return }
                queue.async { self.received(data, window: window, transfer: transfer, on: queue) }
            }
        }
        let responseHandlers = request?.mutableState.withLock { $0.httpResponseHandlers } ?? []
        if hasValidators || !responseHandlers.isEmpty {
            // The transfer waits for the response handlers; a failed validation cancels it.
            let loop = request?.delegate?.loop
            description.holdsForResponse = !responseHandlers.isEmpty && request != nil && loop != nil
            description.headHandler = { [weak self, weak loop] head, transfer in
                guard let self, self.validate(head, transfer: transfer) else { return }
                guard let request, let loop, !responseHandlers.isEmpty else { return }
                let decided = AttemptPipeline.responseDecision(request, transfer, loop)
                let context = request.mutableState.withLock { $0.contexts.last }
                guard let response = context?.response(for: head) ?? head.makeHTTPURLResponse() else { return decided(.allow) }
                // On the delivery queue it runs inline, so it comes before the first chunk there too.
                HTTPResponseHandler.run(responseHandlers, response: response, inlineOn: transfer.deliveryQueue, decided: decided)
            }
        }
    }

    func transferEnded(_ transfer: Transfer, outcome: TransferOutcome) {}

    func redirectNotFollowed(_ transfer: Transfer, on queue: DispatchQueue) {
        guard let sink = transfer.sink as? ResponseStreamSink, let body = sink.takeRedirectBody(), !body.isEmpty else { return }
        // Counted in, as the loop counts a chunk, so its release balances the window.
        sink.window.add(body.count)
        received(body, window: sink.window, transfer: transfer, on: queue)
    }

    func attemptSucceeded(_ request: Request) -> AFError? { nil }

    /// Nothing to drop: the sinks are the transfers', and go with them.
    func requestFinishing(_ request: Request) {}

    // MARK: Delivery (delivery queue)

    private func received(_ data: Data, window: StreamWindow, transfer: Transfer, on currentQueue: DispatchQueue) {
        let (request, consumers) = state.withLock { ($0.request, $0.consumers) }
        // After a failed validation or a cancel, the rest of the body is nobody's.
        guard let request, !consumers.isEmpty, request.error == nil else {
            release(data.count, window: window, transfer: transfer, request: request)
            return
        }
        let remaining = Atomic(consumers.count)
        state.withLock { $0.consuming += 1 }
        let done: @Sendable () -> Void = { [weak self] in
            guard remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0, let self else { return }
            self.release(data.count, window: window, transfer: transfer, request: request)
            let waiting = self.state.withLock { state -> [@Sendable () -> Void] in
                state.consuming -= 1
                guard state.consuming == 0 else { return [] }
                defer { state.whenConsumed.removeAll() }
                return state.whenConsumed
            }
            for body in waiting { body() }
        }
        for (queue, consume) in consumers {
            if queue === currentQueue {
                consume(data, done)
            } else {
                queue.async { consume(data, done) }
            }
        }
    }

    private func release(_ count: Int, window: StreamWindow, transfer: Transfer, request: DataStreamRequest?) {
        if window.release(count) { request?.delegate?.loop.send(.drained(transfer)) }
    }

    /// Validates a final response whose head the engine did not announce (a refused
    /// redirect, a final 401/407 without a body), once its transfer has ended; returns whether
    /// it passed (a failure is the request's error).
    func validateFinal(_ head: ResponseHead) -> Bool {
        validate(head, transfer: nil)
    }

    /// Runs the validators on a response's head; returns whether it passed. A failure stops
    /// `transfer`, when it is still running.
    private func validate(_ head: ResponseHead, transfer: Transfer?) -> Bool {
        let (request, validators) = state.withLock { ($0.request, $0.validators) }
        guard let request else { return false }
        let context = request.mutableState.withLock { $0.contexts.last }
        for validator in validators {
            let result = validator(head, context)
            // The context gets its head only when the transfer ends; a stream is validated as
            // soon as its headers arrive, so the response is built from the head at hand.
            if let monitor = request.monitor, let response = context?.response(for: head) ?? head.makeHTTPURLResponse() {
                monitor.request(request, didValidateRequest: context?.attemptRequest, response: response, withResult: result)
            }
            guard case let .failure(failure) = result else { continue }
            let error = failure.asAFError(or: .responseValidationFailed(reason: .customValidationFailed(error: failure)))
            request.mutableState.withLock { $0.lifecycle.failed(error) }
            // The request completes with the validation error once the transfer stops.
            if let transfer { request.delegate?.loop.send(.cancel(transfer)) }
            return false
        }
        return true
    }
}
