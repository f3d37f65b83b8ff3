import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTestSupport

/// Alamofire's URLSession-level monitor events that Salvo has a counterpart for, through
/// `ClosureEventMonitor`'s closures, against httpbin and nginx.
final class URLSessionMonitorEventTests: XCTestCase {
    private let queue = DispatchQueue(label: "test.monitor.responses")

    /// Each redirect response, then the attempt's end, with the attempt's task.
    func testRedirectsAndTheAttemptsEndReachTheURLSessionClosures() throws {
        let events = Mutex<[String]>([])
        let finished = expectation(description: "finished")
        let monitor = ClosureEventMonitor()
        monitor.taskWillPerformHTTPRedirection = { _, task, response, request in
            events.withLock { $0.append("redirect \(task.taskIdentifier) \(response.statusCode) \(request.url?.path ?? "")") }
        }
        monitor.taskDidComplete = { _, task, error in
            events.withLock { $0.append("complete \(task.taskIdentifier) \(error == nil ? "ok" : "error")") }
        }
        monitor.requestDidFinish = { _ in finished.fulfill() }
        let session = Session(eventMonitors: [monitor], responseQueue: queue)
        let request = session.request(try TestServers.shared.url(.httpbin, "/redirect/2"))
        XCTAssertNil(awaitData(request.validate()).error)
        wait(for: [finished], timeout: 10)
        let id = try XCTUnwrap(request.task?.taskIdentifier)
        XCTAssertEqual(events.withLock { $0 }, ["redirect \(id) 302 /relative-redirect/1", "redirect \(id) 302 /get", "complete \(id) ok"])
    }

    /// A transport error reaches `taskDidComplete` as URLSession reports it: the URLError.
    func testATransportErrorReachesTaskDidCompleteAsTheURLError() throws {
        let errors = Mutex<[(any Error)?]>([])
        let finished = expectation(description: "finished")
        let monitor = ClosureEventMonitor()
        monitor.taskDidComplete = { _, _, error in errors.withLock { $0.append(error) } }
        monitor.requestDidFinish = { _ in finished.fulfill() }
        let session = Session(eventMonitors: [monitor], responseQueue: queue)
        XCTAssertNotNil(awaitData(session.request(try TestServers.shared.url(.fault, "/reset"))).error)
        wait(for: [finished], timeout: 10)
        let reported = errors.withLock { $0 }
        XCTAssertEqual(reported.count, 1)
        XCTAssertNotNil(reported.first.flatMap { $0 as? URLError }, String(describing: reported))
    }

    /// A download's progress reaches `downloadTaskDidWriteData` as URLSession reports it:
    /// increments that add up to the file, the last one with everything written.
    func testADownloadsProgressReachesDownloadTaskDidWriteData() throws {
        let writes = Mutex<[(written: Int64, total: Int64, expected: Int64)]>([])
        let whole = expectation(description: "the whole file written")
        whole.assertForOverFulfill = false
        let monitor = ClosureEventMonitor()
        monitor.downloadTaskDidWriteData = { _, _, written, total, expected in
            writes.withLock { $0.append((written, total, expected)) }
            if total == expected { whole.fulfill() }
        }
        let session = Session(eventMonitors: [monitor], responseQueue: queue)
        let response = awaitDownload(session.download(try TestServers.shared.url(.nginx, "/1m.bin")))
        defer { response.fileURL.map { try? FileManager.default.removeItem(at: $0) } }
        XCTAssertNil(response.error, String(describing: response.error))
        wait(for: [whole], timeout: 10)
        let seen = writes.withLock { $0 }
        XCTAssertFalse(seen.isEmpty)
        XCTAssertEqual(seen.map(\.written).reduce(0, +), 1 << 20, "the increments add up to the file")
        XCTAssertEqual(seen.last?.total, 1 << 20)
        XCTAssertTrue(seen.allSatisfy { $0.expected == 1 << 20 })
    }

    /// An upload's progress reaches `taskDidSendBodyData`, and a delegate subclass's
    /// `urlSession(_:task:didSendBodyData:...)`, up to the whole body.
    func testAnUploadsProgressReachesTaskDidSendBodyData() throws {
        let sent = Mutex<[(sent: Int64, total: Int64, expected: Int64)]>([])
        let whole = expectation(description: "the whole body sent")
        whole.assertForOverFulfill = false
        let monitor = ClosureEventMonitor()
        monitor.taskDidSendBodyData = { _, _, bytes, total, expected in
            sent.withLock { $0.append((bytes, total, expected)) }
            if total == expected { whole.fulfill() }
        }
        let delegate = BodyProgressDelegate(whole: expectation(description: "the delegate hears the whole body"))
        let session = Session(delegate: delegate, eventMonitors: [monitor], responseQueue: queue)
        let body = Data(repeating: 7, count: 256 << 10)
        let response = awaitData(session.upload(body, to: try TestServers.shared.url(.nginx, "/upload")))
        XCTAssertNil(response.error, String(describing: response.error))
        wait(for: [whole, delegate.whole], timeout: 10)
        let seen = sent.withLock { $0 }
        XCTAssertEqual(seen.map(\.sent).reduce(0, +), Int64(body.count))
        XCTAssertEqual(seen.last?.total, Int64(body.count))
        XCTAssertEqual(seen.last?.expected, Int64(body.count))
        XCTAssertEqual(delegate.totals.withLock { $0.last }, Int64(body.count))
    }

    /// A download's complete file at its temporary location, then where it was moved.
    func testADownloadsFileReachesTheURLSessionClosuresBeforeAndAfterItsMove() throws {
        let located = Mutex<(location: URL?, moved: URL?)>((nil, nil))
        let finished = expectation(description: "finished")
        let monitor = ClosureEventMonitor()
        monitor.downloadTaskDidFinishDownloadingToURL = { _, _, location in
            located.withLock { $0.location = location }
        }
        monitor.requestDidFinishDownloadingUsingTaskWithResult = { _, _, result in
            located.withLock { $0.moved = try? result.get() }
        }
        monitor.requestDidFinish = { _ in finished.fulfill() }
        let session = Session(eventMonitors: [monitor], responseQueue: queue)
        let response = awaitDownload(session.download(try TestServers.shared.url(.nginx, "/100k.bin")))
        defer { response.fileURL.map { try? FileManager.default.removeItem(at: $0) } }
        XCTAssertNil(response.error, String(describing: response.error))
        wait(for: [finished], timeout: 10)
        let seen = located.withLock { $0 }
        XCTAssertNotNil(seen.location)
        XCTAssertNotEqual(seen.location, response.fileURL)
        XCTAssertEqual(seen.moved, response.fileURL)
    }
}

/// Records the totals its `didSendBodyData` method hears, and says when one is the whole body.
private final class BodyProgressDelegate: SessionDelegate, @unchecked Sendable { // `totals` is a Mutex; `whole` is thread-safe
    let totals = Mutex<[Int64]>([])
    let whole: XCTestExpectation

    init(whole: XCTestExpectation) {
        whole.assertForOverFulfill = false
        self.whole = whole
    }

    override func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
                             totalBytesExpectedToSend: Int64) {
        totals.withLock { $0.append(totalBytesSent) }
        if totalBytesSent == totalBytesExpectedToSend { whole.fulfill() }
    }
}
