import XCTest
import Synchronization
@testable import Salvo

private struct Echo: Decodable, Sendable {
    var url: String
    var args: [String: String]
}

/// Tells the test when an attempt's transfer has been handed to the engine, so that a
/// cancellation is known to hit a request in flight.
private final class TransferStarts: EventMonitor {
    let continuation: AsyncStream<Void>.Continuation
    init(_ continuation: AsyncStream<Void>.Continuation) { self.continuation = continuation }
    func request(_ request: Request, didCreateTransferFor urlRequest: URLRequest) { continuation.yield() }
}

/// Passes the body through, counting its calls and checking the queue it runs on.
private struct CheckingSerializer: DataResponseSerializerProtocol {
    let expectedQueue: DispatchQueue
    let calls: CallCounter

    func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> Int {
        dispatchPrecondition(condition: .notOnQueue(.main))
        dispatchPrecondition(condition: .onQueue(expectedQueue))
        if let error { throw error }
        calls.increment()
        return data?.count ?? 0
    }
}

/// A counter several values can share.
private final class CallCounter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

/// The async API against httpbin. Each test keeps its session alive to the end
/// (`withExtendedLifetime`): a session released early fails its requests, by design.
final class ConcurrencyTests: XCTestCase {
    func testSerializingData() async throws {
        let session = Session()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/get?a=1")
        let data = try await session.request(url).serializingData().value
        let echo = try JSONDecoder().decode(Echo.self, from: data)
        XCTAssertEqual(echo.args, ["a": "1"])
    }

    func testSerializingString() async throws {
        let session = Session()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/encoding/utf8")
        let text = try await session.request(url).serializingString().value
        XCTAssertTrue(text.contains("∮ E⋅da = Q"))
        let forced = try await session.request(url).serializingString(encoding: .isoLatin1).value
        XCTAssertFalse(forced.contains("∮ E⋅da = Q"))
    }

    func testSerializingDecodable() async throws {
        let session = Session()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/get?b=2")
        let echo = try await session.request(url).serializingDecodable(Echo.self).value
        XCTAssertEqual(echo.url, url.absoluteString)
        XCTAssertEqual(echo.args, ["b": "2"])

        let inferred: Echo = try await session.request(url).serializingDecodable().value
        XCTAssertEqual(inferred.args, ["b": "2"])

        let noContent = try TestServers.shared.url(.httpbin, "/status/204")
        let empty = try await session.request(noContent, method: .delete).serializingDecodable(Empty.self).value
        XCTAssertEqual(empty, Empty.value)
    }

    func testSerializingFailureCarriesTheResponse() async throws {
        let session = Session()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/status/418")
        let task = session.request(url).validate().serializingData()
        let response = await task.response
        XCTAssertEqual(response.response?.statusCode, 418)
        XCTAssertEqual(response.error?.responseCode, 418)
        do {
            _ = try await task.value
            XCTFail("a 418 does not validate")
        } catch {
            XCTAssertEqual((error as? AFError)?.isResponseValidationError, true, "\(error)")
        }
    }

    func testSerializingResponseWithShorthand() async throws {
        let session = Session()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/get")
        let echo = try await session.request(url).serializingResponse(using: .decodable(of: Echo.self)).value
        XCTAssertEqual(echo.url, url.absoluteString)
        let text = try await session.request(url).serializingResponse(using: .string).value
        XCTAssertTrue(text.contains("\"url\""))
    }

    /// The serializer runs on the session's serialization queue, never on the main queue,
    /// and once however many tasks await the response.
    func testSerializesOnceOnTheSerializationQueue() async throws {
        let serializationQueue = DispatchQueue(label: "test.concurrency.serialization")
        let session = Session(serializationQueue: serializationQueue)
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/get")
        let calls = CallCounter()
        let task = session.request(url).serializingResponse(using: CheckingSerializer(expectedQueue: serializationQueue, calls: calls))

        async let first = task.value
        async let second = task.response
        async let third = task.result
        let (a, b, c) = try await (first, second, third)
        XCTAssertGreaterThan(a, 0)
        XCTAssertEqual(b.value, a)
        XCTAssertEqual(try c.get(), a)
        let later = try await task.value
        XCTAssertEqual(later, a)
        XCTAssertEqual(calls.value, 1)
    }

    /// With the default serialization queue too: a concurrent queue of the session's own.
    func testDefaultSerializationQueueIsNotMain() async throws {
        let session = Session()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/get")
        let calls = CallCounter()
        let serializer = CheckingSerializer(expectedQueue: session.serializationQueue, calls: calls)
        _ = try await session.request(url).serializingResponse(using: serializer).value
        XCTAssertEqual(calls.value, 1)
    }

    func testDataTaskCancel() async throws {
        let session = Session()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/delay/5")
        let request = session.request(url)
        let task = request.serializingData()
        task.cancel()
        let response = await task.response
        XCTAssertEqual(response.error?.isExplicitlyCancelledError, true, "\(String(describing: response.error))")
        XCTAssertTrue(request.isCancelled)
    }

    /// Cancelling the Swift task that awaits a `DataTask` cancels the request in flight; it
    /// completes with `explicitlyCancelled` instead of waiting out httpbin's 5 s delay.
    func testCancellingTheSwiftTaskCancelsTheRequest() async throws {
        let (starts, continuation) = AsyncStream.makeStream(of: Void.self)
        let session = Session(eventMonitors: [TransferStarts(continuation)])
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/delay/5")
        let request = session.request(URLRequest(url: url))
        let waiter = Task { await request.serializingData().response }
        for await _ in starts { break }

        waiter.cancel()
        let response = await waiter.value
        XCTAssertEqual(response.error?.isExplicitlyCancelledError, true, "\(String(describing: response.error))")
        XCTAssertTrue(request.isCancelled)
        XCTAssertNil(response.response, "the request did not wait for the server's answer")
    }

    func testAutomaticCancellationCanBeTurnedOff() async throws {
        let (starts, continuation) = AsyncStream.makeStream(of: Void.self)
        let session = Session(eventMonitors: [TransferStarts(continuation)])
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/delay/1")
        let request = session.request(URLRequest(url: url))
        let dataTask = request.serializingData(automaticallyCancelling: false)
        let waiter = Task { await dataTask.response }
        for await _ in starts { break }

        waiter.cancel()
        let response = await waiter.value
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertNotNil(response.value)
        XCTAssertFalse(request.isCancelled)
    }

    func testAlreadyCancelledTaskCancelsAtOnce() async throws {
        let session = Session()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/delay/5")
        let request = session.request(url)
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await request.serializingString().response
        }
        let response = await waiter.value
        XCTAssertEqual(response.error?.isExplicitlyCancelledError, true, "\(String(describing: response.error))")
    }

    func testSuspendAndResumeThroughTheDataTask() async throws {
        let session = Session(startRequestsImmediately: false)
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/get")
        let request = session.request(url)
        let task = request.serializingDecodable(Echo.self)
        XCTAssertTrue(request.isInitialized, "without startRequestsImmediately the task does not start the request")
        task.resume()
        task.suspend()
        task.resume()
        let echo = try await task.value
        XCTAssertEqual(echo.url, url.absoluteString)
    }
}
