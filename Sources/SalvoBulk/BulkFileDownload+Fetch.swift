import Foundation
import Salvo
import SalvoEngine

extension BulkFileDownload {
    /// Sends one GET for the file and waits for it to end.
    ///
    /// A 2xx answer's head goes to `judge` before any of its body (`true` takes the body): on
    /// the loop thread, or with `judgesOffTheLoop` on the file's queue (a judge that claims
    /// names on the disk), the body waiting paused meanwhile while the loop serves the other
    /// files. The body then goes to `consume` on the loop thread, paced by the run's rate
    /// budget. Cancelling the task cancels the fetch. Whatever `judge` or `consume` record in
    /// `control` is theirs to read afterwards: the ending says only what the transfer did.
    func fetch(_ uri: URL, headers: HTTPHeaders, control: BulkAttemptControl, judgesOffTheLoop: Bool = false,
               judge: @escaping PacedBodySink.Judge, consume: @escaping PacedBodySink.Consume) async -> BulkFetch.Ending {
        let budget = budget
        let queue = queue
        var later: PacedBodySink.DeferredJudge?
        if judgesOffTheLoop {
            later = { (head: ResponseHead, decided: @escaping @Sendable (Bool) -> Void) in
                control.judgingBegan()
                queue.async {
                    let take = judge(head)
                    control.judgingEnded()
                    decided(take)
                }
            }
        }
        let deferred = later
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<BulkFetch.Ending, Never>) in
                let fetch = BulkFetch(transport: transport, headers: headers, makeSink: { wake in
                    if let deferred { return PacedBodySink(pay: budget?.pay, wake: wake, onHeadLater: deferred, consume) }
                    return PacedBodySink(pay: budget?.pay, wake: wake, onHead: judge, consume)
                }, completion: { ending in
                    control.ended()
                    control.afterJudging { continuation.resume(returning: ending) }
                })
                control.started(fetch)
                fetch.start(uri)
            }
        } onCancel: {
            control.cancel()
        }
    }
}
