import Foundation
import Salvo
import Synchronization

/// Salvo with async/await: `inflight` child tasks of a task group, each awaiting one
/// request after another.
///
/// Reading the response (`salvo-async`), each awaits
/// `session.request(url).validate().serializingData().response` and reads the status and
/// the body from it, as a server does; otherwise (`salvo-async-noread`) it awaits
/// `session.request(url).serializingData().value` and counts the bytes.
final class SalvoAsyncClient: DispatchWorkload {
    private let session: Session
    private let url: URL
    private let inflight: Int
    private let readsResponse: Bool

    init(url: URL, protocol: BenchProtocol, inflight: Int, caFile: String?, readsResponse: Bool) {
        session = SalvoSessionFactory.make(protocol: `protocol`, inflight: inflight,
                                           responseQueue: DispatchQueue(label: "salvo-bench.salvo-async.responses"), caFile: caFile)
        self.url = url
        self.inflight = inflight
        self.readsResponse = readsResponse
    }

    func run(count: Int, times: RequestTimes?) throws -> Int {
        let session = session, url = url, workers = min(inflight, count), readsResponse = readsResponse
        let counters = Counters(client: readsResponse ? .salvoAsync : .salvoAsyncNoRead)
        let expected = NginxConfiguration.smallBody.utf8.count
        let finished = DispatchSemaphore(value: 0)
        // The child's main thread blocks here; the tasks run on the cooperative pool.
        Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<workers {
                    group.addTask {
                        while counters.issued.add(1, ordering: .relaxed).oldValue < count {
                            let start = RequestTimes.now()
                            defer { times?.record(start) }
                            if readsResponse {
                                let response = await session.request(url).validate().serializingData().response
                                let status = response.response?.statusCode
                                switch response.result {
                                case .success(let data):
                                    if status != 200 {
                                        counters.fail("status \(status.map(String.init) ?? "none")")
                                    } else if data.count != expected {
                                        counters.fail("body of \(data.count) bytes")
                                    }
                                case .failure(let error):
                                    counters.fail("\(error)")
                                }
                            } else {
                                do {
                                    let data = try await session.request(url).serializingData().value
                                    if data.count != expected { counters.fail("body of \(data.count) bytes") }
                                } catch {
                                    counters.fail("\(error)")
                                }
                            }
                        }
                    }
                }
            }
            finished.signal()
        }
        finished.wait()
        return counters.failures.load(ordering: .relaxed)
    }

    private final class Counters: Sendable {
        let client: DispatchClient
        let issued = Atomic<Int>(0)
        let failures = Atomic<Int>(0)

        init(client: DispatchClient) {
            self.client = client
        }

        func fail(_ reason: @autoclosure () -> String) {
            failures.add(1, ordering: .relaxed)
            FirstFailure.report(client, reason())
        }
    }
}
