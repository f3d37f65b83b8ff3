import Foundation
import Synchronization
import XCTest
import Salvo

/// What a long-running server needs: nothing a finished request or a released session used
/// stays alive. Each test keeps weak references and waits, with a deadline, until they are
/// gone (the last references drop on other threads just after the handlers return).
final class LifetimeTests: XCTestCase {
    /// A weak reference that can be handed to other threads.
    private final class Weak<Object: AnyObject>: @unchecked Sendable { // `object` is written once, before sharing
        weak var object: Object?
        init(_ object: Object) { self.object = object }
    }

    private func waitUntilGone<Object: AnyObject>(_ references: [Weak<Object>], _ what: String,
                                                   file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(10)
        while references.contains(where: { $0.object != nil }) && Date() < deadline {
            usleep(10_000)
        }
        let alive = references.filter { $0.object != nil }.count
        XCTAssertEqual(alive, 0, "\(alive) of \(references.count) \(what) still alive", file: file, line: line)
    }

    /// Requests of every kind, finished or cancelled, are freed once their handlers ran.
    func testFinishedAndCancelledRequestsAreFreed() throws {
        let session = testSession()
        let small = try TestServers.shared.url(.nginx, "/small")
        var requests: [Weak<Request>] = []
        let done = expectation(description: "handlers")
        done.expectedFulfillmentCount = 50
        for index in 0..<10 {
            let data = session.request(small).validate()
            data.responseData(queue: .global()) { _ in done.fulfill() }
            let cancelled = session.request(try TestServers.shared.url(.fault, "/stall"))
            cancelled.response(queue: .global()) { _ in done.fulfill() }
            cancelled.cancel()
            let target = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-lifetime-\(UUID().uuidString)")
            let download = session.download(small, to: { _, _ in (target, []) })
            download.response(queue: .global()) { response in
                try? FileManager.default.removeItem(at: target)
                done.fulfill()
            }
            let stream = session.streamRequest(small)
            stream.responseStream(on: .global()) { event in
                if event.completion != nil { done.fulfill() }
            }
            let upload = session.upload(Data("x\(index)".utf8), to: try TestServers.shared.url(.nginx, "/upload"))
            upload.response(queue: .global()) { _ in done.fulfill() }
            requests += [Weak(data), Weak(cancelled), Weak(download), Weak(stream), Weak(upload)]
        }
        wait(for: [done], timeout: 30)
        waitUntilGone(requests, "requests")
    }

    /// A request whose `URLSessionTask` was made (a monitor, a delegate subclass or a read of
    /// `task`) is freed with its task: the attempt keeps the task, which looks back weakly.
    func testRequestsWhoseTasksWereMadeAreFreedWithTheirTasks() throws {
        let tasks = Mutex<[Weak<URLSessionTask>]>([])
        let monitor = ClosureEventMonitor()
        monitor.requestDidCreateTask = { _, task in tasks.withLock { $0.append(Weak(task)) } }
        let session = Session(eventMonitors: [monitor], responseQueue: DispatchQueue(label: "test.lifetime.tasks"))
        var requests: [Weak<Request>] = []
        let done = expectation(description: "handlers")
        done.expectedFulfillmentCount = 10
        for _ in 0..<10 {
            let request = session.request(try TestServers.shared.url(.nginx, "/small"))
            request.response(queue: .global()) { _ in done.fulfill() }
            requests.append(Weak(request))
        }
        wait(for: [done], timeout: 30)
        waitUntilGone(requests, "requests")
        monitor.queue.sync {}
        let made = tasks.withLock { $0 }
        XCTAssertEqual(made.count, 10)
        waitUntilGone(made, "tasks")
    }

    /// Requests with a retrier, whose serializers run when an attempt succeeds, are freed
    /// too: the serializations hold the request as the handlers do, and go with them.
    func testRequestsWithARetrierAreFreed() throws {
        let session = Session(interceptor: RetryPolicy(), responseQueue: DispatchQueue(label: "test.lifetime.retrier"))
        var requests: [Weak<Request>] = []
        let done = expectation(description: "handlers")
        done.expectedFulfillmentCount = 10
        for _ in 0..<10 {
            let request = session.request(try TestServers.shared.url(.nginx, "/small"))
            request.responseData(queue: .global()) { _ in done.fulfill() }
            requests.append(Weak(request))
        }
        wait(for: [done], timeout: 30)
        waitUntilGone(requests, "requests")
    }

    /// The async forms free their requests too, also when the task is cancelled.
    func testRequestsAwaitedFromTasksAreFreed() async throws {
        let session = testSession()
        let small = try TestServers.shared.url(.nginx, "/small")
        var requests: [Weak<Request>] = []
        for _ in 0..<10 {
            let request = session.request(small)
            requests.append(Weak(request))
            _ = try await request.serializingData().value
            let stalled = session.request(try TestServers.shared.url(.fault, "/stall"))
            requests.append(Weak(stalled))
            let task = Task { try await stalled.serializingData().value }
            task.cancel()
            _ = await task.result
        }
        waitUntilGone(requests, "requests")
    }

    /// Requests suspended or cancelled before they were ever resumed, then dropped, are freed:
    /// their Alamofire notifications (posted by default) keep nothing of them.
    func testRequestsSuspendedOrCancelledBeforeResumingAreFreed() throws {
        // No handler is added, so nothing resumes them.
        let session = testSession()
        let small = try TestServers.shared.url(.nginx, "/small")
        var requests: [Weak<Request>] = []
        for index in 0..<10 {
            let request = session.request(small)
            if index.isMultiple(of: 2) { request.suspend() } else { request.cancel() }
            requests.append(Weak(request))
        }
        waitUntilGone(requests, "requests")
    }

    /// A session released with requests in flight goes, with its requests, once they have
    /// completed with `sessionDeinitialized` or a cancel.
    func testAReleasedSessionIsFreedWithItsRequests() throws {
        var session: Session? = testSession()
        let sessionReference = Weak(session!)
        var requests: [Weak<Request>] = []
        let done = expectation(description: "handlers")
        done.expectedFulfillmentCount = 5
        for _ in 0..<5 {
            let request = session!.request(try TestServers.shared.url(.fault, "/stall"))
            request.response(queue: .global()) { _ in done.fulfill() }
            requests.append(Weak(request))
        }
        session = nil
        wait(for: [done], timeout: 30)
        waitUntilGone([sessionReference], "sessions")
        waitUntilGone(requests, "requests")
    }

    /// A session that goes away tells its delegate, a subclass written for Alamofire, that its
    /// URLSession became invalid, as Alamofire's `deinit` does through URLSession.
    func testAGoneSessionTellsItsDelegateItBecameInvalid() throws {
        final class InvalidationDelegate: SessionDelegate, @unchecked Sendable {  // the expectation is Sendable; no state of its own
            let invalidated: XCTestExpectation
            init(invalidated: XCTestExpectation) {
                self.invalidated = invalidated
                super.init()
            }
            override func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
                XCTAssertNil(error)
                invalidated.fulfill()
            }
        }
        let invalidated = expectation(description: "didBecomeInvalid")
        var session: Session? = Session(delegate: InvalidationDelegate(invalidated: invalidated),
                                        responseQueue: DispatchQueue(label: "test.responses"))
        let response = awaitData(try XCTUnwrap(session).request(try TestServers.shared.url(.nginx, "/small")))
        XCTAssertEqual(response.response?.statusCode, 200)
        session = nil
        wait(for: [invalidated], timeout: 10)
    }

    /// A gone session's event monitors hear it became invalid too, through the delegate's
    /// default, as Alamofire's monitors do; a `ClosureEventMonitor`'s closure is called.
    func testAGoneSessionTellsItsMonitorsItBecameInvalid() throws {
        let invalidated = expectation(description: "sessionDidBecomeInvalidWithError")
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.monitor"))
        monitor.sessionDidBecomeInvalidWithError = { _, error in
            XCTAssertNil(error)
            invalidated.fulfill()
        }
        var session: Session? = Session(eventMonitors: [monitor])
        let response = awaitData(try XCTUnwrap(session).request(try TestServers.shared.url(.nginx, "/small")))
        XCTAssertEqual(response.response?.statusCode, 200)
        session = nil
        wait(for: [invalidated], timeout: 10)
    }
}
