import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Alamofire's URLSession progress events for one attempt: `didSendBodyData` and, for a
/// download, `didWriteData`, told to a `SessionDelegate` subclass and to the monitors that
/// watch task events, in order on the session's root queue, with `Session.session` and the
/// attempt's task. Made only when one of them exists.
struct TaskProgressEvents {
    let request: Request
    weak var session: Session?
    /// The attempt's first context, which names its task.
    let anchor: ResponseContext
    let queue: DispatchQueue

    /// The byte count last reported, to give each event its increment; read and written on
    /// the loop thread only, by the one throttle that reports to it.
    private final class LastCount: @unchecked Sendable { // loop thread only (see above)
        var value: Int64 = 0
    }

    func uploadEvent() -> @Sendable (Int64, Int64) -> Void {
        reporter { session, task, monitor, sent, completed, total in
            monitor?.urlSession(session.session, task: task, didSendBodyData: sent, totalBytesSent: completed,
                                totalBytesExpectedToSend: total)
            if session.delegateIsSubclass {
                session.delegate.urlSession(session.session, task: task, didSendBodyData: sent, totalBytesSent: completed,
                                            totalBytesExpectedToSend: total)
            }
        }
    }

    /// For a download only: a data request's body has no URLSession counterpart here.
    func downloadEvent() -> (@Sendable (Int64, Int64) -> Void)? {
        guard request is DownloadRequest else { return nil }
        return reporter { session, task, monitor, written, completed, total in
            guard let task = task as? URLSessionDownloadTask else { return }
            monitor?.urlSession(session.session, downloadTask: task, didWriteData: written, totalBytesWritten: completed,
                                totalBytesExpectedToWrite: total)
            if session.delegateIsSubclass {
                session.delegate.urlSession(session.session, downloadTask: task, didWriteData: written, totalBytesWritten: completed,
                                            totalBytesExpectedToWrite: total)
            }
        }
    }

    /// A progress receiver for the engine (loop thread) that hands `tell` the session, the
    /// attempt's task, the monitor if it watches task events, the increment, the count and
    /// the total (-1, URLSession's "not known", for none) on `queue`.
    private func reporter(_ tell: @escaping @Sendable (Session, URLSessionTask, CompositeEventMonitor?, Int64, Int64, Int64) -> Void)
        -> @Sendable (Int64, Int64) -> Void {
        let (request, anchor, queue, last) = (request, anchor, queue, LastCount())
        return { [weak session] completed, total in
            let increment = completed - last.value
            last.value = completed
            let total = total > 0 ? total : -1
            guard let session else { return }
            queue.async {
                tell(session, request.task(for: anchor), request.taskEventMonitor, increment, completed, total)
            }
        }
    }
}
