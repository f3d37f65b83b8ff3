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
                let fetch = BulkFetch(transport: transport, headers: headers, makeSink: { wake in
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
}
