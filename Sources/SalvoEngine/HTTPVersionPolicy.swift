/// Which HTTP versions a `Session` asks libcurl to speak.
public enum HTTPVersionPolicy: Sendable, Equatable {
    /// HTTP/2 over TLS where the server offers it by ALPN, HTTP/1.1 otherwise, and
    /// HTTP/1.1 over cleartext. The default.
    case automatic
    /// HTTP/1.1 only.
    case http1_1
    /// HTTP/2 with prior knowledge over cleartext (h2c), and by ALPN over TLS. Use it only
    /// with servers known to speak h2c.
    case http2PriorKnowledge
}
