import Synchronization
import Salvo

/// One attempt's request and its own reason to stop, shared by the task that waits for it
/// (and may be cancelled), its body sink on the loop thread and its head and completion on
/// the session's delivery queue.
final class BulkAttemptControl: Sendable {
    private struct State {
        var request: DataStreamRequest?
        var cancelled = false
        var failure: BulkAttemptFailure?
        var probe: Bool?
        var settled: BulkFileDownload.AttemptOutcome?
    }

    private let state = Mutex(State())

    /// Records the attempt's request; cancels it at once when the task was cancelled first.
    func started(_ request: DataStreamRequest) {
        let cancelled = state.withLock { state -> Bool in
            state.request = request
            return state.cancelled
        }
        if cancelled { request.cancel() }
    }

    /// Forgets the request once it has completed: the request's handlers hold this control,
    /// so keeping the request here would keep both alive.
    func ended() {
        state.withLock { $0.request = nil }
    }

    /// Cancels the attempt (the task was cancelled).
    func cancel() {
        let request = state.withLock { state -> DataStreamRequest? in
            state.cancelled = true
            return state.request
        }
        request?.cancel()
    }

    /// Records why the attempt stops; the first reason wins.
    func fail(_ failure: BulkAttemptFailure) {
        state.withLock { if $0.failure == nil { $0.failure = failure } }
    }

    var failure: BulkAttemptFailure? { state.withLock { $0.failure } }

    /// Records that the response showed the work is elsewhere (`resumable`) or done
    /// (`alreadyComplete`): the attempt ends with that outcome, whatever its transfer says.
    func settle(_ outcome: BulkFileDownload.AttemptOutcome) {
        state.withLock { if $0.settled == nil { $0.settled = outcome } }
    }

    var settled: BulkFileDownload.AttemptOutcome? { state.withLock { $0.settled } }

    /// What a range probe found: `true` when the file was cut into ranges, `false` when it is
    /// to be fetched whole; `nil` before (or when the attempt was no probe).
    var probe: Bool? {
        get { state.withLock { $0.probe } }
        set { state.withLock { $0.probe = newValue } }
    }
    var hasFailed: Bool { state.withLock { $0.failure != nil } }
}
