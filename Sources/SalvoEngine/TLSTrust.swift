import Foundation

/// What libcurl checks of a server's certificate for one transfer, when the request layer's
/// server trust evaluation asks for more or less than the session's defaults.
///
/// A transfer with a `TLSTrust` is always configured in full (never the reused-handle fast
/// path), and libcurl keeps a connection for reuse only by transfers whose TLS settings match
/// (its `ssl_config_matches`), so a connection verified one way never serves a transfer that
/// asks for another.
package struct TLSTrust: Sendable, Equatable {
    /// Whether the chain must lead to a trusted anchor (`CURLOPT_SSL_VERIFYPEER`).
    package var verifiesChain: Bool
    /// Whether the certificate must name the host (`CURLOPT_SSL_VERIFYHOST` 2).
    package var verifiesHost: Bool
    /// PEM text of the only anchors to trust (`CURLOPT_CAINFO_BLOB`, with the file and
    /// directory unset); `nil`: the session's CA bundle or the system's.
    package var anchorsPEM: String?
    /// `sha256//...;sha256//...` for `CURLOPT_PINNEDPUBLICKEY`; `nil`: no pinning.
    package var pinnedPublicKeys: String?
    /// Whether a stapled OCSP response must vouch for the certificate
    /// (`CURLOPT_SSL_VERIFYSTATUS`).
    package var requiresStapledStatus: Bool

    package init(verifiesChain: Bool, verifiesHost: Bool, anchorsPEM: String?, pinnedPublicKeys: String?, requiresStapledStatus: Bool) {
        self.verifiesChain = verifiesChain
        self.verifiesHost = verifiesHost
        self.anchorsPEM = anchorsPEM
        self.pinnedPublicKeys = pinnedPublicKeys
        self.requiresStapledStatus = requiresStapledStatus
    }
}
