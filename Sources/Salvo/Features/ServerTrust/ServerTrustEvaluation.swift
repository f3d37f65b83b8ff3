import Foundation

/// The session's side of server trust: the libcurl settings for a request's host before it is
/// sent, and the `AFError` for a handshake that failed them.
enum ServerTrustEvaluation {
    /// libcurl's settings for `host`, or `nil` for libcurl's default checks.
    /// - Throws: The `AFError` that fails the request before anything is sent.
    static func tlsTrust(forHost host: String, manager: ServerTrustManager) throws(AFError) -> TLSTrust? {
        let host = normalized(host)
        let requirements: ServerTrustRequirements
        do {
            guard let evaluator = try manager.serverTrustEvaluator(forHost: host) else { return nil }
            requirements = try evaluator.requirements(forHost: host)
        } catch {
            throw error.asAFError(or: .serverTrustEvaluationFailed(reason: .customEvaluationFailed(error: error)))
        }
        if let known = manager.translations.withLock({ $0[requirements] }) { return known }
        let asksForMore = requirements.anchorCertificates != nil || requirements.pinnedPublicKeys != nil
            || requirements.requiresStapledOCSPResponse
        guard !asksForMore || CurlVersion.current.enforcesTLSTrust else {
            throw .serverTrustEvaluationFailed(reason: .customEvaluationFailed(error: UnenforceableTrust(libcurl: CurlVersion.current.version)))
        }
        let trust = TLSTrust(verifiesChain: requirements.validatesChain, verifiesHost: requirements.validatesHost,
                             anchorsPEM: requirements.anchorCertificates.map(TrustMaterial.pem(of:)),
                             pinnedPublicKeys: requirements.pinnedPublicKeys.map(TrustMaterial.pins(of:)),
                             requiresStapledStatus: requirements.requiresStapledOCSPResponse)
        manager.translations.withLock { known in
            if known.count >= 64 { known.removeAll() }
            known[requirements] = trust
        }
        return trust
    }

    /// The trust failure a handshake under `trust` ended in, or `nil` when `error` is not one.
    static func failure(_ error: CurlError, host: String, trust: TLSTrust, manager: ServerTrustManager) -> AFError? {
        let host = normalized(host)
        let requirements = (try? manager.serverTrustEvaluator(forHost: host)).flatMap { try? $0?.requirements(forHost: host) }
        let output = AFError.ServerTrustFailureReason.Output(host: host, error: error)
        switch error.code {
        case CurlError.pinnedKeyMismatch:
            return .serverTrustEvaluationFailed(reason: .publicKeyPinningFailed(host: host, pinnedKeys: requirements?.pinnedPublicKeys ?? []))
        case CurlError.certificateStatusInvalid:
            return .serverTrustEvaluationFailed(reason: .revocationCheckFailed(output: output, options: requirements?.revocationOptions ?? .revocationCheck))
        case CurlError.peerVerificationFailed:
            // libcurl's text for a certificate that does not name the host.
            if error.message.contains("does not match target host") || error.message.contains("subject name matches target host") {
                return .serverTrustEvaluationFailed(reason: .hostValidationFailed(output: output))
            }
            if trust.anchorsPEM != nil {
                return .serverTrustEvaluationFailed(reason: .certificatePinningFailed(host: host, pinnedCertificates: requirements?.anchorCertificates ?? []))
            }
            return .serverTrustEvaluationFailed(reason: .defaultEvaluationFailed(output: output))
        default:
            return nil
        }
    }
}

extension ServerTrustEvaluation {
    /// A host as evaluators are looked up by: DNS names ignore case and a final dot, so
    /// `API.Example.com.` is `api.example.com` and gets its evaluator, not the default checks.
    static func normalized(_ host: String) -> String {
        let lowered = host.lowercased()
        return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
    }
}

/// The libcurl in the process cannot enforce what the evaluator asks for, so nothing is sent.
struct UnenforceableTrust: Error, CustomStringConvertible {
    let libcurl: String
    var description: String {
        "libcurl \(libcurl) cannot enforce pinned certificates, pinned keys or stapled OCSP checks (7.77 or later with OpenSSL can)"
    }
}
