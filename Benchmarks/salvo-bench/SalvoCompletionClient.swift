import Foundation
import Salvo

/// Salvo with completion handlers: each handler issues the next request.
final class SalvoCompletionClient: DispatchWorkload {
    private let session: Session
    private let url: URL
    private let inflight: Int
    private let queue = DispatchQueue(label: "salvo-bench.salvo.responses")

    private let client: DispatchClient

    /// - Parameter defaultHeaders: Whether the session sends Alamofire's default headers.
    init(url: URL, protocol: BenchProtocol, inflight: Int, defaultHeaders: Bool = true) {
        session = SalvoSessionFactory.make(protocol: `protocol`, inflight: inflight, responseQueue: queue,
                                           defaultHeaders: defaultHeaders)
        client = defaultHeaders ? .salvo : .salvoBare
        self.url = url
        self.inflight = inflight
    }

    func run(count: Int) throws -> Int {
        let session = session, url = url, queue = queue, client = client
        let loop = InflightLoop(total: count) { loop in
            session.request(url).response(queue: queue) { response in
                let failed = response.error != nil || response.data?.count != NginxConfiguration.smallBody.utf8.count
                if failed { FirstFailure.report(client, response.error.map { "\($0)" } ?? "body of \(response.data?.count ?? 0) bytes") }
                loop.complete(failed: failed)
            }
        }
        return loop.run(inflight: inflight)
    }
}
