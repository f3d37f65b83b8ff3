import Foundation

/// Trusts only chains that contain one of the given certificates.
///
/// The certificates (DER or PEM data: `SecCertificate` does not exist on Linux) become the
/// connection's only trust anchors: libcurl accepts a chain that reaches one of them, the
/// server's own certificate included, and checks dates and, unless told otherwise, the host.
/// A chain that reaches none fails with `.certificatePinningFailed`.
public final class PinnedCertificatesTrustEvaluator: ServerTrustEvaluating {
    /// The pinned certificates, DER, as read from the data given.
    public let certificates: [Data]
    private let acceptSelfSignedCertificates: Bool
    private let performDefaultValidation: Bool
    private let validateHost: Bool

    /// Creates an evaluator that trusts only chains leading to the pinned certificates.
    ///
    /// - Parameters:
    ///   - certificates: Certificates as DER, or PEM text holding one or more. Data that is
    ///     not a certificate is left out; with none left, requests fail with
    ///     `.noCertificatesFound`.
    ///   - acceptSelfSignedCertificates: Accepted for Alamofire's signature: a pinned
    ///     self-signed certificate is an anchor here, so it is trusted either way.
    ///   - performDefaultValidation: Accepted for Alamofire's signature: the pinned
    ///     certificates replace the system's anchors, and the chain is always checked against
    ///     them.
    ///   - validateHost: Whether the certificate must name the host. `true` by default.
    public init(certificates: [Data], acceptSelfSignedCertificates: Bool = false, performDefaultValidation: Bool = true,
                validateHost: Bool = true) {
        self.certificates = TrustMaterial.certificates(in: certificates)
        self.acceptSelfSignedCertificates = acceptSelfSignedCertificates
        self.performDefaultValidation = performDefaultValidation
        self.validateHost = validateHost
    }

    /// The pinned certificates as the only anchors.
    /// - Throws: `.serverTrustEvaluationFailed(reason: .noCertificatesFound)` without any.
    public func requirements(forHost host: String) throws -> ServerTrustRequirements {
        guard !certificates.isEmpty else { throw AFError.serverTrustEvaluationFailed(reason: .noCertificatesFound) }
        return ServerTrustRequirements(validatesHost: validateHost, anchorCertificates: certificates)
    }
}
