/// The HTTP flavour a dispatch case runs over.
enum BenchProtocol: String, CaseIterable, Codable, Sendable {
    /// HTTP/1.1 keep-alive: one connection per request in flight.
    case h1
    /// HTTP/2 over cleartext with prior knowledge: every stream on one connection.
    case h2c

    var title: String {
        switch self {
        case .h1: "HTTP/1.1"
        case .h2c: "h2c"
        }
    }
}
