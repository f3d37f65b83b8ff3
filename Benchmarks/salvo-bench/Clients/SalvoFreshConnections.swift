import Foundation
import Salvo
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Salvo opening one connection per request: a new `Session` with
/// `httpMaximumConnectionsPerHost` = count over HTTP/1.1 and TLS, every request started at
/// once, as the headline dispatch row reads them (`validate().responseData(queue:)`, status
/// and body checked).
final class SalvoFreshConnections: FreshConnectionBatch {
    private var session: Session?
    private let url: URL
    private let count: Int
    private let queue = DispatchQueue(label: "salvo-bench.tls-connect.responses")

    init(url: URL, caFile: String, count: Int) {
        let configuration = URLSessionConfiguration.af.default
        configuration.httpMaximumConnectionsPerHost = count
        let transport = TransportConfiguration(httpVersion: .http1_1, caBundlePath: caFile)
        session = Session(configuration: configuration, transport: transport, responseQueue: queue)
        self.url = url
        self.count = count
    }

    func run() throws -> Int {
        guard let session else { throw BenchError("the session is closed") }
        let expected = NginxConfiguration.smallBody.utf8.count
        let failures = Atomic<Int>(0)
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            session.request(url).validate().responseData(queue: queue) { response in
                let status = response.response?.statusCode
                let failure: String? = switch response.result {
                case .success(let data):
                    status != 200 ? "status \(status.map(String.init) ?? "none")"
                        : data.count != expected ? "body of \(data.count) bytes" : nil
                case .failure(let error): "\(error)"
                }
                if let failure {
                    failures.add(1, ordering: .relaxed)
                    FirstFailure.report(named: TLSConnectClient.salvo.rawValue, failure)
                }
                group.leave()
            }
        }
        group.wait()
        return failures.load(ordering: .relaxed)
    }

    /// Lets the session go: its event loop then closes the connections on its own thread,
    /// which the child waits for (nginx's count of open connections) before the next run.
    func close() {
        session = nil
    }
}
