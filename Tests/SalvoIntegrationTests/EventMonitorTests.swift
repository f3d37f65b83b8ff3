import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

// ClosureEventMonitor on real requests: which events arrive, in what order, on which thread.

/// Event names recorded from the monitor's queue, with a note of any that ran on the main
/// thread.
private final class EventLog: Sendable {
    private let state = Mutex<(events: [String], onMain: [String])>(([], []))

    func record(_ event: String) {
        let main = Thread.isMainThread
        state.withLock {
            $0.events.append(event)
            if main { $0.onMain.append(event) }
        }
    }

    var events: [String] { state.withLock { $0.events } }
    var eventsOnMain: [String] { state.withLock { $0.onMain } }
}

/// A monitor recording every request-level event into `log`, and fulfilling `finished`
/// (when given) on `requestDidFinish`.
private func recordingMonitor(_ log: EventLog, finished: XCTestExpectation? = nil) -> ClosureEventMonitor {
    let monitor = ClosureEventMonitor()
    monitor.requestDidResume = { _ in log.record("resume") }
    monitor.requestDidSuspend = { _ in log.record("suspend") }
    monitor.requestDidCancel = { _ in log.record("cancel") }
    monitor.requestDidCreateInitialURLRequest = { _, _ in log.record("createInitialURLRequest") }
    monitor.requestDidFailToCreateURLRequestWithError = { _, _ in log.record("failToCreateURLRequest") }
    monitor.requestDidAdaptInitialRequestToAdaptedRequest = { _, _, _ in log.record("adapt") }
    monitor.requestDidFailToAdaptURLRequestWithError = { _, _, _ in log.record("failToAdapt") }
    monitor.requestDidCreateTransfer = { _, _ in log.record("createTransfer") }
    monitor.requestDidGatherMetrics = { _, _ in log.record("metrics") }
    monitor.requestDidFailTransferWithError = { _, _ in log.record("failTransfer") }
    monitor.requestDidCompleteAttemptWithError = { _, error in log.record(error == nil ? "attempt" : "failedAttempt") }
    monitor.requestIsRetrying = { _ in log.record("retrying") }
    monitor.requestDidFinish = { [finished] _ in
        log.record("finish")
        finished?.fulfill()
    }
    return monitor
}

private func monitorSession(monitors: [any EventMonitor], interceptor: (any RequestInterceptor)? = nil,
                         startRequestsImmediately: Bool = true) -> Session {
    Session(startRequestsImmediately: startRequestsImmediately, interceptor: interceptor, eventMonitors: monitors,
            responseQueue: DispatchQueue(label: "test.monitor.responses"))
}

final class EventMonitorTests: XCTestCase {
    func testDefaultQueueIsAPrivateQueueNotMain() {
        let first = ClosureEventMonitor()
        let second = ClosureEventMonitor()
        XCTAssertFalse(first.queue === DispatchQueue.main)
        XCTAssertFalse(first.queue === second.queue, "each monitor gets its own queue")
        let given = DispatchQueue(label: "test.given")
        XCTAssertTrue(ClosureEventMonitor(queue: given).queue === given)
    }

    func testResumeAndFinishArriveInOrderOffTheMainThread() throws {
        let log = EventLog()
        let finished = expectation(description: "requestDidFinish")
        let responded = expectation(description: "response")
        let session = monitorSession(monitors: [recordingMonitor(log, finished: finished)])
        let url = try TestServers.shared.url(.httpbin, "/get")
        // A URLRequest, so that the request-creation events have something to report.
        let request = session.request(URLRequest(url: url))
        request.validate().responseData { _ in responded.fulfill() }
        withExtendedLifetime(session) { wait(for: [finished, responded], timeout: 10) }
        XCTAssertEqual(log.events, ["resume", "createInitialURLRequest", "createTransfer", "metrics", "attempt", "finish"])
        XCTAssertEqual(log.eventsOnMain, [])
        XCTAssertEqual(request.state, .finished)
    }

    func testDownloadsReportValidationDestinationAndResponse() throws {
        let log = EventLog()
        let monitor = recordingMonitor(log)
        let validatedFile = Mutex<URL?>(nil)
        let destination = Mutex<URL?>(nil)
        let parsed = expectation(description: "download response reported")
        monitor.requestDidValidateRequestResponseFileURLWithResult = { _, _, response, fileURL, result in
            // The bytes are in the partial file while validators run (the event is delivered
            // later, on the monitor's queue, when the file may have moved already).
            validatedFile.withLock { $0 = fileURL }
            log.record("validate \(response.statusCode) \((try? result.get()) != nil)")
        }
        monitor.requestDidCreateDestinationURL = { _, url in
            destination.withLock { $0 = url }
            log.record("destination")
        }
        monitor.requestDidParseDownloadResponse = { _, response in
            log.record("parse \(response.error == nil)")
            parsed.fulfill()
        }
        let session = monitorSession(monitors: [monitor])
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-monitor-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: target) }
        let done = expectation(description: "response")
        session.download(try TestServers.shared.url(.nginx, "/small"), to: { _, _ in (target, []) })
            .validate()
            .response(queue: .global()) { _ in done.fulfill() }
        withExtendedLifetime(session) { wait(for: [done, parsed], timeout: 10) }
        let events = log.events
        // `validate()` is two validators, status code then content type, as in Alamofire.
        XCTAssertEqual(events.filter { $0.hasPrefix("validate") }, ["validate 200 true", "validate 200 true"])
        XCTAssertLessThan(try XCTUnwrap(events.firstIndex(of: "validate 200 true")), try XCTUnwrap(events.firstIndex(of: "destination")))
        XCTAssertEqual(events.filter { $0.hasPrefix("parse") }, ["parse true"])
        XCTAssertEqual(destination.withLock { $0 }, target)
        let validated = try XCTUnwrap(validatedFile.withLock { $0 })
        XCTAssertNotEqual(validated, target, "validation runs before the file is moved")
        XCTAssertEqual(validated.deletingLastPathComponent().lastPathComponent, "downloads")
        XCTAssertTrue(validated.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.hasPrefix("org.salvo."))
        XCTAssertEqual(log.eventsOnMain, [])
    }

    func testUploadsReportTheirUploadableAndStreamsTheirValidation() throws {
        let log = EventLog()
        let monitor = recordingMonitor(log)
        monitor.requestDidCreateUploadable = { _, uploadable in
            switch uploadable {
            case .data: log.record("uploadable data")
            case .file: log.record("uploadable file")
            case .stream: log.record("uploadable stream")
            }
        }
        // A multipart form that cannot be encoded fails with its own AFError
        // (`multipartEncodingFailed`), as in Alamofire.
        monitor.requestDidFailToCreateUploadableWithError = { _, error in
            log.record(error.isMultipartEncodingError ? "uploadable failed" : "uploadable failed: \(error)")
        }
        monitor.requestDidProvideInputStream = { _, _ in log.record("input stream") }
        monitor.requestDidValidateRequestResponseWithResult = { _, _, response, result in
            log.record("stream validated \(response.statusCode) \((try? result.get()) != nil)")
        }
        let session = monitorSession(monitors: [monitor])
        let post = try TestServers.shared.url(.httpbin, "/post")
        let done = expectation(description: "requests")
        done.expectedFulfillmentCount = 4
        session.upload(Data("hello".utf8), to: post).response(queue: .global()) { _ in done.fulfill() }
        session.upload(InputStream(data: Data("hello".utf8)), to: post).response(queue: .global()) { _ in done.fulfill() }
        session.upload(multipartFormData: { $0.append(URL(fileURLWithPath: "/nonexistent/salvo"), withName: "file") }, to: post)
            .response(queue: .global()) { _ in done.fulfill() }
        session.streamRequest(try TestServers.shared.url(.nginx, "/small")).validate().responseStream(on: .global()) { stream in
            if stream.completion != nil { done.fulfill() }
        }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        // Monitor events may arrive after the handlers: wait for the monitor's queue.
        monitor.queue.sync {}
        let events = Set(log.events)
        XCTAssertTrue(events.isSuperset(of: ["uploadable data", "uploadable stream", "input stream", "uploadable failed",
                                             "stream validated 200 true"]), "\(log.events)")
        XCTAssertEqual(log.events.filter { $0.hasPrefix("uploadable") }.count, 3)
        XCTAssertEqual(log.events.filter { $0.hasPrefix("stream validated") }.count, 2)
    }

    /// `validate()` runs Alamofire's two validators: both are reported when the status code
    /// passes; when it fails, the content-type validator does not run.
    func testValidateReportsEachOfItsTwoValidators() throws {
        let log = EventLog()
        let monitor = recordingMonitor(log)
        monitor.requestDidValidateRequestResponseDataWithResult = { _, _, response, _, result in
            log.record("validate \(response.statusCode) \((try? result.get()) != nil)")
        }
        let session = monitorSession(monitors: [monitor])
        for path in ["/json", "/status/404"] {
            let done = expectation(description: path)
            session.request(try TestServers.shared.url(.httpbin, path)).validate().response(queue: .global()) { _ in done.fulfill() }
            wait(for: [done], timeout: 10)
        }
        monitor.queue.sync {}
        XCTAssertEqual(log.events.filter { $0.hasPrefix("validate") }, ["validate 200 true", "validate 200 true", "validate 404 false"])
    }

    func testSerializedStreamsReportEachParsedValue() throws {
        let monitor = ParsedStreamCounter()
        let session = monitorSession(monitors: [monitor])
        struct Line: Decodable, Sendable { let id: Int }
        let ids = Mutex<[Int]>([])
        let done = expectation(description: "stream complete")
        session.streamRequest(try TestServers.shared.url(.httpbin, "/stream/3"))
            .responseStreamDecodableLines(of: Line.self, on: DispatchQueue(label: "test.stream.lines")) { stream in
                if case let .stream(.success(line)) = stream.event { ids.withLock { $0.append(line.id) } }
                if stream.completion != nil { done.fulfill() }
            }
        withExtendedLifetime(session) { wait(for: [done], timeout: 10) }
        monitor.queue.sync {}
        XCTAssertEqual(ids.withLock { $0 }, [0, 1, 2])
        XCTAssertEqual(monitor.parsed, 3)
    }

    func testPlainURLRequestStillReportsResumeAttemptAndFinish() throws {
        let log = EventLog()
        let finished = expectation(description: "requestDidFinish")
        let session = monitorSession(monitors: [recordingMonitor(log, finished: finished)])
        session.request(try TestServers.shared.url(.nginx, "/small")).responseData { _ in }
        withExtendedLifetime(session) { wait(for: [finished], timeout: 10) }
        let events = log.events
        XCTAssertEqual(events.first, "resume")
        XCTAssertEqual(events.last, "finish")
        XCTAssertEqual(events.filter { $0 == "attempt" }.count, 1)
        XCTAssertEqual(log.eventsOnMain, [])
    }

    func testEveryMonitorReceivesEventsOnItsOwnQueue() throws {
        let queue = DispatchQueue(label: "test.monitor.own")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "own")
        let onOwnQueue = Mutex<[Bool]>([])
        let finished = expectation(description: "both monitors")
        finished.expectedFulfillmentCount = 2
        let own = ClosureEventMonitor(queue: queue)
        own.requestDidResume = { _ in onOwnQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == "own") } }
        own.requestDidFinish = { _ in
            onOwnQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == "own") }
            finished.fulfill()
        }
        let other = ClosureEventMonitor()
        other.requestDidFinish = { _ in finished.fulfill() }
        let session = monitorSession(monitors: [own, other])
        session.request(try TestServers.shared.url(.nginx, "/small")).responseData { _ in }
        withExtendedLifetime(session) { wait(for: [finished], timeout: 10) }
        XCTAssertEqual(onOwnQueue.withLock { $0 }, [true, true])
    }

    func testSuspendResumeAndCancelAreReported() throws {
        let log = EventLog()
        let finished = expectation(description: "requestDidFinish")
        let responded = expectation(description: "response")
        let session = monitorSession(monitors: [recordingMonitor(log, finished: finished)], startRequestsImmediately: false)
        // The fault server never answers here, so the request is still running when cancelled.
        let request = session.request(try TestServers.shared.url(.fault, "/stall-headers"))
        request.responseData { response in
            XCTAssertEqual(response.error?.isExplicitlyCancelledError, true)
            responded.fulfill()
        }
        request.resume()
        request.suspend()
        request.resume()
        request.cancel()
        withExtendedLifetime(session) { wait(for: [finished, responded], timeout: 10) }
        let events = log.events
        let lifecycle = events.filter { ["resume", "suspend", "cancel", "finish"].contains($0) }
        XCTAssertEqual(Array(lifecycle.prefix(3)), ["resume", "suspend", "resume"])
        XCTAssertEqual(events.filter { $0 == "cancel" }.count, 1)
        XCTAssertEqual(events.last, "finish")
        XCTAssertEqual(events.filter { $0 == "finish" }.count, 1)
        XCTAssertLessThan(events.firstIndex(of: "cancel")!, events.firstIndex(of: "finish")!)
        XCTAssertEqual(request.state, .cancelled)
    }

    func testRetriesAndAdaptationAreReported() throws {
        let log = EventLog()
        let finished = expectation(description: "requestDidFinish")
        let interceptor = Interceptor(adapters: [Adapter { request, _, completion in completion(.success(request)) }],
                                      retriers: [RetryPolicy(exponentialBackoffScale: 0.001)])
        let session = monitorSession(monitors: [recordingMonitor(log, finished: finished)], interceptor: interceptor)
        let url = try TestServers.shared.url(.fault, "/fail-twice?key=\(UUID().uuidString)")
        session.request(url).validate().responseData { _ in }
        withExtendedLifetime(session) { wait(for: [finished], timeout: 30) }
        let events = log.events
        XCTAssertEqual(events.filter { $0 == "adapt" }.count, 3, "every attempt is adapted: \(events)")
        XCTAssertEqual(events.filter { $0 == "metrics" }.count, 3)
        XCTAssertEqual(events.filter { $0 == "failedAttempt" }.count, 2)
        XCTAssertEqual(events.filter { $0 == "retrying" }.count, 2)
        XCTAssertEqual(events.filter { $0 == "attempt" }.count, 1)
        XCTAssertEqual(events.filter { $0 == "finish" }.count, 1)
        XCTAssertEqual(events.last, "finish")
        XCTAssertEqual(log.eventsOnMain, [])
    }

    func testFailedAdaptationIsReported() throws {
        struct Refused: Error {}
        let log = EventLog()
        let finished = expectation(description: "requestDidFinish")
        let session = monitorSession(monitors: [recordingMonitor(log, finished: finished)],
                                  interceptor: Adapter { _, _, completion in completion(.failure(Refused())) })
        session.request(try TestServers.shared.url(.httpbin, "/get")).responseData { _ in }
        withExtendedLifetime(session) { wait(for: [finished], timeout: 10) }
        // The failed adaptation is offered to the retriers (none here) as a failed attempt.
        XCTAssertEqual(log.events, ["resume", "createInitialURLRequest", "failToAdapt", "failedAttempt", "finish"])
    }

    func testClosuresCanBeReplacedWhileRunning() throws {
        let monitor = ClosureEventMonitor()
        let first = Mutex(0)
        let second = Mutex(0)
        monitor.requestDidFinish = { _ in first.withLock { $0 += 1 } }
        XCTAssertNotNil(monitor.requestDidFinish)
        monitor.requestDidFinish = { _ in second.withLock { $0 += 1 } }
        let finished = expectation(description: "finished")
        monitor.requestDidFinish = { [previous = monitor.requestDidFinish] request in
            previous?(request)
            finished.fulfill()
        }
        let session = monitorSession(monitors: [monitor])
        session.request(try TestServers.shared.url(.nginx, "/small")).responseData { _ in }
        withExtendedLifetime(session) { wait(for: [finished], timeout: 10) }
        XCTAssertEqual(first.withLock { $0 }, 0)
        XCTAssertEqual(second.withLock { $0 }, 1)
        monitor.requestDidFinish = nil
        XCTAssertNil(monitor.requestDidFinish)
    }
}

/// Counts `request(_:didParseStream:)` events, which only a monitor of one's own can hear.
private final class ParsedStreamCounter: EventMonitor {
    let queue = DispatchQueue(label: "test.monitor.parsed-stream")
    private let count = Mutex(0)

    var parsed: Int { count.withLock { $0 } }

    func request<Value>(_ request: DataStreamRequest, didParseStream result: Result<Value, AFError>) {
        count.withLock { $0 += 1 }
    }
}
