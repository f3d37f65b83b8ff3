import XCTest
import Salvo
import SalvoTestSupport

/// Hundreds of requests at once to fast, slow, large, stalling and broken endpoints, each
/// cancelled, suspended and resumed at a random moment from another thread: every request
/// still completes exactly once, with an outcome that fits what was done to it.
final class ChaosTests: XCTestCase {
    private struct Endpoint {
        let url: URL
        /// The body a successful response carries, or `nil` when it never succeeds.
        let bodyLength: Int?
    }

    func testRandomCancelsSuspendsAndResumesCompleteEveryRequestOnce() throws {
        let session = testSession {
            $0.httpMaximumConnectionsPerHost = 32
            // A stall ends as an idle timeout, soon.
            $0.timeoutIntervalForRequest = 1
        }
        let endpoints = [
            Endpoint(url: try TestServers.shared.url(.nginx, "/small"), bodyLength: 100),
            Endpoint(url: try TestServers.shared.url(.nginx, "/1m.bin"), bodyLength: 1 << 20),
            Endpoint(url: try TestServers.shared.url(.httpbin, "/drip?numbytes=20&duration=0.3&delay=0"), bodyLength: 20),
            Endpoint(url: try TestServers.shared.url(.fault, "/stall"), bodyLength: nil),
            Endpoint(url: try TestServers.shared.url(.fault, "/truncate"), bodyLength: nil),
            Endpoint(url: try TestServers.shared.url(.fault, "/reset"), bodyLength: nil),
        ]
        let nginxPort = try TestServers.shared.url(.nginx, "/").port
        var random = SplitMix64(seed: 0x5A1_70)
        let count = 300
        let results = Collector<(index: Int, cancelled: Bool, response: AFDataResponse<Data>)>()
        var expectations: [XCTestExpectation] = []
        var requests: [DataRequest] = []
        var actions: [ChaosAction] = []
        var chosen: [Endpoint] = []

        for index in 0..<count {
            let endpoint = random.pick(endpoints)
            let action = random.pick(ChaosAction.forRequests)
            let delay = Double(random.next() % 40) / 1000
            let done = expectation(description: "request \(index)")
            let request = session.request(endpoint.url)
            request.responseData(queue: .global()) { response in
                results.append((index, request.isCancelled, response))
                done.fulfill()
            }
            expectations.append(done)
            requests.append(request)
            actions.append(action)
            chosen.append(endpoint)
            action.schedule(on: request, after: delay)
        }
        wait(for: expectations, timeout: 60)

        for result in results.values {
            let index = result.index
            let response = result.response
            let action = actions[index]
            let endpoint = chosen[index]
            let what = "request \(index) (\(endpoint.url.path), \(action))"
            if case .explicitlyCancelled? = response.error {
                XCTAssertNotEqual(action, .none, "\(what) was never cancelled")
                XCTAssertNotEqual(action, .suspendThenResume, "\(what) was never cancelled")
                XCTAssertTrue(result.cancelled, "\(what): cancelled error, state \(requests[index].state)")
            } else if let error = response.error {
                XCTAssertFalse(result.cancelled, "\(what): cancelled but failed with \(error)")
                XCTAssertNotNil(urlErrorCode(error), "\(what): \(error)")
                // Left alone, nginx's files always arrive (a request waiting for a connection
                // does not burn its timeout).
                XCTAssertFalse(action == .none && endpoint.url.port == nginxPort, "\(what): \(error)")
            } else {
                XCTAssertEqual(response.response?.statusCode, 200, what)
                XCTAssertNotNil(endpoint.bodyLength, "\(what) cannot succeed")
                XCTAssertEqual(response.data?.count, endpoint.bodyLength, what)
                XCTAssertEqual(requests[index].state, .finished, what)
            }
        }
        XCTAssertEqual(results.values.map(\.index).sorted(), Array(0..<count), "each handler runs once")
    }
}

extension ChaosTests {
    /// Downloads cancelled, suspended and resumed at random moments: each completes once; a
    /// success leaves the whole file under its name, a failure leaves nothing there, resume
    /// data resumes to the whole file, and no partial file is left anywhere.
    func testRandomlyInterruptedDownloadsLeaveOnlyWholeFiles() throws {
        let session = testSession {
            $0.httpMaximumConnectionsPerHost = 32
            $0.timeoutIntervalForRequest = 1
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-chaos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let docroot = try TestServers.shared.docroot
        let sources: [(url: URL, contents: Data?)] = [
            (try TestServers.shared.url(.nginx, "/1m.bin"), try Data(contentsOf: docroot.appendingPathComponent("1m.bin"))),
            (try TestServers.shared.url(.nginx, "/100k.bin"), try Data(contentsOf: docroot.appendingPathComponent("100k.bin"))),
            (try TestServers.shared.url(.fault, "/truncate"), nil),
            (try TestServers.shared.url(.fault, "/stall"), nil),
        ]
        var random = SplitMix64(seed: 0xD0_3A)
        let count = 120
        let results = Collector<(index: Int, response: AFDownloadResponse<URL?>)>()
        var expectations: [XCTestExpectation] = []
        var plan: [(source: Int, action: ChaosAction, destination: URL)] = []
        for index in 0..<count {
            let source = Int(random.next() % UInt64(sources.count))
            let action = random.pick(ChaosAction.forDownloads)
            let delay = Double(random.next() % 30) / 1000
            let destination = scratch.appendingPathComponent("file-\(index)")
            plan.append((source, action, destination))
            let done = expectation(description: "download \(index)")
            let request = session.download(sources[source].url, to: { _, _ in (destination, []) })
            request.response(queue: .global()) { response in
                results.append((index, response))
                done.fulfill()
            }
            expectations.append(done)
            action.schedule(on: request, after: delay)
        }
        wait(for: expectations, timeout: 60)
        XCTAssertEqual(results.values.map(\.index).sorted(), Array(0..<count), "each handler runs once")

        for (index, response) in results.values {
            let (source, action, destination) = plan[index]
            let what = "download \(index) (\(sources[source].url.path), \(action))"
            if response.error == nil {
                XCTAssertEqual(response.fileURL, destination, what)
                XCTAssertEqual(try? Data(contentsOf: destination), sources[source].contents, what)
            } else {
                XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path), "\(what) failed but left a file")
            }
            if let resumeData = response.resumeData {
                XCTAssertEqual(action, .cancelProducingResumeData, what)
                let finished = awaitDownload(session.download(resumingWith: resumeData, to: { _, _ in (destination, []) }))
                XCTAssertNil(finished.error, what)
                XCTAssertEqual(try? Data(contentsOf: destination), sources[source].contents, "\(what), resumed")
            }
        }
        XCTAssertEqual(DownloadRequestTests.partialFiles(), [], "partial downloads left behind")
    }
}

extension ChaosTests {
    /// Streams interrupted at random moments: each ends with exactly one `.complete`, no
    /// chunk comes after it, and what arrived is always a prefix of the body.
    func testRandomlyInterruptedStreamsCompleteOnceWithAPrefixOfTheBody() throws {
        let session = testSession {
            $0.httpMaximumConnectionsPerHost = 32
            $0.timeoutIntervalForRequest = 1
        }
        let docroot = try TestServers.shared.docroot
        try interruptStreams(session, seed: 0x57_2EA, sources: [
            (try TestServers.shared.url(.nginx, "/1m.bin"), try Data(contentsOf: docroot.appendingPathComponent("1m.bin"))),
            (try TestServers.shared.url(.nginx, "/small"), try Data(contentsOf: docroot.appendingPathComponent("small"))),
            (try TestServers.shared.url(.fault, "/stall"), nil),
            (try TestServers.shared.url(.fault, "/truncate"), nil),
        ])
    }

    /// The same over h2c, with consumers slow enough for back-pressure to pause and unpause
    /// the streams that share the one connection.
    func testRandomlyInterruptedStreamsOverOneHTTP2Connection() throws {
        let session = testSession({ $0.timeoutIntervalForRequest = 5 }, transport: TransportConfiguration(httpVersion: .http2PriorKnowledge))
        let docroot = try TestServers.shared.docroot
        try interruptStreams(session, seed: 0x2C_57, slowConsumers: true, sources: [
            (try TestServers.shared.url(.nginxH2C, "/1m.bin"), try Data(contentsOf: docroot.appendingPathComponent("1m.bin"))),
            (try TestServers.shared.url(.nginxH2C, "/100k.bin"), try Data(contentsOf: docroot.appendingPathComponent("100k.bin"))),
            (try TestServers.shared.url(.nginxH2C, "/small"), try Data(contentsOf: docroot.appendingPathComponent("small"))),
        ])
    }

    private func interruptStreams(_ session: Session, seed: UInt64, slowConsumers: Bool = false,
                                  sources: [(url: URL, body: Data?)]) throws {
        var random = SplitMix64(seed: seed)
        let count = 100
        final class Received: @unchecked Sendable { // touched only on its stream's serial queue, then read after the wait
            var data = Data()
            var completions = 0
            var chunksAfterCompletion = 0
            var error: AFError?
        }
        var expectations: [XCTestExpectation] = []
        var plan: [(source: Int, action: ChaosAction, received: Received, queue: DispatchQueue)] = []
        for index in 0..<count {
            let source = Int(random.next() % UInt64(sources.count))
            let action = random.pick(ChaosAction.forStreams)
            let delay = Double(random.next() % 30) / 1000
            let received = Received()
            let queue = DispatchQueue(label: "chaos.stream.\(index)")
            plan.append((source, action, received, queue))
            let done = expectation(description: "stream \(index)")
            let request = session.streamRequest(sources[source].url)
            request.responseStream(on: queue) { stream in
                switch stream.event {
                case let .stream(.success(data)):
                    if received.completions > 0 { received.chunksAfterCompletion += 1 }
                    // A slow consumer: the stream's window fills and the transfer pauses.
                    if slowConsumers { usleep(200) }
                    received.data.append(data)
                    if action == .cancelFromTheHandler { stream.cancel() }
                case let .complete(completion):
                    received.completions += 1
                    received.error = completion.error
                    done.fulfill()
                }
            }
            expectations.append(done)
            action.schedule(on: request, after: delay)
        }
        wait(for: expectations, timeout: 60)
        for (index, entry) in plan.enumerated() {
            entry.queue.sync {}
            let received = entry.received
            let what = "stream \(index) (\(sources[entry.source].url.path), \(entry.action))"
            XCTAssertEqual(received.completions, 1, what)
            XCTAssertEqual(received.chunksAfterCompletion, 0, what)
            if let body = sources[entry.source].body {
                XCTAssertTrue(body.starts(with: received.data), "\(what): \(received.data.count) bytes that are not a prefix of the body")
                if received.error == nil { XCTAssertEqual(received.data.count, body.count, what) }
            } else {
                XCTAssertNotNil(received.error, "\(what) cannot succeed")
            }
            if case .explicitlyCancelled? = received.error {
                XCTAssertNotEqual(entry.action, .none, what)
                XCTAssertNotEqual(entry.action, .suspendThenResume, what)
            }
        }
    }

    /// async/await requests whose tasks are cancelled at random moments: every task ends,
    /// with the body or an error, and `explicitlyCancelled` only for a cancelled task.
    func testRandomlyCancelledTasksEndWithTheBodyOrAnError() async throws {
        let session = testSession {
            $0.httpMaximumConnectionsPerHost = 32
            $0.timeoutIntervalForRequest = 1
        }
        let small = try TestServers.shared.url(.nginx, "/small")
        let large = try TestServers.shared.url(.nginx, "/1m.bin")
        let stall = try TestServers.shared.url(.fault, "/stall")
        let sizes = [small: 100, large: 1 << 20]
        var random = SplitMix64(seed: 0xA5_11C)
        var tasks: [(Task<Result<Data, AFError>, Never>, URL, Bool)] = []
        for _ in 0..<150 {
            let url = random.pick([small, large, stall])
            let task = Task { await session.request(url).serializingData().result }
            let cancel = random.next() % 2 == 0
            if cancel {
                let delay = UInt64(random.next() % 20_000_000)
                Task {
                    try? await Task.sleep(nanoseconds: delay)
                    task.cancel()
                }
            }
            tasks.append((task, url, cancel))
        }
        for (index, (task, url, cancelled)) in tasks.enumerated() {
            let what = "task \(index) (\(url.path), cancelled: \(cancelled))"
            switch await task.value {
            case let .success(data):
                XCTAssertEqual(data.count, sizes[url], what)
            case let .failure(error):
                if error.isExplicitlyCancelledError {
                    XCTAssertTrue(cancelled, what)
                } else {
                    XCTAssertNotNil(urlErrorCode(error), "\(what): \(error)")
                    // A stall cancelled within 20 ms cannot reach its 1 s idle timeout first.
                    XCTAssertFalse(cancelled && url == stall, "\(what): \(error)")
                }
            }
        }
    }
}

extension ChaosTests {
    /// Uploads of data, files and streams interrupted at random moments: each completes once,
    /// and a success echoes exactly the body sent.
    func testRandomlyInterruptedUploadsCompleteOnceAndEchoTheirBody() throws {
        let session = testSession { $0.httpMaximumConnectionsPerHost = 32 }
        let text = String(repeating: "chaos upload ", count: 20_000)
        let body = Data(text.utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-chaos-upload-\(UUID().uuidString)")
        try body.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let url = try TestServers.shared.url(.httpbin, "/post")
        var random = SplitMix64(seed: 0x0_B10AD)
        let count = 60
        let results = Collector<(index: Int, response: AFDataResponse<Data>)>()
        var expectations: [XCTestExpectation] = []
        var actions: [ChaosAction] = []
        for index in 0..<count {
            let action = random.pick(ChaosAction.forRequests)
            let delay = Double(random.next() % 30) / 1000
            let request: UploadRequest
            switch random.next() % 3 {
            case 0: request = session.upload(body, to: url, headers: ["Content-Type": "text/plain"])
            case 1: request = session.upload(file, to: url, headers: ["Content-Type": "text/plain"])
            default: request = session.upload(InputStream(data: body), to: url, headers: ["Content-Type": "text/plain"])
            }
            let done = expectation(description: "upload \(index)")
            request.responseData(queue: .global()) { response in
                results.append((index, response))
                done.fulfill()
            }
            expectations.append(done)
            actions.append(action)
            action.schedule(on: request, after: delay)
        }
        wait(for: expectations, timeout: 60)
        XCTAssertEqual(results.values.map(\.index).sorted(), Array(0..<count), "each handler runs once")
        for (index, response) in results.values {
            let what = "upload \(index) (\(actions[index]))"
            if let error = response.error {
                if error.isExplicitlyCancelledError {
                    XCTAssertNotEqual(actions[index], .none, what)
                    XCTAssertNotEqual(actions[index], .suspendThenResume, what)
                } else {
                    XCTFail("\(what): \(error)")
                }
            } else {
                XCTAssertEqual(json(response.data)["data"] as? String, text, what)
            }
        }
    }
}

extension ChaosTests {
    /// Requests retried by `RetryPolicy`, cancelled at random moments, while their session is
    /// released halfway: every request completes once, with its body, a cancellation, the
    /// session's end, or the retried failure, and nothing else.
    func testRetriesCancelsAndAReleasedSessionCompleteEveryRequestOnce() throws {
        var session: Session? = Session(configuration: {
            let configuration = URLSessionConfiguration.af.default
            configuration.httpMaximumConnectionsPerHost = 32
            configuration.timeoutIntervalForRequest = 1
            return configuration
        }(), interceptor: RetryPolicy(retryLimit: 3, exponentialBackoffBase: 2, exponentialBackoffScale: 0.01),
                                        responseQueue: DispatchQueue(label: "chaos.responses"))
        var random = SplitMix64(seed: 0x2E_721)
        let count = 120
        let results = Collector<(index: Int, response: AFDataResponse<Data>)>()
        var expectations: [XCTestExpectation] = []
        var cancelled: [Bool] = []
        for index in 0..<count {
            let url: URL
            switch random.next() % 3 {
            case 0: url = try TestServers.shared.url(.fault, "/fail-twice?key=\(UUID().uuidString)")
            case 1: url = try TestServers.shared.url(.fault, "/stall-headers")
            default: url = try TestServers.shared.url(.nginx, "/small")
            }
            let cancel = random.next() % 3 == 0
            let delay = Double(random.next() % 40) / 1000
            let request = session!.request(url).validate()
            let done = expectation(description: "request \(index)")
            request.responseData(queue: .global()) { response in
                results.append((index, response))
                done.fulfill()
            }
            expectations.append(done)
            cancelled.append(cancel)
            if cancel { DispatchQueue.global().asyncAfter(deadline: .now() + delay) { request.cancel() } }
        }
        // Halfway through the first attempts and the retries' back-off, the session goes.
        let released = expectation(description: "released")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { [session] in
            _ = session
            released.fulfill()
        }
        session = nil
        wait(for: [released], timeout: 10)
        wait(for: expectations, timeout: 60)
        XCTAssertEqual(results.values.map(\.index).sorted(), Array(0..<count), "each handler runs once")
        // Requests to /stall-headers left alone can end only with their session (their 1 s
        // idle timeout is far off when it goes).
        XCTAssertTrue(results.values.contains { $0.response.error?.isSessionDeinitializedError == true },
                      "the released session ended no request")
        for (index, response) in results.values {
            let what = "request \(index) (\(response.request?.url?.path ?? "not sent"), cancelled: \(cancelled[index]))"
            guard let error = response.error else {
                XCTAssertEqual(response.response?.statusCode, 200, what)
                continue
            }
            if error.isExplicitlyCancelledError {
                XCTAssertTrue(cancelled[index], what)
            } else {
                XCTAssertTrue(error.isSessionDeinitializedError || error.isRequestRetryError
                                  || error.isResponseValidationError || urlErrorCode(error) != nil, "\(what): \(error)")
            }
        }
    }
}

extension ChaosTests {
    /// The same over h2c, where every request is a stream of one multiplexed connection:
    /// cancelling, pausing and resuming streams must leave the connection and the other
    /// streams alone, and every request completes once with the whole body or a fitting error.
    func testRandomCancelsSuspendsAndResumesOverOneHTTP2Connection() throws {
        let session = testSession({ $0.timeoutIntervalForRequest = 5 }, transport: TransportConfiguration(httpVersion: .http2PriorKnowledge))
        let docroot = try TestServers.shared.docroot
        let sources: [(url: URL, body: Data)] = [
            (try TestServers.shared.url(.nginxH2C, "/small"), try Data(contentsOf: docroot.appendingPathComponent("small"))),
            (try TestServers.shared.url(.nginxH2C, "/1m.bin"), try Data(contentsOf: docroot.appendingPathComponent("1m.bin"))),
            (try TestServers.shared.url(.nginxH2C, "/100k.bin"), try Data(contentsOf: docroot.appendingPathComponent("100k.bin"))),
        ]
        var random = SplitMix64(seed: 0x2C_4A05)
        let count = 200
        let results = Collector<(index: Int, cancelled: Bool, response: AFDataResponse<Data>)>()
        var expectations: [XCTestExpectation] = []
        var plan: [(source: Int, action: ChaosAction)] = []
        for index in 0..<count {
            let source = Int(random.next() % UInt64(sources.count))
            let action = random.pick(ChaosAction.forRequests)
            let delay = Double(random.next() % 40) / 1000
            plan.append((source, action))
            let done = expectation(description: "request \(index)")
            let request = session.request(sources[source].url)
            request.responseData(queue: .global()) { response in
                results.append((index, request.isCancelled, response))
                done.fulfill()
            }
            expectations.append(done)
            action.schedule(on: request, after: delay)
        }
        wait(for: expectations, timeout: 60)
        XCTAssertEqual(results.values.map(\.index).sorted(), Array(0..<count), "each handler runs once")
        for (index, cancelled, response) in results.values {
            let (source, action) = plan[index]
            let what = "request \(index) (\(sources[source].url.path), \(action))"
            if let error = response.error {
                // Nothing here fails on its own: only a cancel may end a request early.
                XCTAssertTrue(error.isExplicitlyCancelledError, "\(what): \(error)")
                XCTAssertTrue(cancelled, what)
            } else {
                XCTAssertEqual(response.data, sources[source].body, what)
                XCTAssertEqual(response.metrics?.httpVersion, "2", what)
            }
        }
    }
}

/// What a chaos test does to a request, at a random moment.
private enum ChaosAction {
    case none, cancel, suspendThenResume, suspendThenCancel, cancelTwiceFromTwoThreads
    /// Downloads only.
    case cancelProducingResumeData
    /// Streams only: the stream handler cancels on its first chunk.
    case cancelFromTheHandler

    static let forRequests: [ChaosAction] = [.none, .cancel, .suspendThenResume, .suspendThenCancel, .cancelTwiceFromTwoThreads]
    static let forDownloads: [ChaosAction] = [.none, .cancel, .cancelProducingResumeData, .suspendThenResume, .suspendThenCancel]
    static let forStreams: [ChaosAction] = [.none, .cancel, .suspendThenResume, .suspendThenCancel, .cancelFromTheHandler]

    /// Does it to `request` `delay` seconds from now; a suspension is undone `delay` later.
    func schedule(on request: Request, after delay: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            switch self {
            case .none, .cancelFromTheHandler: break
            case .cancel: request.cancel()
            case .cancelProducingResumeData: (request as? DownloadRequest)?.cancel(producingResumeData: true)
            case .suspendThenResume:
                request.suspend()
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { request.resume() }
            case .suspendThenCancel:
                request.suspend()
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { request.cancel() }
            case .cancelTwiceFromTwoThreads:
                DispatchQueue.global().async { request.cancel() }
                request.cancel()
            }
        }
    }
}
