import Foundation

/// Every check of several evaluators at once.
///
/// The requirements are combined (`ServerTrustRequirements.combined(with:)`): a check any
/// evaluator asks for is made. Two pinning evaluators pin the union of their certificates or
/// keys, which libcurl can enforce, rather than demand one of each.
public final class CompositeTrustEvaluator: ServerTrustEvaluating {
    private let evaluators: [any ServerTrustEvaluating]

    /// Creates an evaluator that makes every check the given evaluators ask for.
    ///
    /// - Parameter evaluators: The evaluators; the first error any throws fails the request.
    public init(evaluators: [any ServerTrustEvaluating]) {
        self.evaluators = evaluators
    }

    /// The combined requirements.
    public func requirements(forHost host: String) throws -> ServerTrustRequirements {
        var combined: ServerTrustRequirements?
        for evaluator in evaluators {
            let next = try evaluator.requirements(forHost: host)
            combined = combined.map { $0.combined(with: next) } ?? next
        }
        return combined ?? ServerTrustRequirements()
    }
}
