/// The HTTP flavour a dispatch case runs over.
enum BenchProtocol: String, CaseIterable, Codable, Sendable {
    /// HTTP/1.1 keep-alive: one connection per request in flight.
    case h1
    /// HTTP/2 over cleartext with prior knowledge: every stream on one connection.
    case h2c
    /// HTTP/1.1 keep-alive over TLS, verified against the bench's own CA.
    case h1s
    /// HTTP/2 over TLS, chosen by ALPN, verified against the bench's own CA. nginx allows
    /// 128 streams on a connection here, so more requests in flight need more connections.
    case h2

    /// What a run does when `--protocols` is not given: the cleartext cases, whose figures
    /// the README quotes; the TLS ones double the suite's time.
    static let defaults: [BenchProtocol] = [.h1, .h2c]

    var title: String {
        switch self {
        case .h1: "HTTP/1.1"
        case .h2c: "h2c"
        case .h1s: "HTTP/1.1 over TLS"
        case .h2: "HTTP/2 over TLS"
        }
    }

    /// Whether the case runs over TLS, on nginx's TLS port.
    var usesTLS: Bool {
        self == .h1s || self == .h2
    }
}
