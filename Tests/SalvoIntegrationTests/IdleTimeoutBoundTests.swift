import Foundation
import XCTest
@testable import Salvo

/// `timeoutInterval` is URLSession's idle timeout: a request whose server goes silent ends
/// with `URLError.timedOut` once no byte has moved for that long, and not much later (URLSession
/// ends it on time), whether the silence comes before the answer, after its headers, between
/// body bytes or while the server stops reading an upload. Each request runs alone, so the loop
/// has nothing else to wake it.
final class IdleTimeoutBoundTests: XCTestCase {
    private let interval: TimeInterval = 2
    /// URLSession ends on time; the loop looks at quiet transfers every 100 ms.
    private var latest: TimeInterval { interval * 1.1 }

    private func timedRequest(_ request: URLRequest, body: Data? = nil) throws -> (error: AFError?, seconds: TimeInterval) {
        let session = Session()
        let done = expectation(description: "response")
        nonisolated(unsafe) var error: AFError?
        let started = ContinuousClock.now
        nonisolated(unsafe) var ended = started
        let dataRequest = body.map { session.upload($0, with: request) } ?? session.request(request)
        dataRequest.response(queue: .global()) { response in
            ended = .now
            error = response.error
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        let elapsed = ended - started
        return (error, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    private func request(_ path: String, method: HTTPMethod = .get) throws -> URLRequest {
        var request = URLRequest(url: try TestServers.shared.url(.fault, path))
        request.method = method
        request.timeoutInterval = interval
        return request
    }

    private func assertTimedOut(_ outcome: (error: AFError?, seconds: TimeInterval), bound: TimeInterval,
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual((outcome.error?.underlyingError as? URLError)?.code, .timedOut, "\(String(describing: outcome.error))",
                       file: file, line: line)
        XCTAssertGreaterThanOrEqual(outcome.seconds, interval, "ended before the server was silent for the interval",
                                    file: file, line: line)
        XCTAssertLessThanOrEqual(outcome.seconds, bound, "ended \(outcome.seconds) s after it started", file: file, line: line)
    }

    func testAServerThatNeverAnswersTimesOutOnTime() throws {
        assertTimedOut(try timedRequest(request("/stall-headers")), bound: latest)
    }

    func testASilenceAfterTheHeadersTimesOutOnTime() throws {
        assertTimedOut(try timedRequest(request("/stall")), bound: latest)
    }

    func testASilenceBetweenBodyBytesTimesOutOnTime() throws {
        assertTimedOut(try timedRequest(request("/stall?body=10")), bound: latest)
    }

    /// The server reads the head and never the body: bytes still move into the kernel's
    /// buffers for a while, so the silence starts when the last one was taken. Upload progress
    /// says when that was.
    func testAnUploadTheServerStopsReadingTimesOutOnTime() throws {
        let session = Session()
        let done = expectation(description: "response")
        nonisolated(unsafe) var error: AFError?
        nonisolated(unsafe) var lastMove = ContinuousClock.now
        nonisolated(unsafe) var lastCount: Int64 = -1
        let started = ContinuousClock.now
        nonisolated(unsafe) var ended = started
        let progressQueue = DispatchQueue(label: "upload progress")
        session.upload(Data(count: 64 << 20), with: try request("/stall-upload", method: .post))
            .uploadProgress(queue: progressQueue) { progress in
                if progress.completedUnitCount != lastCount {
                    lastCount = progress.completedUnitCount
                    lastMove = .now
                }
            }
            .response(queue: .global()) { response in
                ended = .now
                error = response.error
                done.fulfill()
            }
        wait(for: [done], timeout: 60)
        progressQueue.sync {}
        XCTAssertEqual((error?.underlyingError as? URLError)?.code, .timedOut, "\(String(describing: error))")
        XCTAssertGreaterThan(lastCount, 0, "no byte of the body was sent")
        XCTAssertLessThan(lastCount, 64 << 20, "the whole body was taken")
        let quiet = ended - lastMove
        let seconds = Double(quiet.components.seconds) + Double(quiet.components.attoseconds) / 1e18
        // Progress is reported at intervals, so the last report may come a little after the
        // last byte: the lower bound allows for that.
        XCTAssertGreaterThanOrEqual(seconds, interval - 0.3, "ended before the upload was silent for the interval")
        XCTAssertLessThanOrEqual(seconds, latest, "ended \(seconds) s after the last byte of the body moved")
    }
}
