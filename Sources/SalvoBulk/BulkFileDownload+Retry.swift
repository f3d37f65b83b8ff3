import Foundation

extension BulkFileDownload {
    /// What follows an attempt that failed.
    enum RetryStep {
        /// The retry delay has passed: the same URI again.
        case again
        /// Not retryable, or out of tries: the next URI.
        case nextURI
        /// Cancelled while waiting.
        case cancelled
    }

    /// Decides whether `failure` is tried again on the same URI and, if so, announces the
    /// retry and waits out its delay (`--retry-wait`, or the server's `Retry-After`).
    func retryStep(after failure: BulkAttemptFailure, tries: Int, attempts: Int) async -> RetryStep {
        guard failure.isRetryable, options.maxTries == 0 || tries < options.maxTries else { return .nextURI }
        let delay = BulkRetryRule.delay(afterAttempt: tries, base: options.retryWait, retryAfter: failure.retryAfter)
        onEvent(.retrying(file, attempt: attempts + 1, reason: failure.reason, delay: delay))
        do {
            try await Task.sleep(for: .seconds(delay))
        } catch {
            return .cancelled
        }
        return .again
    }
}
