import XCTest
import Salvo
import SalvoTestSupport

/// Streaming responses: chunks in order then one `.complete`, cancel from a handler,
/// newline-delimited decoding, validation, and memory bounded by backpressure.
final class DataStreamRequestTests: XCTestCase {
    private func collect(_ request: DataStreamRequest, timeout: TimeInterval = 60) -> (data: Data, chunks: Int, completion: DataStreamRequest.Completion?) {
        let done = expectation(description: "complete")
        let received = Box<Data>()
        let chunks = Box<Int>()
        let completion = Box<DataStreamRequest.Completion>()
        let queue = DispatchQueue(label: "stream")
        request.responseStream(on: queue) { stream in
            switch stream.event {
            case let .stream(.success(data)):
                XCTAssertNil(completion.value, "a chunk after .complete")
                received.set((received.value ?? Data()) + data)
                chunks.set((chunks.value ?? 0) + 1)
            case let .complete(value):
                XCTAssertNil(completion.value, ".complete twice")
                completion.set(value)
                done.fulfill()
            }
        }
        wait(for: [done], timeout: timeout)
        return (received.value ?? Data(), chunks.value ?? 0, completion.value)
    }

    func testStreamDeliversTheWholeBodyInOrderThenCompletes() throws {
        let session = testSession()
        let result = collect(session.streamRequest(try TestServers.shared.url(.nginx, "/1m.bin")))
        XCTAssertNil(result.completion?.error)
        XCTAssertEqual(result.completion?.response?.statusCode, 200)
        XCTAssertGreaterThan(result.chunks, 1)
        XCTAssertEqual(result.data, try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("1m.bin")))
    }

    /// A redirect's own body (httpbin's HTML) is not streamed; only the final response's is.
    func testARedirectsBodyIsNotStreamed() throws {
        let session = testSession()
        let target = try TestServers.shared.url(.nginx, "/small")
        let result = collect(session.streamRequest(try TestServers.shared.redirect(to: target.absoluteString)))
        XCTAssertNil(result.completion?.error)
        XCTAssertEqual(result.completion?.response?.statusCode, 200)
        XCTAssertEqual(result.data, try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("small")))
    }

    func testValidationIsNeverSkippedWhenTheHandlerQueueIsConcurrent() throws {
        // The head (and its validation), the chunks and the completion are handled on the
        // session's serial queue; with a concurrent handler queue they once raced, and a
        // quick response could complete before its validation ran.
        let session = testSession()
        let url = try TestServers.shared.url(.nginx, "/small")
        for attempt in 1...30 {
            let done = expectation(description: "complete \(attempt)")
            let error = Box<AFError>()
            session.streamRequest(url).validate(statusCode: [204]).responseStream(on: .global()) { stream in
                guard let completion = stream.completion else { return }
                if let failure = completion.error { error.set(failure) }
                done.fulfill()
            }
            wait(for: [done], timeout: 10)
            XCTAssertEqual(error.value?.responseCode, 200, "attempt \(attempt): validation did not run")
        }
    }

    func testCancelFromInsideTheHandler() throws {
        let session = testSession()
        let request = session.streamRequest(try TestServers.shared.url(.fault, "/slow-body?chunks=100&interval=50"))
        let done = expectation(description: "complete")
        let error = Box<AFError>()
        request.responseStream(on: DispatchQueue(label: "stream")) { stream in
            switch stream.event {
            case .stream: stream.cancel()
            case let .complete(completion):
                if let failure = completion.error { error.set(failure) }
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 30)
        XCTAssertTrue(error.value?.isExplicitlyCancelledError == true, String(describing: error.value))
    }

    func testNewlineDelimitedDecodables() throws {
        struct Line: Decodable, Sendable { let id: Int }
        let session = testSession()
        let ids = Collector<Int>()
        let done = expectation(description: "complete")
        session.streamRequest(try TestServers.shared.url(.httpbin, "/stream/5"))
            .responseStreamDecodableLines(of: Line.self, on: DispatchQueue(label: "stream")) { stream in
                switch stream.event {
                case let .stream(.success(line)): ids.append(line.id)
                case let .stream(.failure(error)): XCTFail("\(error)")
                case .complete: done.fulfill()
                }
            }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(ids.values, [0, 1, 2, 3, 4])
    }

    func testFailedValidationStreamsNothing() throws {
        let session = testSession()
        let result = collect(session.streamRequest(try TestServers.shared.url(.httpbin, "/status/404")).validate())
        XCTAssertTrue(result.completion?.error?.isResponseValidationError == true, String(describing: result.completion?.error))
        XCTAssertEqual(result.chunks, 0)
    }

    func testContentTypeValidationUsesTheAcceptHeader() throws {
        let session = testSession()
        let url = try TestServers.shared.url(.httpbin, "/json")
        let refused = collect(session.streamRequest(url, headers: [.accept("text/html")]).validate())
        guard case let .responseValidationFailed(reason: .unacceptableContentType(acceptable, actual))? = refused.completion?.error else {
            return XCTFail("expected unacceptableContentType, got \(String(describing: refused.completion?.error))")
        }
        XCTAssertEqual(acceptable, ["text/html"])
        XCTAssertEqual(actual, "application/json")
        XCTAssertEqual(refused.chunks, 0)
        let accepted = collect(session.streamRequest(url, headers: [.accept("application/*")]).validate())
        XCTAssertNil(accepted.completion?.error)
        XCTAssertGreaterThan(accepted.data.count, 0)
        let plain = collect(session.streamRequest(url).validate())
        XCTAssertNil(plain.completion?.error, "without Accept, any type passes")
    }

    func testStringsAndSerializer() throws {
        let session = testSession()
        let text = Collector<String>()
        let done = expectation(description: "complete")
        done.expectedFulfillmentCount = 2
        let request = session.streamRequest(try TestServers.shared.url(.nginx, "/small"))
        let queue = DispatchQueue(label: "stream")
        request.responseStreamString(on: queue) { stream in
            if let value = stream.value { text.append(value) }
            if stream.completion != nil { done.fulfill() }
        }
        request.responseStream(using: .passthrough, on: queue) { stream in
            if stream.completion != nil { done.fulfill() }
        }
        wait(for: [done], timeout: 30)
        let expected = String(decoding: try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("small")), as: UTF8.self)
        XCTAssertEqual(text.values.joined(), expected)
    }

    /// As in Alamofire: with `automaticallyCancelOnStreamError`, a chunk the serializer
    /// cannot read cancels the request, which ends with `explicitlyCancelled`.
    func testAChunkTheSerializerCannotReadCancelsWhenAsked() throws {
        struct Item: Decodable, Sendable { let id: Int }
        let session = testSession()
        // A body that takes a second: the first line that fails comes long before its end.
        let request = session.streamRequest(try TestServers.shared.url(.fault, "/slow-body?chunks=50&interval=20&size=100"),
                                            automaticallyCancelOnStreamError: true)
        let failures = Collector<Bool>()
        let done = expectation(description: "complete")
        let completion = Box<DataStreamRequest.Completion>()
        request.responseStream(using: DecodableStreamSerializer<Item>(), on: DispatchQueue(label: "stream")) { stream in
            if stream.error != nil { failures.append(true) }
            if let value = stream.completion {
                completion.set(value)
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 30)
        XCTAssertFalse(failures.values.isEmpty, "the handler saw no failed chunk")
        XCTAssertEqual(completion.value?.error?.isExplicitlyCancelledError, true, String(describing: completion.value?.error))
        XCTAssertTrue(request.isCancelled)
    }

    /// As in Alamofire, `responseStreamDecodable` decodes each chunk as it arrives: a body
    /// that is not one value fails at its only chunk and, when asked, cancels the request
    /// before it completes, though that chunk and the response's end came together.
    func testADecodableStreamCancelsAtAChunkThatIsNotAValueBeforeTheResponseEnds() throws {
        struct Item: Decodable, Sendable { let id: Int }
        for _ in 0..<5 {
            let session = testSession()
            let request = session.streamRequest(try TestServers.shared.url(.nginx, "/small"), automaticallyCancelOnStreamError: true)
            let failures = Collector<Bool>()
            let done = expectation(description: "complete")
            let completion = Box<DataStreamRequest.Completion>()
            request.responseStreamDecodable(of: Item.self, on: DispatchQueue(label: "stream")) { stream in
                if stream.error != nil { failures.append(true) }
                if let value = stream.completion {
                    completion.set(value)
                    done.fulfill()
                }
            }
            wait(for: [done], timeout: 30)
            XCTAssertEqual(failures.values.count, 1, "one chunk, one failure")
            XCTAssertEqual(completion.value?.error?.isExplicitlyCancelledError, true, String(describing: completion.value?.error))
            XCTAssertTrue(request.isCancelled)
        }
    }

    /// A chunk that is one whole value decodes as it arrives.
    func testADecodableStreamDecodesAChunkThatIsOneValue() throws {
        struct Greeting: Decodable, Sendable { let hello: String }
        let session = testSession()
        let values = Collector<String>()
        let done = expectation(description: "complete")
        session.streamRequest(try TestServers.shared.url(.nginx, "/json"))
            .responseStreamDecodable(of: Greeting.self, on: DispatchQueue(label: "stream")) { stream in
                if let greeting = stream.value { values.append(greeting.hello) }
                if stream.completion != nil { done.fulfill() }
            }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(values.values, ["salvo"])
    }

    /// A `for await` loop that cancels at its first value leaves the request cancelled and
    /// gets no other value, whether the rest of the body comes later or came with that value.
    func testAStreamTaskCancelledAtItsFirstValueYieldsNothingMore() async throws {
        let urls = [try TestServers.shared.url(.fault, "/slow-body?chunks=2&interval=300&size=10"),
                    try TestServers.shared.url(.nginx, "/small")]
        for url in urls {
            for _ in 0..<3 {
                let session = testSession()
                let request = session.streamRequest(url)
                let task = request.streamTask()
                var values = 0
                var completion: DataStreamRequest.Completion?
                for await stream in task.streamingData() {
                    if stream.value != nil {
                        values += 1
                        if values == 1 { task.cancel() }
                    }
                    if let value = stream.completion { completion = value }
                }
                XCTAssertEqual(values, 1, "\(url)")
                XCTAssertTrue(request.isCancelled, "\(url)")
                XCTAssertEqual(completion?.error?.isExplicitlyCancelledError, true, "\(url): \(String(describing: completion?.error))")
            }
        }
    }

    /// A `for await` loop that leaves early without cancelling the request does not keep the
    /// request from completing: the chunks buffered for the loop are not waited for.
    func testAStreamTaskLeftEarlyWithoutCancellingStillLetsTheRequestComplete() async throws {
        let session = testSession()
        let request = session.streamRequest(try TestServers.shared.url(.nginx, "/1m.bin"))
        for await stream in request.streamTask().streamingData(automaticallyCancelling: false) where stream.value != nil {
            break
        }
        let deadline = Date().addingTimeInterval(30)
        while !request.isFinished && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertTrue(request.isFinished, "the request completed")
        XCTAssertFalse(request.isCancelled)
        withExtendedLifetime(session) {}
    }

    /// Without it, a failed chunk is reported and the stream goes on to its end.
    func testAChunkTheSerializerCannotReadDoesNotCancelByDefault() throws {
        struct Item: Decodable, Sendable { let id: Int }
        let session = testSession()
        let request = session.streamRequest(try TestServers.shared.url(.nginx, "/lorem.txt"))
        let done = expectation(description: "complete")
        let completion = Box<DataStreamRequest.Completion>()
        request.responseStreamDecodable(of: Item.self, on: DispatchQueue(label: "stream")) { stream in
            if let value = stream.completion {
                completion.set(value)
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 30)
        XCTAssertNil(completion.value?.error)
        XCTAssertTrue(request.isFinished)
    }

    /// As in Alamofire, a handler that throws makes its error the request's and cancels it,
    /// whatever `automaticallyCancelOnStreamError` says.
    func testAThrowingHandlerCancelsWithItsError() throws {
        struct Stop: Error {}
        let session = testSession()
        let request = session.streamRequest(try TestServers.shared.url(.fault, "/slow-body?chunks=50&interval=20&size=100"))
        let done = expectation(description: "complete")
        let completion = Box<DataStreamRequest.Completion>()
        request.responseStream(on: DispatchQueue(label: "stream")) { stream in
            if stream.value != nil { throw Stop() }
            if let value = stream.completion {
                completion.set(value)
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 30)
        guard case let .responseSerializationFailed(reason: .customSerializationFailed(error)) = completion.value?.error else {
            return XCTFail("error: \(String(describing: completion.value?.error))")
        }
        XCTAssertTrue(error is Stop)
        XCTAssertTrue(request.isCancelled)
    }

    func testOnHTTPResponseBeforeTheFirstChunk() throws {
        let session = testSession()
        let events = Collector<String>()
        let queue = DispatchQueue(label: "stream")
        let done = expectation(description: "complete")
        session.streamRequest(try TestServers.shared.url(.nginx, "/100k.bin"))
            .onHTTPResponse(on: queue) { response in events.append("response \(response.statusCode)") }
            .responseStream(on: queue) { stream in
                if stream.value != nil, events.values.last != "chunk" { events.append("chunk") }
                if stream.completion != nil { done.fulfill() }
            }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(events.values, ["response 200", "chunk"])
    }

    func testAsInputStreamReadsTheWholeBody() throws {
        let session = testSession()
        let request = session.streamRequest(try TestServers.shared.url(.nginx, "/1m.bin"), streamBufferSize: 64 << 10)
        let stream = try XCTUnwrap(request.asInputStream())
        stream.open()
        var body = Data()
        var buffer = [UInt8](repeating: 0, count: 10_000)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            XCTAssertGreaterThanOrEqual(count, 0)
            if count <= 0 { break }
            body.append(contentsOf: buffer[0..<count])
        }
        stream.close()
        XCTAssertEqual(body, try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("1m.bin")))
    }

    /// A consumer slower than the network: the transfer pauses while it lags, so the
    /// process does not buffer the body.
    func testSlowConsumerKeepsMemoryBounded() throws {
        let size = 64 << 20
        let name = "stream-\(UUID().uuidString).bin"
        let local = try TestServers.shared.docroot.appendingPathComponent(name)
        try Data(count: size).write(to: local)
        defer { try? FileManager.default.removeItem(at: local) }
        let session = testSession()
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let before = try DownloadResumeTests.residentPeakKiB()
        let request = session.streamRequest(try TestServers.shared.url(.nginx, "/" + name), streamBufferSize: 1 << 20)
        let total = Box<Int>()
        let done = expectation(description: "complete")
        request.responseStream(on: DispatchQueue(label: "slow")) { stream in
            switch stream.event {
            case let .stream(.success(data)):
                total.set((total.value ?? 0) + data.count)
                usleep(150)  // the slow consumer under test, not a wait for an event
            case let .complete(completion):
                XCTAssertNil(completion.error)
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 120)
        let after = try DownloadResumeTests.residentPeakKiB()
        XCTAssertEqual(total.value, size)
        XCTAssertLessThan(after - before, 32 * 1024, "peak RSS grew by \((after - before) / 1024) MiB")
    }
}

/// `for await` over a stream request.
final class DataStreamTaskTests: XCTestCase {
    func testStreamingDataThroughASmallBuffer() async throws {
        let session = testSession()
        // A 64 KiB buffer for a 1 MiB body: the transfer must pause and continue many
        // times as the loop below takes the chunks.
        let task = session.streamRequest(try TestServers.shared.url(.nginx, "/1m.bin"), streamBufferSize: 64 << 10).streamTask()
        var body = Data()
        var completions = 0
        for await stream in task.streamingData() {
            switch stream.event {
            case let .stream(.success(data)): body.append(data)
            case let .complete(completion):
                XCTAssertNil(completion.error)
                completions += 1
            }
        }
        XCTAssertEqual(completions, 1)
        XCTAssertEqual(body, try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("1m.bin")))
    }

    func testStreamingDecodables() async throws {
        struct Line: Decodable, Sendable { let id: Int }
        let session = testSession()
        var ids: [Int] = []
        for await stream in session.streamRequest(try TestServers.shared.url(.httpbin, "/stream/4")).streamTask().streamingDecodableLines(Line.self) {
            if let line = stream.value { ids.append(line.id) }
        }
        XCTAssertEqual(ids, [0, 1, 2, 3])
    }

    func testLeavingTheLoopEarlyCancelsTheRequest() async throws {
        let session = testSession()
        let request = session.streamRequest(try TestServers.shared.url(.fault, "/slow-body?chunks=100&interval=50"))
        for await stream in request.streamTask().streamingData() where stream.value != nil {
            break
        }
        let completion = await withCheckedContinuation { continuation in
            request.responseStream(on: DispatchQueue(label: "late")) { stream in
                if let completion = stream.completion { continuation.resume(returning: completion) }
            }
        }
        XCTAssertTrue(completion.error?.isExplicitlyCancelledError == true, String(describing: completion.error))
    }

    /// `stream.token.cancel()` cancels the request, which ends with `explicitlyCancelled`, as
    /// `stream.cancel()` does.
    func testCancellingThroughTheTokenEndsExplicitlyCancelled() throws {
        let session = testSession()
        let request = session.streamRequest(try TestServers.shared.url(.fault, "/slow-body?chunks=100&interval=50"))
        let done = expectation(description: "complete")
        let error = Box<AFError>()
        let token = Box<DataStreamRequest.CancellationToken>()
        request.responseStream(on: DispatchQueue(label: "stream")) { stream in
            switch stream.event {
            case .stream: token.set(stream.token)
            case let .complete(completion):
                if let failure = completion.error { error.set(failure) }
                done.fulfill()
            }
        }
        // From outside the handler, once a chunk has come.
        let deadline = Date().addingTimeInterval(30)  // a bound against a hang, not a measure
        while token.value == nil, Date() < deadline { usleep(5_000) }
        token.value?.cancel()
        wait(for: [done], timeout: 30)
        XCTAssertTrue(error.value?.isExplicitlyCancelledError == true, String(describing: error.value))
        XCTAssertTrue(request.isCancelled)
    }

    /// A `DataStreamTask` cancelled straight after its first value yields no further value,
    /// and its request ends cancelled.
    func testAStreamTaskCancelledAfterItsFirstValueYieldsNoMore() async throws {
        for _ in 0..<4 {
            let session = testSession()
            let request = session.streamRequest(try TestServers.shared.url(.fault, "/slow-body?chunks=20&interval=10&size=2000"))
            let task = request.streamTask()
            var values = 0
            var completion: DataStreamRequest.Completion?
            for await stream in task.streamingData() {
                switch stream.event {
                case .stream:
                    values += 1
                    if values == 1 { task.cancel() }
                case let .complete(ended):
                    completion = ended
                }
            }
            XCTAssertEqual(values, 1)
            XCTAssertEqual(completion?.error?.isExplicitlyCancelledError, true, String(describing: completion?.error))
            XCTAssertTrue(request.isCancelled)
            withExtendedLifetime(session) {}
        }
    }

    /// An awaited stream whose serializer fails, with `automaticallyCancelOnStreamError`, ends
    /// `explicitlyCancelled`, as the handler form does.
    func testAnAwaitedStreamWhoseSerializerFailsEndsCancelledWhenAsked() async throws {
        struct Item: Decodable, Sendable { let id: Int }
        let session = testSession()
        let request = session.streamRequest(try TestServers.shared.url(.fault, "/slow-body?chunks=50&interval=20&size=100"),
                                            automaticallyCancelOnStreamError: true)
        var failures = 0
        var completion: DataStreamRequest.Completion?
        for await stream in request.streamTask().streamingResponses(serializedUsing: DecodableStreamSerializer<Item>()) {
            switch stream.event {
            case let .stream(result): if case .failure = result { failures += 1 }
            case let .complete(ended): completion = ended
            }
        }
        XCTAssertGreaterThan(failures, 0)
        XCTAssertEqual(completion?.error?.isExplicitlyCancelledError, true, String(describing: completion?.error))
        XCTAssertTrue(request.isCancelled)
        withExtendedLifetime(session) {}
    }
}
