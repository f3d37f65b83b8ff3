import XCTest
import Synchronization
import Salvo
import SalvoTestSupport

extension XCTestCase {
    /// A session whose handlers never need the main queue.
    func testSession(_ configure: (URLSessionConfiguration) -> Void = { _ in },
                     transport: TransportConfiguration = TransportConfiguration()) -> Session {
        let configuration = URLSessionConfiguration.af.default
        // A cookie storage of its own, as an ephemeral configuration has: one test's cookies
        // never reach another's requests through the process's shared storage.
        configuration.httpCookieStorage = URLSessionConfiguration.ephemeral.httpCookieStorage
        configure(configuration)
        return Session(configuration: configuration, transport: transport,
                       responseQueue: DispatchQueue(label: "test.responses"))
    }

    /// Adds a `responseData` handler and waits for it; the expectation fails the test if the
    /// handler runs twice.
    func awaitData(_ request: DataRequest, timeout: TimeInterval = 30,
                   file: StaticString = #filePath, line: UInt = #line) -> AFDataResponse<Data> {
        let done = expectation(description: "response")
        let box = Box<AFDataResponse<Data>>()
        request.responseData(queue: .global()) { response in
            box.set(response)
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        guard let response = box.value else {
            XCTFail("no response", file: file, line: line)
            return AFDataResponse(request: nil, response: nil, data: nil, metrics: nil, serializationDuration: 0,
                                  result: .failure(.explicitlyCancelled))
        }
        return response
    }

    /// The URLError code inside `AFError.sessionTaskFailed`, if that is what the error is.
    func urlErrorCode(_ error: AFError?) -> URLError.Code? {
        guard case let .sessionTaskFailed(underlying)? = error else { return nil }
        return (underlying as? URLError)?.code
    }

    /// httpbin's JSON echo of a response body.
    func json(_ data: Data?) -> [String: Any] {
        data.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
    }
}
