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
        let (request, anchor, queue, last) = (request, anchor, queue, LastCount())
        return { [weak session] completed, total in
            let sent = completed - last.value
            last.value = completed
            // URLSession's way of saying the size is not known.
            let total = total > 0 ? total : -1
            guard let session else { return }
            queue.async {
                let task = request.task(for: anchor)
                if let monitor = request.monitor, monitor.sendsTaskEvents {
                    monitor.urlSession(session.session, task: task, didSendBodyData: sent, totalBytesSent: completed,
                                       totalBytesExpectedToSend: total)
                }
                if session.delegateIsSubclass {
                    session.delegate.urlSession(session.session, task: task, didSendBodyData: sent, totalBytesSent: completed,
                                                totalBytesExpectedToSend: total)
                }
            }
        }
    }

    /// For a download only: a data request's body has no URLSession counterpart here.
    func downloadEvent() -> (@Sendable (Int64, Int64) -> Void)? {
        guard request is DownloadRequest else { return nil }
        let (request, anchor, queue, last) = (request, anchor, queue, LastCount())
        return { [weak session] completed, total in
            let written = completed - last.value
            last.value = completed
            let total = total > 0 ? total : -1
            guard let session else { return }
            queue.async {
                guard let task = request.task(for: anchor) as? URLSessionDownloadTask else { return }
                if let monitor = request.monitor, monitor.sendsTaskEvents {
                    monitor.urlSession(session.session, downloadTask: task, didWriteData: written, totalBytesWritten: completed,
                                       totalBytesExpectedToWrite: total)
                }
                if session.delegateIsSubclass {
                    session.delegate.urlSession(session.session, downloadTask: task, didWriteData: written, totalBytesWritten: completed,
                                                totalBytesExpectedToWrite: total)
                }
            }
        }
    }
}
