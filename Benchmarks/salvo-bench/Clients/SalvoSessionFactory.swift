import Foundation
import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Salvo session both Salvo clients use, set up as a server would set it up.
enum SalvoSessionFactory {
    /// - Parameters:
    ///   - protocol: HTTP/1.1 with one connection per request in flight, or h2c.
    ///   - inflight: Requests in flight.
    ///   - responseQueue: Where handlers run.
    ///   - defaultHeaders: Whether requests carry Alamofire's default headers (`Accept-Encoding`,
    ///     `Accept-Language`, `User-Agent`). Without them, and without response decoding (with
    ///     it libcurl adds an `Accept-Encoding` line of its own), Salvo sends the bytes the bare
    ///     C drivers send.
    static func make(protocol: BenchProtocol, inflight: Int, responseQueue: DispatchQueue,
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
        }
        return Session(configuration: configuration, transport: transport, responseQueue: responseQueue)
    }
}
