import Foundation
import Salvo
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Salvo running one transfers case: `download(_:to:)` into the output directory with a
/// fixed number in flight, or `upload(_:to:)` of a file; handlers on one serial queue.
struct SalvoTransfers {
    let request: TransferChild.Request
    let outputDirectory: String
    private let session: Session
    private let queue = DispatchQueue(label: "salvo-bench.transfers.responses")

    init(request: TransferChild.Request, outputDirectory: String) {
        self.request = request
        self.outputDirectory = outputDirectory
        let configuration = URLSessionConfiguration.af.default
        configuration.httpMaximumConnectionsPerHost = request.transfer.parallel
        let transport = TransportConfiguration(httpVersion: .http1_1,
                                               receiveBufferSize: request.client == .salvoBuffer ? 100 << 10 : 0)
        session = Session(configuration: configuration, transport: transport, responseQueue: queue)
    }

    /// - Returns: How many transfers failed.
    func run() -> Int {
        request.transfer.direction == .download ? download() : upload()
    }

    private func download() -> Int {
        let session = session, queue = queue, client = request.client, size = request.transfer.size
        let transfer = request.transfer, names = transfer.fileNames, base = request.baseURL, directory = outputDirectory
        let tickets = Tickets()
        let loop = InflightLoop(total: names.count) { loop, start in
            let name = names[tickets.take()]
            let destination = URL(fileURLWithPath: directory + "/" + name)
            session.download(base.appendingPathComponent(transfer.urlPath(name)), to: { _, _ in (destination, [.removePreviousFile]) })
                .response(queue: queue) { response in
                    let written = TransferChild.fileSize(destination.path)
                    let failed = response.error != nil || written != size
                    if failed { FirstFailure.report(transfer: client, response.error.map { "\($0)" } ?? "\(name): \(written ?? -1) bytes") }
                    loop.complete(start, failed: failed)
                }
        }
        return loop.run(inflight: request.transfer.parallel)
    }

    private func upload() -> Int {
        let session = session, queue = queue, client = request.client, size = request.transfer.size
        let names = request.transfer.fileNames, source = request.sourceDirectory, url = request.baseURL.appendingPathComponent("upload")
        let tickets = Tickets()
        let loop = InflightLoop(total: names.count) { loop, start in
            let file = URL(fileURLWithPath: source + "/" + names[tickets.take()])
            session.upload(file, to: url, method: .put)
                .response(queue: queue) { response in
                    // libcurl's CURLINFO_SIZE_UPLOAD_T: the body bytes that went out.
                    let bytes = response.metrics?.bytesSent ?? -1
                    let failed = response.error != nil || response.response?.statusCode != 204 || bytes != Int64(size)
                    if failed {
                        FirstFailure.report(transfer: client, response.error.map { "\($0)" }
                                            ?? "status \(response.response?.statusCode ?? 0), \(bytes) of \(size) bytes sent")
                    }
                    loop.complete(start, failed: failed)
                }
        }
        return loop.run(inflight: request.transfer.parallel)
    }
}

/// Hands out 0, 1, 2, … to whichever thread asks.
final class Tickets: Sendable {
    private let next = Atomic<Int>(0)

    func take() -> Int { next.wrappingAdd(1, ordering: .relaxed).oldValue }
}
