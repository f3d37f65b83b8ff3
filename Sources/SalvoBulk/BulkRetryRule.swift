import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoEngine

/// Why one attempt at a file failed, and what to do about it.
struct BulkAttemptFailure: Error, Sendable {
    /// A sentence for people: `HTTP 503`, `timed out`, `sha-256 mismatch: …`.
    var reason: String
    /// Whether another attempt at the same URI may succeed.
    var isRetryable: Bool
    /// The seconds the server asked for with `Retry-After` (429 and 503 only).
    var retryAfter: TimeInterval?
    /// Whether the bytes kept so far must go: the next attempt asks for the whole file.
    var restartsFromZero = false
}

/// Which failures are retried, and how long to wait before the next attempt.
enum BulkRetryRule {
    /// Statuses worth another attempt: the server was busy, slow or failed in passing.
    static let retriedStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// Statuses whose `Retry-After` is honoured.
    static let retryAfterStatusCodes: Set<Int> = [429, 503]

    /// The longest wait between attempts, whatever the back-off or the server asks: a
    /// `Retry-After` of a day would otherwise park a slot of the run for a day.
    static let maximumDelay: TimeInterval = 600

    /// Transport errors that another attempt would meet again: a bad URL, TLS trust, too
    /// many redirects, a body that cannot be decoded, a local file that cannot be written.
    static let permanentURLErrors: Set<URLError.Code> = [
        .badURL, .unsupportedURL, .httpTooManyRedirects, .redirectToNonExistentLocation,
        .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot,
        .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired,
        .cannotDecodeContentData, .cannotDecodeRawData, .cannotCreateFile, .cannotWriteToFile,
        .noPermissionsToReadFile, .userAuthenticationRequired, .dataLengthExceedsMaximum,
    ]

    /// The failure a transfer's error stands for: retried unless URLSession would call it
    /// permanent (`permanentURLErrors`).
    static func failure(for error: CurlError) -> BulkAttemptFailure {
        let code = CurlError.urlErrorCode(for: error.code, message: error.message)
        return BulkAttemptFailure(reason: error.message.isEmpty ? "\(code)" : error.message,
                                  isRetryable: !permanentURLErrors.contains(code))
    }

    /// The failure a final answer outside 2xx stands for, with its `Retry-After`.
    static func failure(for refused: ResponseHead) -> BulkAttemptFailure {
        failure(forStatus: refused.statusCode, retryAfter: refused.value(forHeader: "Retry-After"))
    }

    /// The failure a non-2xx final status stands for.
    static func failure(forStatus code: Int, retryAfter: String?) -> BulkAttemptFailure {
        let reason = "HTTP \(code) \(HTTPURLResponse.localizedString(forStatusCode: code))"
        guard retriedStatusCodes.contains(code) else { return BulkAttemptFailure(reason: reason, isRetryable: false) }
        let wait = retryAfterStatusCodes.contains(code) ? retryAfter.flatMap(seconds(ofRetryAfter:)) : nil
        return BulkAttemptFailure(reason: reason, isRetryable: true, retryAfter: wait)
    }

    /// The seconds of a `Retry-After` value: delay-seconds, or an HTTP date (the seconds until
    /// it, at least 0); `nil` when it is neither.
    static func seconds(ofRetryAfter value: String) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return min(TimeInterval(text) ?? maximumDelay, maximumDelay)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        return min(max(0, date.timeIntervalSinceNow), maximumDelay)
    }

    /// The wait before attempt `attempt + 1` at a URI, after `attempt` attempts failed.
    ///
    /// Exponential back-off with equal jitter: `base × 2^(attempt − 1)`, capped at
    /// `maximumDelay`, of which the second half is random, so that files failing together do
    /// not come back together. A server's `Retry-After` wins when it is given.
    ///
    /// - Parameters:
    ///   - attempt: The attempts made so far at this URI, 1 or more.
    ///   - base: The retry wait base in seconds; 0 retries at once.
    ///   - retryAfter: The seconds the server asked for, if it did.
    static func delay(afterAttempt attempt: Int, base: TimeInterval, retryAfter: TimeInterval?) -> TimeInterval {
        if let retryAfter { return min(max(0, retryAfter), maximumDelay) }
        guard base > 0 else { return 0 }
        let exponent = min(max(0, attempt - 1), 30)
        let full = min(base * Double(1 << exponent), maximumDelay)
        return full / 2 + Double.random(in: 0...(full / 2))
    }
}
