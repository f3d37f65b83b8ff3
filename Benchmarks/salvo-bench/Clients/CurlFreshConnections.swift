import CurlBaseline
import Foundation

/// The C driver's fresh connections (`cb_fresh_batch`): a multi handle of their own, one
/// easy handle per request with `CURLOPT_FRESH_CONNECT`, `CURLMOPT_MAXCONNECTS` = count.
final class CurlFreshConnections: FreshConnectionBatch {
    private var batch: OpaquePointer?

    init(url: URL, caFile: String, count: Int) throws {
        guard let batch = cb_fresh_batch_create(url.absoluteString, caFile, count) else {
            throw BenchError("the libcurl driver could not make its handles")
        }
        self.batch = batch
    }

    deinit {
        close()
    }

    func run() throws -> Int {
        guard let batch else { throw BenchError("the batch is closed") }
        let failures = cb_fresh_batch_run(batch)
        guard failures >= 0 else { throw BenchError("the libcurl driver's event loop failed") }
        return failures
    }

    func close() {
        if let batch { cb_fresh_batch_destroy(batch) }
        batch = nil
    }
}
