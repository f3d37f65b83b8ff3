import Foundation
import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Salvo session both Salvo clients use, set up as a server would set it up.
enum SalvoSessionFactory {
    /// - Parameters:
    ///   - protocol: HTTP/1.1 with one connection per request in flight, or h2c, or either over
    ///     TLS.
    ///   - inflight: Requests in flight.
    ///   - responseQueue: Where handlers run.
    ///   - caFile: The CA certificates a TLS case verifies against.
    ///   - defaultHeaders: Whether requests carry Alamofire's default headers (`Accept-Encoding`,
    ///     `Accept-Language`, `User-Agent`). Without them, and without response decoding (with
    ///     it libcurl adds an `Accept-Encoding` line of its own), Salvo sends the bytes the bare
    ///     C drivers send.
    static func make(protocol: BenchProtocol, inflight: Int, responseQueue: DispatchQueue, caFile: String?,
                     defaultHeaders: Bool = true) -> Session {
        let configuration = URLSessionConfiguration.af.default
        if !defaultHeaders { configuration.headers = HTTPHeaders() }
        let transport: TransportConfiguration
        switch `protocol` {
        case .h1:
            configuration.httpMaximumConnectionsPerHost = inflight
            transport = TransportConfiguration(httpVersion: .http1_1, decompressesResponses: defaultHeaders)
        case .h2c:
            transport = TransportConfiguration(httpVersion: .http2PriorKnowledge, decompressesResponses: defaultHeaders)
        case .h1s:
            configuration.httpMaximumConnectionsPerHost = inflight
            transport = TransportConfiguration(httpVersion: .http1_1, caBundlePath: caFile, decompressesResponses: defaultHeaders)
        case .h2:
            // As an application sets it up when it cannot know whether the server's ALPN
            // will say h2: enough connections for HTTP/1.1 too.
            configuration.httpMaximumConnectionsPerHost = inflight
            transport = TransportConfiguration(httpVersion: .automatic, caBundlePath: caFile, decompressesResponses: defaultHeaders)
        }
        return Session(configuration: configuration, transport: transport, responseQueue: responseQueue)
    }
}
