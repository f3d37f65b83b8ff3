import Foundation

/// The usual checks: the certificate chain leads to a trusted anchor (the session's CA bundle
/// or the system's) and, unless told otherwise, names the host.
public final class DefaultTrustEvaluator: ServerTrustEvaluating {
    private let validateHost: Bool

    /// Creates an evaluator that makes libcurl's usual checks.
    ///
    /// - Parameter validateHost: Whether the certificate must name the host. `true` by default.
    public init(validateHost: Bool = true) {
        self.validateHost = validateHost
    }

    /// A trusted chain, and the host when `validateHost`.
    public func requirements(forHost host: String) throws -> ServerTrustRequirements {
        ServerTrustRequirements(validatesHost: validateHost)
    }
}
