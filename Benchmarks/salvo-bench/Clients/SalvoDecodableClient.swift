import Foundation
import Salvo

/// Salvo with completion handlers decoding each body: `.validate().responseDecodable(of:
/// Small.self, queue:)` against nginx's `/small.json`, reading the status as the `salvo`
/// row does. Its CPU per request over `salvo`'s is what decoding adds.
final class SalvoDecodableClient: DispatchWorkload {
    private let session: Session
    private let url: URL
    private let inflight: Int
    private let queue = DispatchQueue(label: "salvo-bench.salvo-decodable.responses")

    init(url: URL, protocol: BenchProtocol, inflight: Int, caFile: String?) {
        session = SalvoSessionFactory.make(protocol: `protocol`, inflight: inflight, responseQueue: queue, caFile: caFile)
        self.url = url
        self.inflight = inflight
    }

    func run(count: Int, times: RequestTimes?) throws -> Int {
        let session = session, url = url, queue = queue
        let loop = InflightLoop(total: count, times: times) { loop, start in
            session.request(url).validate().responseDecodable(of: Small.self, queue: queue) { response in
                let status = response.response?.statusCode
                let failure: String? = switch response.result {
                case .success: status != 200 ? "status \(status.map(String.init) ?? "none")" : nil
                case .failure(let error): "\(error)"
                }
                if let failure { FirstFailure.report(.salvoDecodable, failure) }
                loop.complete(start, failed: failure != nil)
            }
        }
        return loop.run(inflight: inflight)
    }
}
