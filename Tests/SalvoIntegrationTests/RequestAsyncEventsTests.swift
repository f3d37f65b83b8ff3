import XCTest
@testable import Salvo
import SalvoTestSupport

/// The event sequences of `Request+AsyncEvents.swift` against the test servers. Each test keeps
/// its session alive to the end (`withExtendedLifetime`): a session released early fails its
/// requests, by design.
final class RequestAsyncEventsTests: XCTestCase {
    // MARK: Progress

    func testDownloadProgressEndsAtOneAndFinishes() async throws {
        let session = testSession()
        defer { withExtendedLifetime(session) {} }
        let request = session.request(try TestServers.shared.url(.nginx, "/1m.bin"))
        let progress = request.downloadProgress()
        let response = await request.serializingData().response
        XCTAssertNil(response.error)

        let updates = try await collect(progress)
        let last = try XCTUnwrap(updates.last)
        XCTAssertEqual(last.fractionCompleted, 1.0)
        XCTAssertEqual(last.completedUnitCount, 1 << 20)
        let completed = updates.map(\.completedUnitCount)
        XCTAssertEqual(completed, completed.sorted(), "progress never goes back")
    }

    func testDownloadRequestProgressEndsAtOneAndFinishes() async throws {
        let session = testSession()
        defer { withExtendedLifetime(session) {} }
        let request = session.download(try TestServers.shared.url(.nginx, "/1m.bin"))
        let progress = request.downloadProgress()
        // Iterated while the request runs, not after.
        let updates = Task { await drain(progress) }
        let fileURL = try await request.serializingDownloadedFileURL().value
        defer { try? FileManager.default.removeItem(at: fileURL) }

        let all = try await value(of: updates)
        let last = try XCTUnwrap(all.last)
        XCTAssertEqual(last.fractionCompleted, 1.0)
        XCTAssertEqual(last.completedUnitCount, 1 << 20)
    }

    func testUploadProgressEndsAtOneAndFinishes() async throws {
        let session = testSession()
        defer { withExtendedLifetime(session) {} }
        let body = Data(repeating: 0x61, count: 1 << 20)
        let request = session.upload(body, to: try TestServers.shared.url(.httpbin, "/post"))
        let upload = request.uploadProgress()
        let download = request.downloadProgress()
        let response = await request.serializingData().response
        XCTAssertNil(response.error)

        let sent = try await collect(upload)
        let last = try XCTUnwrap(sent.last)
        XCTAssertEqual(last.fractionCompleted, 1.0)
        XCTAssertEqual(last.completedUnitCount, Int64(body.count))
        let received = try await collect(download)
        XCTAssertEqual(received.last?.fractionCompleted, 1.0)
    }

    // MARK: Attempts

    func testURLRequestsAndCURLDescriptionsYieldOnePerAttempt() async throws {
        let session = testSession()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.fault, "/fail-twice?key=\(UUID().uuidString)")
        let request = session.request(url, interceptor: RetryPolicy(exponentialBackoffScale: 0.001)).validate()
        let urlRequests = request.urlRequests()
        let descriptions = request.cURLDescriptions()
        let responses = request.httpResponses()
        let response = await request.serializingData().response
        XCTAssertNil(response.error)
        XCTAssertEqual(request.retryCount, 2)

        let sent = try await collect(urlRequests)
        XCTAssertEqual(sent.map(\.url), [url, url, url])
        XCTAssertEqual(sent.map(\.httpMethod), ["GET", "GET", "GET"])

        let commands = try await collect(descriptions)
        XCTAssertEqual(commands.count, 3)
        for command in commands {
            XCTAssertTrue(command.hasPrefix("$ curl -v"), command)
            XCTAssertTrue(command.contains(url.absoluteString), command)
        }

        // One response per attempt: the two failures the retries answered, then the success.
        let received = try await collect(responses)
        XCTAssertEqual(received.map(\.statusCode), [503, 503, 200])
    }

    func testSequencesMadeAfterTheRequestFinishedEndAtOnce() async throws {
        let session = testSession()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.nginx, "/small")
        let request = session.request(url)
        _ = await request.serializingData().response

        // The last request sent and its description come straight away, then the end.
        let sent = try await collect(request.urlRequests())
        XCTAssertEqual(sent.map(\.url), [url])
        let commands = try await collect(request.cURLDescriptions())
        XCTAssertEqual(commands.count, 1)
        let progress = try await collect(request.downloadProgress())
        XCTAssertTrue(progress.isEmpty)
        let responses = try await collect(request.httpResponses())
        XCTAssertTrue(responses.isEmpty)
    }

    // MARK: Responses

    func testHTTPResponsesYieldOnlyTheFinalHopOfARedirect() async throws {
        let session = testSession()
        defer { withExtendedLifetime(session) {} }
        let request = session.request(try TestServers.shared.url(.httpbin, "/redirect/2"))
        let responses = request.httpResponses()
        let received = Task { await drain(responses) }
        let response = await request.serializingData().response
        XCTAssertNil(response.error)

        let all = try await value(of: received)
        XCTAssertEqual(all.count, 1, "redirects are followed without yielding their responses, as with URLSession")
        XCTAssertEqual(all.first?.statusCode, 200)
        XCTAssertEqual(all.first?.url?.path, "/get")
        XCTAssertEqual(all.first?.url, response.response?.url)
    }

    /// The head reaches `onHTTPResponse` handlers through the request's delivery queue, which
    /// is the session's concurrent `serializationQueue` here: without the barrier the sequence
    /// ends behind, most of these lost their response (186 of 300 when measured).
    func testHTTPResponsesNeverEndBeforeTheLastResponse() async throws {
        let session = testSession()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.nginx, "/small")
        for _ in 0..<100 {
            let request = session.request(url)
            let responses = request.httpResponses()
            _ = await request.serializingData().response
            let received = try await collect(responses)
            XCTAssertEqual(received.map(\.statusCode), [200])
        }
    }

    func testHTTPResponsesOfADataStreamRequest() async throws {
        let session = testSession()
        defer { withExtendedLifetime(session) {} }
        let request = session.streamRequest(try TestServers.shared.url(.nginx, "/small"))
        let responses = request.httpResponses()
        var bytes = 0
        var completed = false
        for await event in request.streamTask().streamingData() {
            switch event.event {
            case let .stream(.success(chunk)): bytes += chunk.count
            case let .complete(completion):
                XCTAssertNil(completion.error)
                completed = true
            }
        }
        XCTAssertTrue(completed)
        XCTAssertEqual(bytes, 100)

        let received = try await collect(responses)
        XCTAssertEqual(received.map(\.statusCode), [200])
    }

    /// A GET sends no body: its upload progress yields nothing, as URLSession reports none;
    /// its download progress ends at 1.
    func testAGetsUploadProgressYieldsNothing() async throws {
        let session = testSession()
        defer { withExtendedLifetime(session) {} }
        let request = session.request(try TestServers.shared.url(.nginx, "/small"))
        let upload = request.uploadProgress()
        let download = request.downloadProgress()
        let response = await request.serializingData().response
        XCTAssertNil(response.error)
        let sent = try await collect(upload)
        let received = try await collect(download)
        XCTAssertEqual(sent.map(\.fractionCompleted), [])
        XCTAssertEqual(received.last?.fractionCompleted, 1.0)
    }

    // MARK: Ending

    func testSequencesOfACancelledRequestFinish() async throws {
        let session = testSession()
        defer { withExtendedLifetime(session) {} }
        let request = session.request(try TestServers.shared.url(.fault, "/stall-headers"))
        let urlRequests = request.urlRequests()
        let descriptions = request.cURLDescriptions()
        let responses = request.httpResponses()
        let upload = request.uploadProgress()
        let download = request.downloadProgress()
        let task = request.serializingData(automaticallyCancelling: false)

        // Cancelled once its only attempt has been sent, while it waits for headers that never come.
        var sent: [URLRequest] = []
        for await urlRequest in urlRequests {
            sent.append(urlRequest)
            request.cancel()
        }
        XCTAssertEqual(sent.count, 1)
        let response = await task.response
        XCTAssertTrue(response.error?.isExplicitlyCancelledError == true, String(describing: response.error))

        let commands = try await collect(descriptions)
        XCTAssertEqual(commands.count, 1)
        let received = try await collect(responses)
        XCTAssertTrue(received.isEmpty)
        let sentProgress = try await collect(upload)
        let receivedProgress = try await collect(download)
        XCTAssertNotEqual(sentProgress.last?.fractionCompleted, 1.0, "a request that failed gets no closing update")
        XCTAssertNotEqual(receivedProgress.last?.fractionCompleted, 1.0, "a request that failed gets no closing update")
    }

    func testSequencesOfARequestCancelledBeforeItStartsFinish() async throws {
        let session = testSession()
        defer { withExtendedLifetime(session) {} }
        let request = session.request(try TestServers.shared.url(.nginx, "/small"))
        let urlRequests = request.urlRequests()
        let responses = request.httpResponses()
        request.cancel()

        let sent = try await collect(urlRequests)
        XCTAssertTrue(sent.isEmpty)
        let received = try await collect(responses)
        XCTAssertTrue(received.isEmpty)
    }

    func testSequenceOfADroppedRequestThatNeverStartedFinishes() async throws {
        let session = testSession()
        defer { withExtendedLifetime(session) {} }
        weak var weakRequest: DataRequest?
        let responses: StreamOf<HTTPURLResponse>
        do {
            let request = session.request(try TestServers.shared.url(.nginx, "/small"))
            weakRequest = request
            responses = request.httpResponses()
        }
        XCTAssertNil(weakRequest, "the sequence does not keep the request alive")
        let received = try await collect(responses)
        XCTAssertTrue(received.isEmpty)
    }

    // MARK: Helpers

    /// Every element of `stream`, once it has ended; fails the test (rather than hanging) when
    /// it has not ended within `timeout` seconds.
    private func collect<Element: Sendable>(_ stream: StreamOf<Element>, timeout: TimeInterval = 30,
                                            file: StaticString = #filePath, line: UInt = #line) async throws -> [Element] {
        try await value(of: Task { await drain(stream) }, timeout: timeout, file: file, line: line)
    }

    /// The value of `task`; fails the test (rather than hanging) when it has not come within
    /// `timeout` seconds, and then cancels `task`, which ends a `for await` loop in it.
    private func value<Value: Sendable>(of task: Task<Value, Never>, timeout: TimeInterval = 30,
                                        file: StaticString = #filePath, line: UInt = #line) async throws -> Value {
        let ended = expectation(description: "the task ended")
        let box = Box<Value>()
        Task {
            box.set(await task.value)
            ended.fulfill()
        }
        await fulfillment(of: [ended], timeout: timeout)
        task.cancel()
        return try XCTUnwrap(box.value, "the sequence did not end", file: file, line: line)
    }
}

/// Every element of `stream`, once it has ended.
private func drain<Element: Sendable>(_ stream: StreamOf<Element>) async -> [Element] {
    var elements: [Element] = []
    for await element in stream { elements.append(element) }
    return elements
}
