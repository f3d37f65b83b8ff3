import XCTest
import Salvo
import SalvoTestSupport

/// The last progress update, complete, reaches a handler before the response does, as in
/// Alamofire: when both share a serial queue, and when the progress handler has its own queue
/// (the main queue, by default) and the response is awaited elsewhere.
final class ProgressOrderTests: XCTestCase {
    func testFinalUploadProgressComesBeforeTheResponse() throws {
        let session = testSession()
        let queue = DispatchQueue(label: "test.progress")
        let fractions = Collector<Double>()
        let done = expectation(description: "response")
        let body = Data(repeating: 0x61, count: 4 << 20)
        session.upload(body, to: try TestServers.shared.url(.nginx, "/upload"))
            .uploadProgress(queue: queue) { fractions.append($0.fractionCompleted) }
            .response(queue: queue) { response in
                XCTAssertNil(response.error)
                XCTAssertEqual(fractions.values.last, 1.0, "progress when the response arrived: \(fractions.values.suffix(3))")
                done.fulfill()
            }
        wait(for: [done], timeout: 30)
    }

    func testFinalDownloadProgressComesBeforeTheResponse() throws {
        let session = testSession()
        let queue = DispatchQueue(label: "test.progress")
        let fractions = Collector<Double>()
        let done = expectation(description: "response")
        session.download(try TestServers.shared.url(.nginx, "/1m.bin"))
            .downloadProgress(queue: queue) { fractions.append($0.fractionCompleted) }
            .response(queue: queue) { response in
                XCTAssertNil(response.error)
                XCTAssertEqual(fractions.values.last, 1.0)
                if let url = response.fileURL { try? FileManager.default.removeItem(at: url) }
                done.fulfill()
            }
        wait(for: [done], timeout: 30)
    }

    /// The default progress queue is the main queue, which the test runner drains while an
    /// `async` test runs; the awaited response comes on a queue of Salvo's. Each of the 20
    /// downloads must find its progress handler already called with 1.0.
    func testAnAwaitedResponseFindsItsMainQueueProgressHandlerComplete() async throws {
        let session = Session()
        let url = try TestServers.shared.url(.nginx, "/100k.bin")
        for round in 0..<20 {
            let fractions = Collector<Double>()
            let request = session.download(url).downloadProgress { fractions.append($0.fractionCompleted) }
            let response = await request.serializingData().response
            XCTAssertEqual(response.value?.count, 100 << 10)
            XCTAssertEqual(fractions.values.last, 1.0, "round \(round): progress when the response came: \(fractions.values)")
            if let url = response.fileURL { try? FileManager.default.removeItem(at: url) }
        }
    }

    /// The same with an upload, whose progress handler names a queue of the caller's.
    func testAnAwaitedResponseFindsItsUploadProgressHandlerComplete() async throws {
        let session = Session()
        let queue = DispatchQueue(label: "test.progress")
        let body = Data(repeating: 0x61, count: 256 << 10)
        for round in 0..<20 {
            let fractions = Collector<Double>()
            let request = session.upload(body, to: try TestServers.shared.url(.nginx, "/upload"))
                .uploadProgress(queue: queue) { fractions.append($0.fractionCompleted) }
            let response = await request.serializingData().response
            XCTAssertNil(response.error)
            XCTAssertEqual(fractions.values.last, 1.0, "round \(round): progress when the response came: \(fractions.values)")
        }
    }

    /// A response does not wait forever for a progress queue its owner keeps busy until the
    /// response comes (here, blocked on a semaphore the response handler signals).
    func testAResponseIsNotHeldByABlockedProgressQueue() throws {
        let session = testSession()
        let blocked = DispatchQueue(label: "test.blocked-progress")
        let release = DispatchSemaphore(value: 0)
        blocked.async { release.wait() }
        let done = expectation(description: "response")
        session.download(try TestServers.shared.url(.nginx, "/100k.bin"))
            .downloadProgress(queue: blocked) { _ in }
            .response(queue: .global()) { response in
                XCTAssertNil(response.error)
                if let url = response.fileURL { try? FileManager.default.removeItem(at: url) }
                release.signal()
                done.fulfill()
            }
        wait(for: [done], timeout: 30)
    }
}
