import Foundation

/// No checks at all: any certificate, for any host, is accepted.
///
/// - Warning: For development against servers with throw-away certificates only: anyone on
///   the path can read and change the traffic.
public final class DisabledTrustEvaluator: ServerTrustEvaluating {
    /// Creates the evaluator.
    public init() {}

    /// Neither the chain nor the host is checked.
    public func requirements(forHost host: String) throws -> ServerTrustRequirements {
        ServerTrustRequirements(validatesChain: false, validatesHost: false)
    }
}

/// Alamofire's earlier name for `DisabledTrustEvaluator`.
@available(*, deprecated, renamed: "DisabledTrustEvaluator")
public typealias DisabledEvaluator = DisabledTrustEvaluator
