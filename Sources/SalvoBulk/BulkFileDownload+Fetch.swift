import Foundation
import Salvo
import SalvoEngine

extension BulkFileDownload {
    /// Sends one GET for the file and waits for it to end.
    ///
    /// A 2xx answer's head goes to `judge` on the loop thread before any of its body (`true`
    /// takes the body); the body then goes to `consume` there too, paced by the run's rate
    /// budget. Cancelling the task cancels the fetch. Whatever `judge` or `consume` record in
    /// `control` is theirs to read afterwards: the ending says only what the transfer did.
    func fetch(_ uri: URL, headers: HTTPHeaders, control: BulkAttemptControl, judge: @escaping PacedBodySink.Judge,
               consume: @escaping PacedBodySink.Consume) async -> BulkFetch.Ending {
        let budget = budget
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<BulkFetch.Ending, Never>) in
                let fetch = BulkFetch(transport: transport, headers: headers, policy: requestPolicy, makeSink: { wake in
                    PacedBodySink(pay: budget?.pay, wake: wake, onHead: judge, consume)
                }, completion: { ending in
                    control.ended()
                    continuation.resume(returning: ending)
                })
                control.started(fetch)
                fetch.start(uri)
            }
        } onCancel: {
            control.cancel()
        }
    }

    /// What a fetch that brought no body means for its attempt: cancelled, failed, or refused
    /// (a 416 as `on416` decides, when it does, else the status's retry rule); `nil` for an
    /// answer, whose body the caller checks.
    func outcome(withoutBody ending: BulkFetch.Ending, on416: () -> AttemptOutcome?) -> AttemptOutcome? {
        switch ending {
        case .answered:
            return nil
        case .cancelled:
            return .cancelled
        case let .failed(failure):
            return .failed(failure)
        case let .refused(response):
            if response.statusCode == 416, let decided = on416() { return decided }
            return .failed(BulkRetryRule.failure(for: response))
        }
    }
}
