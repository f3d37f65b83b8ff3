/// The CA certificates the tls-connect clients verify against, one case each.
enum TLSConnectBundle: String, CaseIterable, Codable, Sendable {
    /// The bench's CA alone: one certificate to load.
    case privateCA = "private"
    /// The system's bundle (libcurl's built-in `CURLOPT_CAINFO`, some 140 certificates) with
    /// the bench's CA appended: what a program that trusts the system's CAs loads, and the
    /// cost libcurl 7.88 pays on every new connection.
    case system

    var title: String {
        switch self {
        case .privateCA: "the bench's CA alone"
        case .system: "the system's bundle + the bench's CA"
        }
    }
}
