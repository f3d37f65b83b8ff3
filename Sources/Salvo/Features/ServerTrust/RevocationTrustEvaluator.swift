import Foundation

/// The default checks, plus proof that the certificate has not been revoked.
///
/// libcurl checks revocation by the OCSP response the server staples to its handshake
/// (`CURLOPT_SSL_VERIFYSTATUS`): a server that staples none, or one that reports the
/// certificate revoked, fails the request with `.revocationCheckFailed`. libcurl fetches no
/// CRL and asks no OCSP responder itself, so the options only record what was asked for.
public final class RevocationTrustEvaluator: ServerTrustEvaluating {
    /// Alamofire's revocation options. libcurl acts on none of them beyond requiring a good
    /// stapled OCSP response; they are reported in `revocationCheckFailed`.
    public struct Options: OptionSet, Sendable, Hashable {
        /// The option bits.
        public let rawValue: UInt

        /// Creates options from their bits.
        ///
        /// - Parameter rawValue: The bits, as the static members define them.
        public init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        /// Check CRLs.
        public static let crl = Options(rawValue: 1 << 0)
        /// Check without fetching anything.
        public static let networkAccessDisabled = Options(rawValue: 1 << 1)
        /// Check OCSP.
        public static let ocsp = Options(rawValue: 1 << 2)
        /// Prefer CRLs to OCSP.
        public static let preferCRL = Options(rawValue: 1 << 3)
        /// Require a positive answer.
        public static let requirePositiveResponse = Options(rawValue: 1 << 4)
        /// `[.crl, .ocsp]`, Alamofire's default.
        public static let revocationCheck: Options = [.crl, .ocsp]
    }

    private let performDefaultValidation: Bool
    private let validateHost: Bool
    private let options: Options

    /// Creates an evaluator that also requires a good stapled OCSP response.
    ///
    /// - Parameters:
    ///   - performDefaultValidation: Whether the chain must also lead to a trusted anchor.
    ///     `true` by default.
    ///   - validateHost: Whether the certificate must name the host. `true` by default.
    ///   - options: What was asked for. `.revocationCheck` by default.
    public init(performDefaultValidation: Bool = true, validateHost: Bool = true, options: Options = .revocationCheck) {
        self.performDefaultValidation = performDefaultValidation
        self.validateHost = validateHost
        self.options = options
    }

    /// A good stapled OCSP response, with the default checks when asked for.
    public func requirements(forHost host: String) throws -> ServerTrustRequirements {
        ServerTrustRequirements(validatesChain: performDefaultValidation, validatesHost: validateHost,
                                requiresStapledOCSPResponse: true, revocationOptions: options)
    }
}
