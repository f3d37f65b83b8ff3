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
