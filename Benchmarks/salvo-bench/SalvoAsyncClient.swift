import Foundation
import Salvo
import Synchronization

/// Salvo with async/await: `inflight` child tasks of a task group, each awaiting
/// `session.request(url).serializingData().value` one request after another.
final class SalvoAsyncClient: DispatchWorkload {
    private let session: Session
    private let url: URL
    private let inflight: Int

    init(url: URL, protocol: BenchProtocol, inflight: Int) {
        session = SalvoSessionFactory.make(protocol: `protocol`, inflight: inflight,
                                           responseQueue: DispatchQueue(label: "salvo-bench.salvo-async.responses"))
        self.url = url
        self.inflight = inflight
    }

    func run(count: Int) throws -> Int {
        let session = session, url = url, workers = min(inflight, count)
        let counters = Counters()
        let finished = DispatchSemaphore(value: 0)
        // The child's main thread blocks here; the tasks run on the cooperative pool.
        Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<workers {
                    group.addTask {
                        while counters.issued.add(1, ordering: .relaxed).oldValue < count {
                            do {
                                let data = try await session.request(url).serializingData().value
                                if data.count != NginxConfiguration.smallBody.utf8.count {
                                    counters.fail("body of \(data.count) bytes")
                                }
                            } catch {
                                counters.fail("\(error)")
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
        let issued = Atomic<Int>(0)
        let failures = Atomic<Int>(0)

        func fail(_ reason: @autoclosure () -> String) {
            failures.add(1, ordering: .relaxed)
            FirstFailure.report(.salvoAsync, reason())
        }
    }
}
