import Foundation
import Salvo

/// Salvo with completion handlers: each handler issues the next request.
///
/// `salvo` validates and reads the response as a server does; `salvo-noread` and
/// `salvo-bare` only count the body's bytes from `response(queue:)`, `salvo-bare` with a
/// session that sends no default headers.
final class SalvoCompletionClient: DispatchWorkload {
    private let session: Session
    private let url: URL
    private let inflight: Int
    private let queue = DispatchQueue(label: "salvo-bench.salvo.responses")
    private let client: DispatchClient

    /// - Parameter client: `.salvo`, `.salvoNoRead` or `.salvoBare`.
    init(client: DispatchClient, url: URL, protocol: BenchProtocol, inflight: Int, caFile: String?) {
        precondition([.salvo, .salvoNoRead, .salvoBare].contains(client), "not a completion-handler client: \(client)")
        session = SalvoSessionFactory.make(protocol: `protocol`, inflight: inflight, responseQueue: queue, caFile: caFile,
                                           defaultHeaders: client != .salvoBare)
        self.client = client
        self.url = url
        self.inflight = inflight
    }

    func run(count: Int, times: RequestTimes?) throws -> Int {
        let session = session, url = url, queue = queue, client = client
        let expected = NginxConfiguration.smallBody.utf8.count
        let loop: InflightLoop
        if client == .salvo {
            loop = InflightLoop(total: count, times: times) { loop, start in
                session.request(url).validate().responseData(queue: queue) { response in
                    let status = response.response?.statusCode
                    let failure: String? = switch response.result {
                    case .success(let data):
                        status != 200 ? "status \(status.map(String.init) ?? "none")"
                            : data.count != expected ? "body of \(data.count) bytes" : nil
                    case .failure(let error): "\(error)"
                    }
                    if let failure { FirstFailure.report(client, failure) }
                    loop.complete(start, failed: failure != nil)
                }
            }
        } else {
            loop = InflightLoop(total: count, times: times) { loop, start in
                session.request(url).response(queue: queue) { response in
                    let failed = response.error != nil || response.data?.count != expected
                    if failed { FirstFailure.report(client, response.error.map { "\($0)" } ?? "body of \(response.data?.count ?? 0) bytes") }
                    loop.complete(start, failed: failed)
                }
            }
        }
        return loop.run(inflight: inflight)
    }
}
