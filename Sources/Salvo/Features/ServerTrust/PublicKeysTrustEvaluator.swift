import Foundation

/// Trusts only a server whose certificate carries one of the given public keys.
///
/// libcurl compares the server's own certificate's key (`CURLOPT_PINNEDPUBLICKEY`, by its
/// SHA-256); Alamofire accepts a key anywhere in the chain, so pin the server's key rather
/// than an issuer's. A key that does not match fails with `.publicKeyPinningFailed`.
public final class PublicKeysTrustEvaluator: ServerTrustEvaluating {
    /// The pinned keys, DER SubjectPublicKeyInfo, as read from the data given.
    public let keys: [Data]
    private let performDefaultValidation: Bool
    private let validateHost: Bool

    /// Creates an evaluator that requires the server's certificate to hold a pinned key.
    ///
    /// - Parameters:
    ///   - keys: Public keys (DER SubjectPublicKeyInfo, or PEM `PUBLIC KEY` blocks) or
    ///     certificates (DER or PEM) whose keys to pin (`SecKey` does not exist on Linux).
    ///     Data that is neither is left out; with no key left, requests fail with
    ///     `.noPublicKeysFound`.
    ///   - performDefaultValidation: Whether the chain must also lead to a trusted anchor.
    ///     `true` by default.
    ///   - validateHost: Whether the certificate must name the host. `true` by default.
    public init(keys: [Data], performDefaultValidation: Bool = true, validateHost: Bool = true) {
        self.keys = TrustMaterial.publicKeys(in: keys)
        self.performDefaultValidation = performDefaultValidation
        self.validateHost = validateHost
    }

    /// The pinned keys, with the default checks when asked for.
    /// - Throws: `.serverTrustEvaluationFailed(reason: .noPublicKeysFound)` without any.
    public func requirements(forHost host: String) throws -> ServerTrustRequirements {
        guard !keys.isEmpty else { throw AFError.serverTrustEvaluationFailed(reason: .noPublicKeysFound) }
        return ServerTrustRequirements(validatesChain: performDefaultValidation, validatesHost: validateHost,
                                       pinnedPublicKeys: keys)
    }
}
