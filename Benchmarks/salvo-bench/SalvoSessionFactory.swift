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
    static func make(protocol: BenchProtocol, inflight: Int, responseQueue: DispatchQueue) -> Session {
        let configuration = URLSessionConfiguration.af.default
        let transport: TransportConfiguration
        switch `protocol` {
        case .h1:
            configuration.httpMaximumConnectionsPerHost = inflight
            transport = TransportConfiguration(httpVersion: .http1_1)
        case .h2c:
            transport = TransportConfiguration(httpVersion: .http2PriorKnowledge)
        }
        return Session(configuration: configuration, transport: transport, responseQueue: responseQueue)
    }
}
