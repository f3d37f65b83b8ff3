import Synchronization
import Salvo

/// One attempt's fetch and its own reason to stop, shared by the task that waits for it (and
/// may be cancelled) and its head judge and body sink on the loop thread.
final class BulkAttemptControl: Sendable {
    private struct State {
        var fetch: BulkFetch?
        var cancelled = false
        var failure: BulkAttemptFailure?
        var probe: Bool?
        var settled: BulkFileDownload.AttemptOutcome?
    }

    private let state = Mutex(State())

    /// Records the attempt's fetch; cancels it at once when the task was cancelled first.
    func started(_ fetch: BulkFetch) {
        let cancelled = state.withLock { state -> Bool in
            state.fetch = fetch
            return state.cancelled
        }
        if cancelled { fetch.cancel() }
    }

    /// Forgets the fetch once it has ended: its completion holds this control, so keeping
    /// the fetch here would keep both alive.
    func ended() {
        state.withLock { $0.fetch = nil }
    }

    /// Cancels the attempt (the task was cancelled).
    func cancel() {
        let fetch = state.withLock { state -> BulkFetch? in
            state.cancelled = true
            return state.fetch
        }
        fetch?.cancel()
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
