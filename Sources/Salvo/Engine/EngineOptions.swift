import Foundation

/// Session-wide settings the engine applies to every transfer: the part of
/// `Session.Configuration` that libcurl needs to know.
struct EngineOptions: Sendable {
    var httpVersion: HTTPVersionPolicy = .automatic
    var connectTimeout: TimeInterval = 60
    var resourceTimeout: TimeInterval = 604_800
    var maximumConnectionsPerHost = 6
    var maximumConnections = 0
    var maximumStreamsPerConnection = 100
    var proxy: String?
    var caBundlePath: String?
    var validatesCertificates = true
    var decompressesResponses = true
    var receiveBufferSize = 0
    /// Keeps a cookie jar for the session (URLSessionConfiguration's `httpShouldSetCookies`).
    var cookies = true
    var verboseLogger: (@Sendable (String) -> Void)?
}
