import XCTest
import Salvo
import SalvoTestSupport

/// Uploads from streams whose reads block: the stream is read off the event loop, so the
/// session's other transfers go on while it waits.
final class UploadStreamPumpTests: XCTestCase {
    func testABlockingStreamStallsOnlyItsOwnUpload() throws {
        let session = testSession()
        let stream = GatedInputStream()
        let uploaded = expectation(description: "upload")
        let result = Collector<AFDataResponse<Data>>()
        let upload = session.upload(stream, to: try TestServers.shared.url(.httpbin, "/post"), headers: ["Content-Type": "text/plain"])
            .responseData(queue: .global()) { response in
                result.append(response)
                uploaded.fulfill()
            }
        // The upload is now blocked in its stream's read.
        wait(for: [stream.firstReadStarted], timeout: 30)
        for round in 0..<3 {
            let response = awaitData(session.request(try TestServers.shared.url(.nginx, "/small")))
            XCTAssertNil(response.error, "round \(round)")
            XCTAssertEqual(response.response?.statusCode, 200, "round \(round)")
        }
        XCTAssertFalse(upload.isFinished)

        stream.feed(Data("first part, ".utf8))
        stream.feed(Data("second part".utf8))
        stream.finish()
        wait(for: [uploaded], timeout: 30)
        let response = try XCTUnwrap(result.values.first)
        XCTAssertNil(response.error)
        XCTAssertEqual(json(response.data)["data"] as? String, "first part, second part")
    }

    func testALargeStreamArrivesWhole() throws {
        let session = testSession()
        // Several times the pump's read-ahead, in pieces of odd sizes.
        let text = (0..<40_000).map { "line \($0)\n" }.joined()
        let stream = GatedInputStream()
        let uploaded = expectation(description: "upload")
        let result = Collector<AFDataResponse<Data>>()
        session.upload(stream, to: try TestServers.shared.url(.httpbin, "/post"), headers: ["Content-Type": "text/plain"])
            .responseData(queue: .global()) { response in
                result.append(response)
                uploaded.fulfill()
            }
        let bytes = Data(text.utf8)
        var offset = 0
        var size = 1
        while offset < bytes.count {
            let end = min(bytes.count, offset + size)
            stream.feed(bytes[offset..<end])
            offset = end
            size = size * 7 % 90_001 + 1
        }
        stream.finish()
        wait(for: [uploaded], timeout: 60)
        let response = try XCTUnwrap(result.values.first)
        XCTAssertNil(response.error)
        XCTAssertEqual(json(response.data)["data"] as? String, text)
    }

    /// libcurl re-sends a request whose reused connection turns out closed; a stream it
    /// already read from cannot be sent again, which URLSession calls
    /// `requestBodyStreamExhausted`. Whether libcurl had read from the stream when it found
    /// the connection closed depends on timing (then the re-send simply succeeds), so each
    /// round accepts either outcome and nothing else, and at least one round must have been
    /// re-sent (here every round is).
    func testAStreamLibcurlMustSendAgainFailsAsExhausted() throws {
        let session = testSession { $0.httpMaximumConnectionsPerHost = 1 }
        let url = try TestServers.shared.url(.fault, "/one-per-connection")
        var exhausted = 0
        for round in 1...5 {
            XCTAssertNil(awaitData(session.request(url)).error, "round \(round)")
            let body = InputStream(data: Data(repeating: 0x61, count: 64 * 1024))
            let response = awaitData(session.upload(body, to: url))
            if let error = response.error {
                XCTAssertEqual(urlErrorCode(error), .requestBodyStreamExhausted, "round \(round): \(error)")
                exhausted += 1
            } else {
                XCTAssertEqual(response.data.map { String(decoding: $0, as: UTF8.self) }, "fresh\n", "round \(round)")
            }
        }
        XCTAssertGreaterThan(exhausted, 0, "libcurl never had to send a stream again")
    }

    func testCancellingAnUploadWaitingForItsStream() throws {
        let session = testSession()
        let stream = GatedInputStream()
        let request = session.upload(stream, to: try TestServers.shared.url(.httpbin, "/post"))
        let finished = expectation(description: "finished")
        let result = Collector<AFDataResponse<Data?>>()
        request.response(queue: .global()) { response in
            result.append(response)
            finished.fulfill()
        }
        wait(for: [stream.firstReadStarted], timeout: 30)
        request.cancel()
        wait(for: [finished], timeout: 30)
        XCTAssertTrue(result.values.first?.error?.isExplicitlyCancelledError == true, String(describing: result.values.first?.error))
        XCTAssertEqual(result.values.count, 1)
        // Lets the pump's thread leave its read and close the stream.
        stream.finish()
        wait(for: [stream.closed], timeout: 30)
    }
}

/// An `InputStream` whose reads block until the test feeds it, as a pipe's do.
/// Every stored `var` is guarded by `condition`: the pump thread reads while the test feeds.
private final class GatedInputStream: InputStream {
    let firstReadStarted = XCTestExpectation(description: "first read")
    let closed = XCTestExpectation(description: "closed")
    private let condition = NSCondition()
    private var pending = Data()
    private var finished = false
    private var reads = 0
    private var status = Stream.Status.notOpen

    init() {
        super.init(data: Data())
    }

    func feed(_ data: Data) {
        condition.lock()
        pending.append(data)
        condition.broadcast()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    override func open() {
        condition.lock()
        status = .open
        condition.unlock()
    }

    override func close() {
        condition.lock()
        status = .closed
        condition.unlock()
        closed.fulfill()
    }

    override var streamStatus: Stream.Status {
        condition.lock()
        defer { condition.unlock() }
        return status
    }

    override var streamError: (any Error)? { nil }

    override var hasBytesAvailable: Bool { true }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        condition.lock()
        defer { condition.unlock() }
        reads += 1
        if reads == 1 { firstReadStarted.fulfill() }
        while pending.isEmpty && !finished { condition.wait() }
        guard !pending.isEmpty else { return 0 }
        let count = min(length, pending.count)
        pending.copyBytes(to: buffer, count: count)
        pending.removeSubrange(pending.startIndex..<pending.startIndex + count)
        return count
    }
}
