import Foundation

/// The clients the tls-connect suite compares, each run in a child process of its own.
enum TLSConnectClient: String, CaseIterable, Codable, Sendable {
    /// The C driver: a new multi handle with one easy handle per request, each with
    /// `CURLOPT_FRESH_CONNECT` (Benchmarks/CurlBaseline/curl_fresh_batch.c).
    case curl
    /// Salvo: a new `Session` per run, `httpMaximumConnectionsPerHost` = the connections at
    /// once, HTTP/1.1 over TLS.
    case salvo

    var title: String {
        switch self {
        case .curl: "libcurl C, fresh connections"
        case .salvo: "Salvo, new Session, HTTP/1.1"
        }
    }

    /// Makes the handles or the session for one run of `count` requests at once. Making
    /// them is not part of what a run measures.
    func makeBatch(url: URL, caFile: String, count: Int) throws -> any FreshConnectionBatch {
        switch self {
        case .curl: try CurlFreshConnections(url: url, caFile: caFile, count: count)
        case .salvo: SalvoFreshConnections(url: url, caFile: caFile, count: count)
        }
    }
}
