import Foundation
import Synchronization
import XCTest
import Salvo
import SalvoTestSupport

/// `Request.uploadProgress` and `downloadProgress`, Alamofire's `Progress` objects: one per
/// request and direction, handed to the one progress handler and complete once the request
/// succeeds.
final class ProgressObjectTests: XCTestCase {
    func testTheDownloadHandlerReceivesTheRequestsOwnProgress() throws {
        let session = testSession()
        let queue = DispatchQueue(label: "test.progress-object")
        let sameObject = Mutex(true)
        let calls = Mutex(0)
        let done = expectation(description: "response")
        let request = session.request(try TestServers.shared.url(.nginx, "/1m.bin"))
        let own = request.downloadProgress
        request.downloadProgress(queue: queue) { progress in
            calls.withLock { $0 += 1 }
            if progress !== own { sameObject.withLock { $0 = false } }
        }
        .responseData(queue: queue) { response in
            XCTAssertNil(response.error)
            XCTAssertEqual(own.fractionCompleted, 1.0)
            XCTAssertEqual(own.completedUnitCount, Int64(response.data?.count ?? -1))
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        XCTAssertTrue(sameObject.withLock { $0 }, "every call passes request.downloadProgress")
        XCTAssertGreaterThan(calls.withLock { $0 }, 0)
        XCTAssertTrue(request.downloadProgress === own, "one object for the request's life")
        XCTAssertTrue(request.downloadProgressHandler?.queue === queue)
        XCTAssertNil(request.uploadProgressHandler)
    }

    func testOnlyTheLastProgressHandlerSetIsCalled() throws {
        let session = testSession()
        let queue = DispatchQueue(label: "test.progress-object")
        let first = Mutex(0)
        let last = Mutex(0)
        let done = expectation(description: "response")
        session.upload(Data(repeating: 0x62, count: 1 << 20), to: try TestServers.shared.url(.nginx, "/upload"))
            .uploadProgress(queue: queue) { _ in first.withLock { $0 += 1 } }
            .uploadProgress(queue: queue) { _ in last.withLock { $0 += 1 } }
            .response(queue: queue) { response in
                XCTAssertNil(response.error)
                done.fulfill()
            }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(first.withLock { $0 }, 0, "a handler set before the last one is replaced, as in Alamofire")
        XCTAssertGreaterThan(last.withLock { $0 }, 0)
    }

    func testProgressReadWithoutAHandlerIsCompleteOnceTheRequestSucceeds() throws {
        let session = testSession()
        let done = expectation(description: "response")
        let body = Data(repeating: 0x63, count: 64 << 10)
        let request = session.upload(body, to: try TestServers.shared.url(.nginx, "/upload"))
        let sent = request.uploadProgress
        let received = request.downloadProgress
        XCTAssertEqual(sent.fractionCompleted, 0)
        request.response(queue: .global()) { response in
            XCTAssertNil(response.error)
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(sent.fractionCompleted, 1.0)
        XCTAssertEqual(sent.completedUnitCount, Int64(body.count))
        XCTAssertEqual(received.fractionCompleted, 1.0)
    }

    func testAFailedRequestsProgressDoesNotClaimCompletion() throws {
        let session = testSession()
        let done = expectation(description: "response")
        let request = session.request("http://127.0.0.1:1/refused")
        let received = request.downloadProgress
        request.response(queue: .global()) { response in
            XCTAssertNotNil(response.error)
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        XCTAssertLessThan(received.fractionCompleted, 1.0)
    }

    /// A handler may read and set progress handlers: delivering an update takes no lock that
    /// those take.
    func testAHandlerMaySetHandlersWhileItRuns() throws {
        let session = testSession()
        let queue = DispatchQueue(label: "test.progress-object")
        let calls = Mutex(0)
        let done = expectation(description: "response")
        let request = session.request(try TestServers.shared.url(.nginx, "/1m.bin"))
        request.downloadProgress(queue: queue) { [weak request] _ in
            calls.withLock { $0 += 1 }
            guard let request, request.downloadProgressHandler != nil else { return }
            request.downloadProgress(queue: queue) { _ in calls.withLock { $0 += 1 } }
        }
        .responseData(queue: queue) { response in
            XCTAssertNil(response.error)
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        XCTAssertGreaterThan(calls.withLock { $0 }, 0)
    }
}
