import XCTest
import Salvo
import SalvoTestSupport

/// The last progress update, complete, reaches a handler before the response does, as in
/// Alamofire, when both share a serial queue.
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
}
