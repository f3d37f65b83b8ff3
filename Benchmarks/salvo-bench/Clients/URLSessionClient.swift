import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession from FoundationNetworking, with completion handlers: what Salvo replaces.
final class URLSessionClient: DispatchWorkload {
    private let session: URLSession
    private let url: URL
    private let inflight: Int

    init(url: URL, inflight: Int) {
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = inflight
        // Every request must reach the server: no response cache.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: nil, delegateQueue: queue)
        self.url = url
        self.inflight = inflight
    }

    deinit {
        session.invalidateAndCancel()
    }

    func run(count: Int, times: RequestTimes?) throws -> Int {
        let session = session, url = url
        let loop = InflightLoop(total: count, times: times) { loop, start in
            session.dataTask(with: url) { data, response, error in
                let status = (response as? HTTPURLResponse)?.statusCode
                let failed = error != nil || status != 200 || data?.count != NginxConfiguration.smallBody.utf8.count
                if failed {
                    FirstFailure.report(.urlSession, error.map { "\($0)" } ?? "status \(status ?? 0), body of \(data?.count ?? 0) bytes")
                }
                loop.complete(start, failed: failed)
            }.resume()
        }
        return loop.run(inflight: inflight)
    }
}
