import XCTest
import Salvo
import SalvoTestSupport

/// `Session.RequestSetup`: a lazy session (the default) builds and adapts a request on its
/// first resume; an eager one at once, sending the prepared attempt on the first resume.
final class RequestSetupTests: XCTestCase {
    /// An adapter that counts its calls and adds a header.
    private func countingAdapter(_ calls: Collector<Int>, adapted: XCTestExpectation? = nil) -> Adapter {
        Adapter { request, _, completion in
            calls.append(1)
            var request = request
            request.headers.add(name: "X-Adapted", value: "yes")
            adapted?.fulfill()
            completion(.success(request))
        }
    }

    private func session(_ setUp: Session.RequestSetup) -> Session {
        Session(startRequestsImmediately: false, requestSetup: setUp, responseQueue: DispatchQueue(label: "test.responses"))
    }

    func testSessionsSetRequestsUpLazilyByDefault() {
        XCTAssertEqual(Session().requestSetup, .lazy)
    }

    /// Lazy: nothing is built or adapted before the first resume, even while the session
    /// runs another request to its end.
    func testALazyRequestIsInertUntilResumed() throws {
        let session = session(.lazy)
        let calls = Collector<Int>()
        let url = try TestServers.shared.url(.httpbin, "/headers")
        let request = session.request(url, interceptor: countingAdapter(calls))
        XCTAssertEqual(awaitData(session.request(url).resume()).response?.statusCode, 200)
        XCTAssertEqual(calls.values.count, 0)
        XCTAssertNil(request.request)
        XCTAssertTrue(request.isInitialized)
        let response = awaitData(request.resume())
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertEqual(calls.values.count, 1)
    }

    /// Eager: the request is built and adapted before anyone resumes it, sends nothing until
    /// then, and goes out once on its resume.
    func testAnEagerRequestIsAdaptedAtOnceAndSentOnResume() throws {
        let session = session(.eager)
        let calls = Collector<Int>()
        let adapted = expectation(description: "adapted")
        let request = session.request(try TestServers.shared.url(.httpbin, "/headers"), interceptor: countingAdapter(calls, adapted: adapted))
        wait(for: [adapted], timeout: 10)
        XCTAssertTrue(request.isInitialized)
        XCTAssertNil(request.response)
        let response = awaitData(request.resume())
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertEqual(calls.values.count, 1, "adapted once, at set-up")
        XCTAssertEqual(response.request?.headers["X-Adapted"], "yes")
        let echoed = try JSONSerialization.jsonObject(with: response.data ?? Data()) as? [String: [String: String]]
        XCTAssertEqual(echoed?["headers"]?["X-Adapted"], "yes", "the adapted request went out")
    }

    /// Eager, cancelled before its first resume: the prepared attempt is dropped, unsent, and
    /// the request ends once with `explicitlyCancelled`.
    func testAnEagerRequestCancelledBeforeItsResumeEndsCancelled() throws {
        let session = session(.eager)
        let calls = Collector<Int>()
        let adapted = expectation(description: "adapted")
        let request = session.request(try TestServers.shared.url(.httpbin, "/get"), interceptor: countingAdapter(calls, adapted: adapted))
        wait(for: [adapted], timeout: 10)
        request.cancel()
        let response = awaitData(request)
        XCTAssertEqual(response.error?.isExplicitlyCancelledError, true, String(describing: response.error))
        XCTAssertNil(response.response)
        XCTAssertTrue(request.isCancelled)
    }

    /// Eager: what is added to the request after its set-up (a credential, an
    /// `onHTTPResponse` handler) still applies to the first attempt, which takes them when it
    /// is sent, on the first resume.
    func testAnEagerRequestTakesWhatWasAddedAfterItsSetUp() throws {
        let session = session(.eager)
        let calls = Collector<Int>()
        let adapted = expectation(description: "adapted")
        let request = session.request(try TestServers.shared.url(.httpbin, "/basic-auth/ada/secret"),
                                      interceptor: countingAdapter(calls, adapted: adapted))
        wait(for: [adapted], timeout: 10)
        let statuses = Collector<Int>()
        request.authenticate(username: "ada", password: "secret")
            .onHTTPResponse(on: .global()) { response in statuses.append(response.statusCode) }
        let response = awaitData(request.resume())
        XCTAssertEqual(response.response?.statusCode, 200, String(describing: response.error))
        XCTAssertEqual(statuses.values.last, 200)
    }

    /// Eager, never resumed: the request finishes with `sessionDeinitialized` when its
    /// session goes, as Alamofire's do.
    func testAnEagerRequestNeverResumedEndsWithItsSession() throws {
        var session: Session? = session(.eager)
        let calls = Collector<Int>()
        let adapted = expectation(description: "adapted")
        let request = try XCTUnwrap(session).request(try TestServers.shared.url(.httpbin, "/get"),
                                                     interceptor: countingAdapter(calls, adapted: adapted))
        wait(for: [adapted], timeout: 10)
        let done = expectation(description: "finished")
        let box = Box<AFDataResponse<Data>>()
        request.responseData(queue: .global()) { response in
            box.set(response)
            done.fulfill()
        }
        session = nil
        wait(for: [done], timeout: 10)
        XCTAssertEqual(box.value?.error?.isSessionDeinitializedError, true, String(describing: box.value?.error))
        let task = try XCTUnwrap(request.task, "the task made at set-up outlives the session")
        XCTAssertEqual(task.state, .completed)
    }

    /// Eager with a session that starts requests immediately: the first handler resumes the
    /// prepared request, as in Alamofire before 5.11.
    func testAnEagerRequestStartsWithItsFirstHandler() throws {
        let session = Session(requestSetup: .eager, responseQueue: DispatchQueue(label: "test.responses"))
        let calls = Collector<Int>()
        let adapted = expectation(description: "adapted")
        let request = session.request(try TestServers.shared.url(.httpbin, "/get"), interceptor: countingAdapter(calls, adapted: adapted))
        // Set up before any handler exists, which a lazy session would not do.
        wait(for: [adapted], timeout: 10)
        XCTAssertTrue(request.isInitialized)
        let response = awaitData(request)
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertEqual(calls.values.count, 1)
    }

    /// Eager, never resumed: as in Alamofire, the request and its task exist after set-up,
    /// so `cURLDescription`, `onURLRequestCreation` and `onURLSessionTaskCreation` answer,
    /// both those added before the set-up and those added after it, and `request` is the
    /// adapted request.
    func testAnEagerRequestDescribesItselfWithoutAResume() throws {
        let session = session(.eager)
        let calls = Collector<Int>()
        let url = try TestServers.shared.url(.httpbin, "/post")
        let early = expectation(description: "cURL handler added before the set-up")
        let onRequest = expectation(description: "onURLRequestCreation")
        let onTask = expectation(description: "onURLSessionTaskCreation")
        let descriptions = Collector<String>()
        let request = session.request(url, method: .post, parameters: ["a": "1"], encoding: JSONEncoding.default,
                                      interceptor: countingAdapter(calls))
            .cURLDescription(on: .global()) { descriptions.append($0); early.fulfill() }
            .onURLRequestCreation(on: .global()) { _ in onRequest.fulfill() }
            .onURLSessionTaskCreation(on: .global()) { _ in onTask.fulfill() }
        wait(for: [early, onRequest, onTask], timeout: 10)
        let late = expectation(description: "cURL handler added after the set-up")
        request.cURLDescription(on: .global()) { descriptions.append($0); late.fulfill() }
        wait(for: [late], timeout: 10)
        XCTAssertEqual(calls.values.count, 1)
        XCTAssertTrue(request.isInitialized)
        XCTAssertEqual(request.request?.headers["X-Adapted"], "yes")
        XCTAssertEqual(request.task?.state, .suspended)
        XCTAssertEqual(descriptions.values.count, 2)
        for description in descriptions.values {
            XCTAssertTrue(description.contains("-X POST"), description)
            XCTAssertTrue(description.contains("X-Adapted: yes"), description)
            XCTAssertTrue(description.contains(#"-d "{\"a\":\"1\"}""#), description)
        }
        // Sent on its resume, once, with the same task.
        let task = request.task
        let response = awaitData(request.resume())
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertTrue(request.task === task)
        XCTAssertEqual(request.requests.count, 1)
        XCTAssertEqual(calls.values.count, 1)
    }

    /// An eager session's request (to httpbin's `/get`) that a monitor acts on 100 times when
    /// it hears of its task's creation; returns once the task was created, with the session
    /// and the monitor, which `watch` sets up further.
    private func eagerRequest(acting action: @escaping @Sendable (Request) -> Void,
                              watch: (ClosureEventMonitor) -> Void) throws -> (Session, ClosureEventMonitor, DataRequest) {
        let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.monitor"))
        let created = expectation(description: "didCreateTask")
        monitor.requestDidCreateTask = { request, _ in
            for _ in 0..<100 { action(request) }
            created.fulfill()
        }
        watch(monitor)
        let session = Session(startRequestsImmediately: false, requestSetup: .eager, eventMonitors: [monitor],
                              responseQueue: DispatchQueue(label: "test.responses"))
        let request = session.request(try TestServers.shared.url(.httpbin, "/get"))
        wait(for: [created], timeout: 10)
        return (session, monitor, request)
    }

    /// Eager, never resumed: monitors hear of the task at set-up; a request cancelled from
    /// that event, many times over, gets one cancel and one task cancel, and ends cancelled.
    func testAnEagerRequestsTaskIsAnnouncedAndCancelledOnce() throws {
        let cancels = Collector<String>()
        let (session, monitor, request) = try eagerRequest(acting: { $0.cancel() }, watch: { monitor in
            monitor.requestDidCancel = { _ in cancels.append("request") }
            monitor.requestDidCancelTask = { _, _ in cancels.append("task") }
        })
        defer { withExtendedLifetime(session) {} }
        let response = awaitData(request)
        XCTAssertEqual(response.error?.isExplicitlyCancelledError, true, String(describing: response.error))
        monitor.queue.sync {}
        XCTAssertEqual(cancels.values.sorted(), ["request", "task"])
        XCTAssertTrue(request.isCancelled)
        XCTAssertEqual(request.task?.state, .canceling)
    }

    /// Eager, never resumed: suspended many times from its task's creation, it gets one
    /// suspend and one task suspend; resumed, it is sent once.
    func testAnEagerRequestSuspendedManyTimesGetsOneSuspendPair() throws {
        let events = Collector<String>()
        let (session, monitor, request) = try eagerRequest(acting: { $0.suspend() }, watch: { monitor in
            monitor.requestDidSuspend = { _ in events.append("suspend") }
            monitor.requestDidSuspendTask = { _, _ in events.append("suspendTask") }
        })
        defer { withExtendedLifetime(session) {} }
        XCTAssertTrue(request.isSuspended)
        XCTAssertEqual(request.task?.state, .suspended)
        let response = awaitData(request.resume())
        XCTAssertEqual(response.response?.statusCode, 200)
        monitor.queue.sync {}
        XCTAssertEqual(events.values, ["suspend", "suspendTask"])
    }

    /// Eager, suspended many times before its set-up ran: one suspend, and one task suspend
    /// when the set-up makes the task of a suspended request, as Alamofire suspends the task
    /// it creates then.
    func testAnEagerRequestSuspendedBeforeItsSetUpGetsOneSuspendPair() throws {
        for _ in 0..<5 {
            let events = Collector<String>()
            let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.monitor"))
            let created = expectation(description: "didCreateTask")
            monitor.requestDidCreateTask = { _, _ in
                events.append("createTask")
                created.fulfill()
            }
            monitor.requestDidSuspend = { _ in events.append("suspend") }
            monitor.requestDidSuspendTask = { _, _ in events.append("suspendTask") }
            monitor.requestDidResume = { _ in events.append("resume") }
            monitor.requestDidCancel = { _ in events.append("cancel") }
            // The root queue is held until the suspends are done, so they surely come first.
            let root = DispatchQueue(label: "test.root")
            let gate = DispatchSemaphore(value: 0)
            root.async { gate.wait() }
            let session = Session(rootQueue: root, startRequestsImmediately: false, requestSetup: .eager, eventMonitors: [monitor])
            let request = session.request(try TestServers.shared.url(.httpbin, "/get"))
            for _ in 0..<100 { request.suspend() }
            gate.signal()
            wait(for: [created], timeout: 10)
            root.sync {}
            monitor.queue.sync {}
            XCTAssertEqual(events.values, ["suspend", "createTask", "suspendTask"])
            XCTAssertTrue(request.isSuspended)
            withExtendedLifetime(session) {}
        }
    }

    /// An eager session released right after making a request is kept until the request's
    /// task exists, as Alamofire's set-up keeps it; the request then ends with
    /// `sessionDeinitialized`, its task completed.
    func testAnEagerSessionReleasedAtOnceLivesUntilItsRequestsHaveTasks() throws {
        for _ in 0..<5 {
            let monitor = ClosureEventMonitor(queue: DispatchQueue(label: "test.monitor"))
            let created = expectation(description: "didCreateTask")
            monitor.requestDidCreateTask = { _, _ in created.fulfill() }
            var session: Session? = Session(startRequestsImmediately: false, requestSetup: .eager, eventMonitors: [monitor],
                                            responseQueue: DispatchQueue(label: "test.responses"))
            weak let gone = session
            let request = try XCTUnwrap(session).request(try TestServers.shared.url(.httpbin, "/get"))
            session = nil
            wait(for: [created], timeout: 10)
            let finished = expectation(description: "finished")
            let box = Box<AFDataResponse<Data>>()
            request.responseData(queue: .global()) { response in
                box.set(response)
                finished.fulfill()
            }
            wait(for: [finished], timeout: 10)
            XCTAssertEqual(box.value?.error?.isSessionDeinitializedError, true, String(describing: box.value?.error))
            let task = try XCTUnwrap(request.task, "the set-up made the task before the session went")
            XCTAssertTrue([URLSessionTask.State.canceling, .completed].contains(task.state))
            XCTAssertNil(gone)
        }
    }

    /// Eager downloads and uploads are adapted and described at set-up too, and sent on their
    /// first resume.
    func testEagerDownloadsAndUploadsAreSetUpBeforeTheirResume() throws {
        let session = session(.eager)
        let calls = Collector<Int>()
        let described = expectation(description: "described")
        described.expectedFulfillmentCount = 2
        let download = session.download(try TestServers.shared.url(.nginx, "/small"), interceptor: countingAdapter(calls))
            .cURLDescription(on: .global()) { _ in described.fulfill() }
        let upload = session.upload(Data("body".utf8), to: try TestServers.shared.url(.httpbin, "/post"),
                                    interceptor: countingAdapter(calls))
            .cURLDescription(on: .global()) { _ in described.fulfill() }
        wait(for: [described], timeout: 10)
        XCTAssertEqual(calls.values.count, 2)
        XCTAssertEqual(download.task?.state, .suspended)
        XCTAssertEqual(upload.request?.headers["X-Adapted"], "yes")

        let file = awaitDownload(download.resume())
        XCTAssertNil(file.error)
        if let url = file.fileURL {
            XCTAssertEqual(try Data(contentsOf: url), try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("small")))
            try? FileManager.default.removeItem(at: url)
        }
        XCTAssertEqual(awaitData(upload.resume()).response?.statusCode, 200)
        XCTAssertEqual(calls.values.count, 2, "each adapted once, at set-up")
    }
}
