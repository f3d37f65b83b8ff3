import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTestSupport

/// A `SessionDelegate` subclass written against Alamofire's `urlSession` methods (the seed's
/// own, but recording instead of printing).
private final class RecordingSessionDelegate: SessionDelegate, @unchecked Sendable { // `redirects` and `completions` are Mutexes
    let redirects = Mutex<[(task: URLSessionTask, target: URL?)]>([])
    let completions = Mutex<[(any Error)?]>([])

    override func urlSession(_ session: URLSession, task: URLSessionTask,
                             willPerformHTTPRedirection response: HTTPURLResponse,
                             newRequest request: URLRequest,
                             completionHandler: @escaping (URLRequest?) -> Void) {
        redirects.withLock { $0.append((task, request.url)) }
        super.urlSession(session, task: task, willPerformHTTPRedirection: response,
                         newRequest: request, completionHandler: completionHandler)
    }

    override func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        completions.withLock { $0.append(error) }
        super.urlSession(session, task: task, didCompleteWithError: error)
    }
}

/// Records where a download's complete file was when the delegate heard of it, and whether
/// it was there.
private final class DownloadWatchingDelegate: SessionDelegate, @unchecked Sendable { // `finished` is a Mutex
    let finished = Mutex<[(task: URLSessionDownloadTask, location: URL, size: Int?)]>([])

    override func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let size = (try? FileManager.default.attributesOfItem(atPath: location.path))?[.size] as? Int
        finished.withLock { $0.append((downloadTask, location, size)) }
    }
}

/// The `URLSessionTask`s Salvo hands out, one per attempt, and the `SessionDelegate` methods
/// that take them, against httpbin.
final class RequestTaskTests: XCTestCase {
    private let queue = DispatchQueue(label: "test.tasks.responses")

    func testTheSeedsDelegateSeesEveryFollowedRedirectWithTheAttemptsTask() throws {
        let delegate = RecordingSessionDelegate()
        let session = Session(delegate: delegate, responseQueue: queue)
        let url = try TestServers.shared.url(.httpbin, "/redirect/3")
        let request = session.request(url)
        let response = awaitData(request.validate())
        XCTAssertNil(response.error)
        XCTAssertEqual(response.response?.url?.path, "/get", "the default still follows")
        let redirects = delegate.redirects.withLock { $0 }
        XCTAssertEqual(redirects.count, 3)
        XCTAssertEqual(redirects.last?.target?.path, "/get")
        let task = try XCTUnwrap(request.task)
        XCTAssertTrue(redirects.allSatisfy { $0.task === task }, "an attempt's hops share its task")
        XCTAssertTrue(task is RequestDataTask)
        XCTAssertTrue((task as? RequestDataTask)?.request === request)
        XCTAssertEqual(task.originalRequest?.url, url)
        XCTAssertEqual(task.currentRequest?.url?.path, "/get")
        XCTAssertEqual((task.response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual(task.state, .completed)
        XCTAssertEqual(delegate.completions.withLock { $0.count }, 1)
        XCTAssertNil(delegate.completions.withLock { $0.first } ?? nil)
        XCTAssertTrue(session.session === session.session, "one URLSession per session")
    }

    /// As with Alamofire, a delegate subclass hears of a download's complete file, at its
    /// temporary location, before the request moves it to its destination.
    func testTheDelegateHearsOfTheDownloadedFileBeforeItIsMoved() throws {
        let delegate = DownloadWatchingDelegate()
        let session = Session(delegate: delegate, responseQueue: queue)
        let request = session.download(try TestServers.shared.url(.nginx, "/100k.bin"))
        let response = awaitDownload(request)
        defer { response.fileURL.map { try? FileManager.default.removeItem(at: $0) } }
        XCTAssertNil(response.error, String(describing: response.error))
        let finished = delegate.finished.withLock { $0 }
        XCTAssertEqual(finished.count, 1)
        XCTAssertEqual(finished.first?.size, 100 << 10, "the file was complete where the delegate was told it is")
        XCTAssertNotEqual(finished.first?.location, response.fileURL, "told before the move")
        XCTAssertTrue(finished.first?.task === request.task)
    }

    func testATransportErrorReachesTheDelegateAsTheURLError() throws {
        let delegate = RecordingSessionDelegate()
        let session = Session(delegate: delegate, responseQueue: queue)
        let response = awaitData(session.request("http://127.0.0.1:1/refused"))
        XCTAssertNotNil(response.error)
        let reported = delegate.completions.withLock { $0.first } ?? nil
        XCTAssertEqual((reported as? URLError)?.code, .cannotConnectToHost)
    }

    func testAnAttemptEndedByTooManyRedirectsReachesTheDelegateOnce() throws {
        let delegate = RecordingSessionDelegate()
        let session = Session(delegate: delegate, responseQueue: queue)
        let response = awaitData(session.request(try TestServers.shared.url(.httpbin, "/redirect/20")))
        XCTAssertEqual(urlErrorCode(response.error), .httpTooManyRedirects)
        let completions = delegate.completions.withLock { $0 }
        XCTAssertEqual(completions.count, 1)
        XCTAssertEqual((completions.first as? URLError)?.code, .httpTooManyRedirects)
    }

    func testEachAttemptHasItsOwnTaskAndIdentifier() throws {
        let session = Session(responseQueue: queue)
        let created = Mutex<[Int]>([])
        let request = session.request(try TestServers.shared.url(.httpbin, "/status/500"), interceptor: RetryPolicy(retryLimit: 1, exponentialBackoffBase: 2, exponentialBackoffScale: 0))
            .onURLSessionTaskCreation(on: queue) { task in created.withLock { $0.append(task.taskIdentifier) } }
        _ = awaitData(request.validate())
        let tasks = request.tasks
        XCTAssertEqual(tasks.count, 2)
        XCTAssertTrue(request.firstTask === tasks.first && request.lastTask === tasks.last)
        XCTAssertNotEqual(tasks[0].taskIdentifier, tasks[1].taskIdentifier)
        XCTAssertTrue(tasks.allSatisfy { $0.state == .completed })
        queue.sync {}
        XCTAssertEqual(created.withLock { $0 }, tasks.map(\.taskIdentifier), "one creation call per attempt")
    }

    func testDownloadsAndUploadsHaveTheirKindsOfTask() throws {
        let session = Session(responseQueue: queue)
        let done = expectation(description: "both")
        done.expectedFulfillmentCount = 2
        let download = session.download(try TestServers.shared.url(.nginx, "/small"))
        download.response(queue: queue) { response in
            if let url = response.fileURL { try? FileManager.default.removeItem(at: url) }
            done.fulfill()
        }
        let upload = session.upload(Data("x".utf8), to: try TestServers.shared.url(.httpbin, "/post"))
        upload.response(queue: queue) { _ in done.fulfill() }
        wait(for: [done], timeout: 30)
        XCTAssertTrue(download.task is RequestDownloadTask)
        XCTAssertTrue(upload.task is RequestUploadTask)
    }

    func testCancellingTheTaskCancelsTheRequest() throws {
        let session = Session(responseQueue: queue)
        let started = expectation(description: "task")
        let request = session.request(try TestServers.shared.url(.httpbin, "/delay/5"))
            .onURLSessionTaskCreation(on: queue) { task in
                task.cancel()
                started.fulfill()
            }
        let response = awaitData(request)
        wait(for: [started], timeout: 5)
        XCTAssertTrue(response.error?.isExplicitlyCancelledError == true)
        XCTAssertEqual(request.state, .cancelled)
    }

    func testASessionMadeFromAURLSessionReadsItsConfiguration() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 7
        let urlSession = URLSession(configuration: configuration)
        let session = Session(session: urlSession, delegate: SessionDelegate(), rootQueue: DispatchQueue(label: "test.root"))
        XCTAssertTrue(session.session === urlSession)
        XCTAssertEqual(session.sessionConfiguration.timeoutIntervalForRequest, 7)
    }

    func testTheSessionsURLSessionHasTheSessionsDelegate() {
        let plain = Session()
        XCTAssertTrue(plain.session.delegate === plain.delegate)
        let delegate = RecordingSessionDelegate()
        let root = DispatchQueue(label: "test.root")
        let specified = Session(configuration: .ephemeral, delegate: delegate, rootQueue: root)
        XCTAssertTrue(specified.session.delegate === delegate)
        XCTAssertTrue(specified.session.delegateQueue.underlyingQueue === root)
        let given = URLSession(configuration: .default, delegate: delegate, delegateQueue: OperationQueue())
        XCTAssertTrue(Session(session: given, delegate: delegate, rootQueue: root).session.delegate === delegate)
    }

    func testMonitorsHearAlamofiresTaskEventsOncePerAttempt() throws {
        let events = Mutex<[String]>([])
        let finished = expectation(description: "finished")
        let monitor = ClosureEventMonitor()
        monitor.requestDidCreateTask = { _, task in events.withLock { $0.append("create \(task.taskIdentifier)") } }
        monitor.requestDidResumeTask = { _, task in events.withLock { $0.append("resume \(task.taskIdentifier)") } }
        monitor.requestDidCompleteTaskWithError = { _, task, error in
            events.withLock { $0.append("complete \(task.taskIdentifier) \(error == nil ? "ok" : "error")") }
        }
        monitor.requestDidFinish = { _ in finished.fulfill() }
        let session = Session(eventMonitors: [monitor], responseQueue: queue)
        let request = session.request(try TestServers.shared.url(.httpbin, "/status/500"),
                                      interceptor: RetryPolicy(retryLimit: 1, exponentialBackoffBase: 2, exponentialBackoffScale: 0))
        _ = awaitData(request.validate())
        wait(for: [finished], timeout: 10)
        let ids = request.tasks.map(\.taskIdentifier)
        XCTAssertEqual(ids.count, 2)
        XCTAssertEqual(events.withLock { $0 }, ids.flatMap { ["create \($0)", "resume \($0)", "complete \($0) error"] })
    }

    func testMonitorsHearTheTaskSuspendedResumedAndCancelled() throws {
        let events = Mutex<[String]>([])
        let cancelled = expectation(description: "cancel event")
        let monitor = ClosureEventMonitor()
        monitor.requestDidSuspendTask = { _, _ in events.withLock { $0.append("suspend") } }
        monitor.requestDidResumeTask = { _, _ in events.withLock { $0.append("resume") } }
        monitor.requestDidCancelTask = { _, _ in
            events.withLock { $0.append("cancel") }
            cancelled.fulfill()
        }
        let session = Session(eventMonitors: [monitor], responseQueue: queue)
        let started = expectation(description: "task")
        let request = session.request(try TestServers.shared.url(.httpbin, "/delay/5"))
            .onURLSessionTaskCreation(on: queue) { _ in started.fulfill() }
        request.response(queue: queue) { _ in }
        wait(for: [started], timeout: 5)
        request.suspend()
        request.resume()
        request.cancel()
        wait(for: [cancelled], timeout: 5)
        XCTAssertEqual(events.withLock { $0 }, ["resume", "suspend", "resume", "cancel"])
    }

    func testARedirectHandlerWrittenForAlamofireReceivesTheAttemptsTask() throws {
        let session = Session(responseQueue: queue)
        let seen = Mutex<[URL?]>([])
        let handler = TaskRedirectHandler { task, request in
            seen.withLock { $0.append(task.originalRequest?.url) }
            return request.url?.host == task.originalRequest?.url?.host ? request : nil
        }
        let sameHost = try TestServers.shared.url(.httpbin, "/redirect/1")
        XCTAssertEqual(awaitData(session.request(sameHost).redirect(using: handler)).response?.url?.path, "/get")
        var otherHost = URLComponents(url: try TestServers.shared.url(.httpbin, "/get"), resolvingAgainstBaseURL: false)!
        otherHost.host = "localhost"
        let away = try TestServers.shared.url(.httpbin, "/redirect-to?url=\(otherHost.url!.absoluteString)")
        XCTAssertEqual(awaitData(session.request(away).redirect(using: handler)).response?.statusCode, 302, "refused: the redirect is the answer")
        XCTAssertEqual(seen.withLock { $0 }, [sameHost, away])
    }
}

/// A `RedirectHandler` that implements only Alamofire's `URLSessionTask` method.
private struct TaskRedirectHandler: RedirectHandler {
    let decide: @Sendable (URLSessionTask, URLRequest) -> URLRequest?

    func task(_ task: URLSessionTask, willBeRedirectedTo request: URLRequest, for response: HTTPURLResponse,
              completion: @escaping (URLRequest?) -> Void) {
        completion(decide(task, request))
    }
}
