import Foundation
import Salvo
import SalvoEngine

/// The engine a bulk run drives directly: one event loop set up from the downloader's
/// options, the queue its transfers' ends are handed to, and the header lines every request
/// carries.
///
/// A file's request is a `BulkFetch`, not a `Request`: no attempt pipeline, no Foundation
/// response and no handler queue stand between libcurl and the file, and a request's end is
/// judged on the loop thread, which then resumes the file's task: one hop in all.
package final class BulkTransport: Sendable {
    /// The loop every request of the downloader runs on.
    package let loop: EventLoop
    /// Where a transfer's end is handed when the loop refused it (it was shutting down); the
    /// ends of the others are judged on the loop thread (`BulkFetch`).
    let deliveryQueue = DispatchQueue(label: "org.salvo.bulk.delivery")
    /// Sent with every request whose own headers do not name a `User-Agent`.
    let userAgentLine: String
    /// The longest a transfer may receive nothing (`Options.timeout`).
    let idleTimeout: TimeInterval

    /// Sets up the engine for `options`.
    ///
    /// Bodies are written as they arrive, undecoded (`Accept-Encoding` is not sent: a file
    /// is the server's bytes); libcurl's receive buffer is 100 KiB, as curl's tool sets it, a
    /// sixth of the write calls of 16 KiB. Proxies come from the environment, as curl reads
    /// them; the cookie jar lives as long as the downloader, as a session's does.
    init(options: BulkDownloader.Options) {
        var engine = EngineOptions()
        engine.connectTimeout = options.connectTimeout
        engine.maximumConnectionsPerHost = max(1, options.connectionsPerHost)
        engine.decompressesResponses = false
        engine.receiveBufferSize = 100 * 1024
        engine.maximumReceiveRate = options.maximumRatePerRequest
        if !EngineOptions.environmentNamesAProxy() { engine.proxy = "" }
        if let caCertificate = options.caCertificatePath {
            // Added to the system's anchors, as aria2 adds its file to those it loads.
            engine.caBundlePath = caCertificate
            engine.caDirectoryPath = TLSTrustStore.libcurlDefaults?.directory
        }
        engine.validatesCertificates = options.checksCertificates
        engine.clientCertificatePath = options.clientCertificatePath
        engine.clientKeyPath = options.clientKeyPath
        loop = EventLoop(options: engine)
        idleTimeout = options.timeout
        userAgentLine = "User-Agent: \(options.userAgent ?? HTTPHeader.defaultUserAgent.value)"
    }

    deinit {
        loop.shutdown(error: EventLoop.cancelledError)
    }

    /// The header lines of a request: `headers` as given, then the `User-Agent` unless they
    /// name one.
    func headerList(_ headers: HTTPHeaders) -> CurlHeaderList {
        let list = CurlHeaderList()
        for header in headers { list.append(name: header.name, value: header.value) }
        if headers.value(for: "User-Agent") == nil { list.append(userAgentLine) }
        return list
    }
}
