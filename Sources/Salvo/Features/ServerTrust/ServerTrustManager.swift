import Foundation
import Synchronization

/// Chooses the `ServerTrustEvaluating` for each host a session connects to over HTTPS.
///
/// ```swift
/// let manager = ServerTrustManager(evaluators: [
///     "api.example.com": PublicKeysTrustEvaluator(keys: [pinnedKeyPEM]),
///     "cdn.example.com": DefaultTrustEvaluator(),
/// ])
/// let session = Session(serverTrustManager: manager)
/// ```
///
/// Plain `http` requests are not evaluated. Each redirect hop to an HTTPS host is evaluated
/// for its own host.
open class ServerTrustManager: @unchecked Sendable { // `let`s of Sendable values and a Mutex; `open` keeps the compiler from checking
    /// Whether every HTTPS host needs an evaluator: a request to a host without one then fails
    /// with `.serverTrustEvaluationFailed(reason: .noRequiredEvaluator(host:))` before anything
    /// is sent. Without it, such a host gets libcurl's default checks.
    public let allHostsMustBeEvaluated: Bool
    /// The evaluators, by host name.
    public let evaluators: [String: any ServerTrustEvaluating]
    /// `evaluators` with their hosts lowercased and without a final dot, as hosts are looked up.
    private let evaluatorsByHost: [String: any ServerTrustEvaluating]
    /// libcurl's settings for requirements seen before: a pin's hash or an anchor's PEM text is
    /// worked out once, not per request.
    let translations = Mutex<[ServerTrustRequirements: TLSTrust]>([:])

    /// Creates a manager that checks each host with the evaluator named for it.
    ///
    /// - Parameters:
    ///   - allHostsMustBeEvaluated: Whether a host without an evaluator fails. `true` by
    ///     default.
    ///   - evaluators: The evaluators, by host name.
    public init(allHostsMustBeEvaluated: Bool = true, evaluators: [String: any ServerTrustEvaluating]) {
        self.allHostsMustBeEvaluated = allHostsMustBeEvaluated
        self.evaluators = evaluators
        evaluatorsByHost = Dictionary(evaluators.map { (ServerTrustEvaluation.normalized($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The evaluator for `host`. Override it to choose evaluators another way (wildcards, for
    /// one).
    ///
    /// - Parameter host: The host, lowercased and without a final dot.
    /// - Returns: The evaluator, or `nil` to leave the host to libcurl's default checks.
    /// - Throws: `AFError.serverTrustEvaluationFailed(reason: .noRequiredEvaluator(host:))`
    ///   when every host must be evaluated and `host` has no evaluator.
    open func serverTrustEvaluator(forHost host: String) throws -> (any ServerTrustEvaluating)? {
        guard let evaluator = evaluatorsByHost[ServerTrustEvaluation.normalized(host)] else {
            if allHostsMustBeEvaluated { throw AFError.serverTrustEvaluationFailed(reason: .noRequiredEvaluator(host: host)) }
            return nil
        }
        return evaluator
    }
}
