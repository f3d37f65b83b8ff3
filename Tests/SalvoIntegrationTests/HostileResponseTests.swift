import XCTest
import Salvo
import SalvoTestSupport

/// Responses built to hurt a client: framing that lies, headers too large to hold, bodies
/// that never end or inflate without bound, and servers that trickle bytes to dodge a timeout.
final class HostileResponseTests: XCTestCase {
    // MARK: Framing

    func testTwoDifferentContentLengthsAreABadServerResponse() throws {
        let session = testSession()
        let response = awaitData(session.request(try TestServers.shared.url(.fault, "/double-content-length")))
        XCTAssertEqual(urlErrorCode(response.error), .badServerResponse, String(describing: response.error))
        XCTAssertNotEqual(response.data, Data("okabc".utf8))
    }

    func testAContentLengthBeyond63BitsIsABadServerResponse() throws {
        let session = testSession()
        let response = awaitData(session.request(try TestServers.shared.url(.fault, "/huge-content-length")))
        XCTAssertEqual(urlErrorCode(response.error), .badServerResponse, String(describing: response.error))
    }

    func testAnOversizedHeaderIsABadServerResponseNotOutOfMemory() throws {
        let session = testSession()
        let response = awaitData(session.request(try TestServers.shared.url(.fault, "/huge-header")))
        XCTAssertEqual(urlErrorCode(response.error), .badServerResponse, String(describing: response.error))
        // A large header libcurl accepts is still read.
        let fits = awaitData(session.request(try TestServers.shared.url(.fault, "/huge-header?size=50000")))
        XCTAssertNil(fits.error)
        XCTAssertEqual(fits.response?.value(forHTTPHeaderField: "X-Huge")?.count, 50000)
    }

    func testAHeaderBlockOfManyLargeLinesIsABadServerResponse() throws {
        let session = testSession()
        let response = awaitData(session.request(try TestServers.shared.url(.fault, "/many-headers")))
        XCTAssertEqual(urlErrorCode(response.error), .badServerResponse, String(describing: response.error))
        // 200 KB in all: under the 256 KiB a header block may take.
        let fits = awaitData(session.request(try TestServers.shared.url(.fault, "/many-headers?count=4&size=50000")))
        XCTAssertNil(fits.error)
        XCTAssertEqual(fits.response?.value(forHTTPHeaderField: "X-Many-3")?.count, 50000)
    }

    // MARK: Bodies held in memory

    func testTheDefaultLimitOnABodyInMemoryIs256MiB() {
        XCTAssertEqual(TransportConfiguration().maximumResponseBodySize, 256 << 20)
        XCTAssertEqual(TransportConfiguration.defaultMaximumResponseBodySize, 256 << 20)
    }

    func testACompressionBombStopsAtTheLimit() throws {
        let session = testSession(transport: TransportConfiguration(maximumResponseBodySize: 1 << 20))
        let response = awaitData(session.request(try TestServers.shared.url(.fault, "/gzip-bomb?size=67108864")))
        XCTAssertEqual(urlErrorCode(response.error), .dataLengthExceedsMaximum, String(describing: response.error))
    }

    func testAnEndlessBodyStopsAtTheLimit() throws {
        let session = testSession(transport: TransportConfiguration(maximumResponseBodySize: 4 << 20))
        for path in ["/endless", "/endless-chunked"] {
            let response = awaitData(session.request(try TestServers.shared.url(.fault, path)))
            XCTAssertEqual(urlErrorCode(response.error), .dataLengthExceedsMaximum, "\(path): \(String(describing: response.error))")
        }
        // An upload's response is held in memory too.
        let upload = session.upload(Data("x".utf8), to: try TestServers.shared.url(.fault, "/endless"))
        let uploaded = awaitData(upload)
        XCTAssertEqual(urlErrorCode(uploaded.error), .dataLengthExceedsMaximum, String(describing: uploaded.error))
    }

    func testABodyAtTheLimitIsKept() throws {
        let session = testSession(transport: TransportConfiguration(maximumResponseBodySize: 1 << 20))
        let exact = awaitData(session.request(try TestServers.shared.url(.fault, "/gzip-bomb?size=1048576")))
        XCTAssertNil(exact.error)
        XCTAssertEqual(exact.data?.count, 1 << 20)
        let unlimited = testSession(transport: TransportConfiguration(maximumResponseBodySize: 0))
        let big = awaitData(unlimited.request(try TestServers.shared.url(.fault, "/gzip-bomb?size=8388608")))
        XCTAssertEqual(big.data?.count, 8 << 20)
    }

    func testADownloadIsNotLimited() throws {
        let session = testSession(transport: TransportConfiguration(maximumResponseBodySize: 1 << 20))
        let response = awaitDownload(session.download(try TestServers.shared.url(.fault, "/gzip-bomb?size=8388608")))
        XCTAssertNil(response.error)
        let size = try response.fileURL.map { try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int }
        XCTAssertEqual(size, 8 << 20)
        if let file = response.fileURL { try? FileManager.default.removeItem(at: file) }
    }

    func testAStreamIsNotLimitedUnlessItsSessionAsks() throws {
        let url = try TestServers.shared.url(.fault, "/gzip-bomb?size=8388608")
        for (limit, expected) in [(0, nil), (1 << 20, URLError.Code.dataLengthExceedsMaximum)] as [(Int, URLError.Code?)] {
            let session = testSession(transport: TransportConfiguration(maximumResponseBodySize: 1 << 20, maximumStreamedBodySize: limit))
            let done = expectation(description: "stream")
            let received = Collector<Int>()
            let outcome = Box<AFError?>()
            session.streamRequest(url).responseStream(on: DispatchQueue(label: "test.stream")) { stream in
                switch stream.event {
                case let .stream(result): if case let .success(data) = result { received.append(data.count) }
                case let .complete(completion): outcome.set(completion.error); done.fulfill()
                }
            }
            wait(for: [done], timeout: 30)
            XCTAssertEqual(urlErrorCode(outcome.value ?? nil), expected, "limit \(limit)")
            let total = received.values.reduce(0, +)
            if limit == 0 { XCTAssertEqual(total, 8 << 20) } else { XCTAssertLessThanOrEqual(total, limit) }
        }
    }

    // MARK: Idle timeout

    /// URLSession's rule: no byte for `timeoutInterval`. A byte every 3 s kept libcurl's
    /// low-speed check (an average over whole seconds) from ever firing a 2 s timeout.
    func testAByteEveryFewSecondsStillTimesOut() throws {
        var request = URLRequest(url: try TestServers.shared.url(.fault, "/drip?interval=3000&count=3"))
        request.timeoutInterval = 2
        let session = testSession()
        let response = awaitData(session.request(request))
        XCTAssertEqual(urlErrorCode(response.error), .timedOut, String(describing: response.error))
    }

    func testASubSecondTimeoutFires() throws {
        var request = URLRequest(url: try TestServers.shared.url(.fault, "/drip?interval=1500&count=2"))
        request.timeoutInterval = 0.5
        let session = testSession()
        let response = awaitData(session.request(request))
        XCTAssertEqual(urlErrorCode(response.error), .timedOut, String(describing: response.error))
    }

    func testBytesInsideTheTimeoutKeepATransferAlive() throws {
        var request = URLRequest(url: try TestServers.shared.url(.fault, "/drip?interval=300&count=8"))
        request.timeoutInterval = 1.5
        let session = testSession()
        let response = awaitData(session.request(request))
        XCTAssertNil(response.error)
        XCTAssertEqual(response.data, Data(repeating: UInt8(ascii: "x"), count: 8))
    }

    func testAStalledDownloadTimesOut() throws {
        var request = URLRequest(url: try TestServers.shared.url(.fault, "/stall"))
        request.timeoutInterval = 0.5
        let session = testSession()
        let response = awaitDownload(session.download(request))
        XCTAssertEqual(urlErrorCode(response.error), .timedOut, String(describing: response.error))
    }

    func testASuspendedRequestDoesNotTimeOut() throws {
        var request = URLRequest(url: try TestServers.shared.url(.fault, "/drip?interval=200&count=3"))
        request.timeoutInterval = 1
        let session = testSession()
        let dataRequest = session.request(request)
        let done = expectation(description: "response")
        let box = Box<AFDataResponse<Data>>()
        dataRequest.responseData(queue: .global()) { box.set($0); done.fulfill() }
        dataRequest.suspend()
        // Held by the client for longer than its timeout: not the server's silence.
        Thread.sleep(forTimeInterval: 1.6)
        dataRequest.resume()
        wait(for: [done], timeout: 30)
        XCTAssertNil(box.value?.error, String(describing: box.value?.error))
    }
}
