import Foundation

/// Decides how a server's certificate is checked for one host.
///
/// Alamofire's evaluators inspect a `SecTrust` after the handshake; Security does not exist on
/// Linux, and libcurl checks the certificate during the handshake. So an evaluator here states
/// its checks as `ServerTrustRequirements`, which libcurl then enforces, and a failed check
/// fails the request with `AFError.serverTrustEvaluationFailed`.
public protocol ServerTrustEvaluating: Sendable {
    /// The checks the connection to `host` must pass.
    ///
    /// - Parameter host: The host being connected to, as in the request's URL.
    /// - Returns: The checks.
    /// - Throws: Any error, to fail the request before anything is sent: an `AFError` as it
    ///   is, any other error wrapped in `.serverTrustEvaluationFailed(reason:
    ///   .customEvaluationFailed(error:))`.
    func requirements(forHost host: String) throws -> ServerTrustRequirements
}

/// What libcurl must check of a server's certificate.
public struct ServerTrustRequirements: Sendable, Hashable {
    /// Whether the certificate chain must lead to a trusted anchor: the session's CA bundle or
    /// the system's, or `anchorCertificates` when set. `true` by default.
    public var validatesChain: Bool
    /// Whether the certificate must name the host. `true` by default.
    public var validatesHost: Bool
    /// When set, the only anchors the chain may lead to (DER certificates). libcurl accepts a
    /// chain that reaches any of them, also when it is not a root.
    public var anchorCertificates: [Data]?
    /// When set, the public keys (DER SubjectPublicKeyInfo) one of which the server's own
    /// certificate must carry.
    public var pinnedPublicKeys: [Data]?
    /// Whether the server must staple an OCSP response that vouches for its certificate.
    public var requiresStapledOCSPResponse: Bool
    /// The revocation options asked for, reported in `revocationCheckFailed`.
    public var revocationOptions: RevocationTrustEvaluator.Options?

    /// The default checks: a trusted chain that names the host.
    public init(validatesChain: Bool = true, validatesHost: Bool = true, anchorCertificates: [Data]? = nil,
                pinnedPublicKeys: [Data]? = nil, requiresStapledOCSPResponse: Bool = false,
                revocationOptions: RevocationTrustEvaluator.Options? = nil) {
        self.validatesChain = validatesChain
        self.validatesHost = validatesHost
        self.anchorCertificates = anchorCertificates
        self.pinnedPublicKeys = pinnedPublicKeys
        self.requiresStapledOCSPResponse = requiresStapledOCSPResponse
        self.revocationOptions = revocationOptions
    }

    /// Both sets of checks: every check either asks for, anchors and pinned keys joined.
    public func combined(with other: ServerTrustRequirements) -> ServerTrustRequirements {
        ServerTrustRequirements(
            validatesChain: validatesChain || other.validatesChain,
            validatesHost: validatesHost || other.validatesHost,
            anchorCertificates: Self.join(anchorCertificates, other.anchorCertificates),
            pinnedPublicKeys: Self.join(pinnedPublicKeys, other.pinnedPublicKeys),
            requiresStapledOCSPResponse: requiresStapledOCSPResponse || other.requiresStapledOCSPResponse,
            revocationOptions: revocationOptions.map { $0.union(other.revocationOptions ?? []) } ?? other.revocationOptions
        )
    }

    private static func join(_ first: [Data]?, _ second: [Data]?) -> [Data]? {
        guard let first else { return second }
        guard let second else { return first }
        return first + second
    }
}
