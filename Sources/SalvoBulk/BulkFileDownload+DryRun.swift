import Foundation
import Synchronization
import Salvo

extension BulkFileDownload {
    /// Checks that the file can be fetched, writing nothing (`dryRun`): each URI is asked
    /// with the GET a download would send (a HEAD is refused by some servers that serve the
    /// GET, such as presigned links), and the transfer is dropped once a 2xx head arrives.
    /// Failures are retried and mirrors tried as for a download; the result is `succeeded`
    /// with no path, or `failed`.
    func check(since started: ContinuousClock.Instant) async -> BulkDownloader.FileResult {
        var attempts = 0
        var lastURI: URL?
        var lastFailure = "no URI to try"
        uris: for uri in file.entry.uris {
            var tries = 0
            while true {
                if Task.isCancelled { return result(.cancelled, url: lastURI, path: nil, sha256: nil, attempts: attempts, since: started) }
                tries += 1
                attempts += 1
                lastURI = uri
                let answered = Mutex(false)
                let ending = await fetch(uri, headers: requestHeaders(), control: BulkAttemptControl(), judge: { _ in
                    answered.withLock { $0 = true }
                    return false
                }, consume: { _ in false })
                let failure: BulkAttemptFailure
                if answered.withLock({ $0 }) {
                    return result(.succeeded, url: uri, path: nil, sha256: nil, attempts: attempts, since: started)
                }
                switch ending {
                case .answered:
                    return result(.succeeded, url: uri, path: nil, sha256: nil, attempts: attempts, since: started)
                case .cancelled:
                    return result(.cancelled, url: uri, path: nil, sha256: nil, attempts: attempts, since: started)
                case let .failed(reason):
                    failure = reason
                case let .refused(response):
                    failure = BulkRetryRule.failure(for: response)
                }
                lastFailure = failure.reason
                switch await retryStep(after: failure, tries: tries, attempts: attempts) {
                case .again: continue
                case .nextURI: continue uris
                case .cancelled: return result(.cancelled, url: uri, path: nil, sha256: nil, attempts: attempts, since: started)
                }
            }
        }
        let reason = attempts > 1 ? "\(lastFailure) (after \(attempts) attempts)" : lastFailure
        return result(.failed(reason: reason), url: lastURI, path: nil, sha256: nil, attempts: attempts, since: started)
    }
}
