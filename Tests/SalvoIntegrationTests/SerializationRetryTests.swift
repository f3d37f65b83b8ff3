import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTestSupport

/// As in Alamofire, a serializer that fails on a response that otherwise succeeded asks the
/// retriers: a 500 with an empty body, unvalidated, fails `.data` serialization, and a
/// `RetryPolicy` retries it.
final class SerializationRetryTests: XCTestCase {
    private let queue = DispatchQueue(label: "test.serialization-retry.responses")

    /// An adapter that sends the first attempt to `first` and every later one to `then`,
    /// as Alamofire's test endpoint sequences do.
    private func sequence(_ first: URL, then: URL) -> Adapter {
        let attempts = Mutex(0)
        return Adapter { request, _, completion in
            var request = request
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            request.url = attempt == 1 ? first : then
            completion(.success(request))
        }
    }

    /// The responses of a plain handler and a `responseData` handler of `request`.
    private func responses(of request: DataRequest) -> (plain: AFDataResponse<Data?>?, serialized: AFDataResponse<Data>?) {
        let both = expectation(description: "both handlers")
        both.expectedFulfillmentCount = 2
        let plain = Box<AFDataResponse<Data?>>()
        let serialized = Box<AFDataResponse<Data>>()
        request.response(queue: queue) { response in
            plain.set(response)
            both.fulfill()
        }
        request.responseData(queue: queue) { response in
            serialized.set(response)
            both.fulfill()
        }
        wait(for: [both], timeout: 20)
        return (plain.value, serialized.value)
    }

    private var policy: RetryPolicy { RetryPolicy(retryLimit: 2, exponentialBackoffBase: 2, exponentialBackoffScale: 0) }

    func testAnAsyncSerializerFailureIsRetriedAndTheRetrysValueReturned() async throws {
        let session = Session(responseQueue: queue)
        let failing = try TestServers.shared.url(.httpbin, "/status/500")
        let succeeding = try TestServers.shared.url(.httpbin, "/get")
        let request = session.request(failing, interceptor: Interceptor(adapters: [sequence(failing, then: succeeding)], retriers: [policy]))
        let value = try await request.serializingResponse(using: .data).value
        XCTAssertFalse(value.isEmpty)
        XCTAssertEqual(request.retryCount, 1)
        XCTAssertEqual(request.response?.statusCode, 200)
    }

    func testAHandlersSerializerFailureIsRetriedUntilThePolicyGivesUp() throws {
        let session = Session(responseQueue: queue)
        let request = session.request(try TestServers.shared.url(.httpbin, "/status/500"), interceptor: policy)
        let (plain, serialized) = responses(of: request)
        XCTAssertEqual(request.retryCount, 2, "retried up to the policy's limit")
        XCTAssertEqual(serialized?.response?.statusCode, 500)
        guard case .responseSerializationFailed(reason: .inputDataNilOrZeroLength)? = serialized?.error else {
            return XCTFail("expected the empty body's serialization failure, got \(String(describing: serialized?.error))")
        }
        XCTAssertNil(plain?.error, "the request itself did not fail: only one serializer did")
        XCTAssertNil(request.error)
    }

    func testWithoutARetrierASerializerFailureIsDeliveredOnce() throws {
        let session = Session(responseQueue: queue)
        let request = session.request(try TestServers.shared.url(.httpbin, "/status/500"))
        let response = awaitData(request)
        XCTAssertTrue(response.error?.isResponseSerializationError == true)
        XCTAssertEqual(request.retryCount, 0)
    }

    /// A retrier that declines with an error: the failing serializer's handler gets
    /// `requestRetryFailed`, the request and its other handlers no error.
    func testARetryDeclinedWithAnErrorFailsOnlyTheFailingSerializersHandler() throws {
        struct Refusal: Error {}
        let session = Session(responseQueue: queue)
        let request = session.request(try TestServers.shared.url(.httpbin, "/status/500"),
                                      interceptor: Retrier { _, _, _, completion in completion(.doNotRetryWithError(Refusal())) })
        let (plain, serialized) = responses(of: request)
        guard case let .requestRetryFailed(retryError, originalError)? = serialized?.error else {
            return XCTFail("expected requestRetryFailed, got \(String(describing: serialized?.error))")
        }
        XCTAssertTrue(retryError is Refusal)
        XCTAssertTrue((originalError as? AFError)?.isResponseSerializationError == true)
        XCTAssertNil(plain?.error)
        XCTAssertNil(request.error)
        XCTAssertEqual(request.retryCount, 0)
    }
}
