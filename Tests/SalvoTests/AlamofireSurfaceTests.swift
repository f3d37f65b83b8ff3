import XCTest
import Salvo

/// Alamofire API that code written for Alamofire names and that Salvo once lacked: each test
/// uses it as Alamofire's callers do, so a missing or misspelt declaration fails to compile.
final class AlamofireSurfaceTests: XCTestCase {
    private struct Wrapped: Error, Equatable {
        let code: Int?
    }

    private struct Thrown: Error {}

    func testAFResultAndTryMapErrorOnDataResponses() throws {
        let session = testSession()
        let failed = awaitData(session.request(try TestServers.shared.url(.httpbin, "/status/418")).validate())
        let result: AFResult<Data> = failed.result
        XCTAssertEqual(result.failure?.responseCode, 418)

        let mapped = failed.tryMapError { Wrapped(code: $0.responseCode) }
        XCTAssertEqual(mapped.error as? Wrapped, Wrapped(code: 418))
        XCTAssertEqual(mapped.response?.statusCode, 418, "the response travels with the new result")
        let thrown = failed.tryMapError { _ -> Wrapped in throw Thrown() }
        XCTAssertTrue(thrown.error is Thrown)

        let succeeded = awaitData(session.request(try TestServers.shared.url(.nginx, "/small")))
        let untouched = succeeded.tryMapError { _ -> Wrapped in throw Thrown() }
        XCTAssertEqual(untouched.value, succeeded.value)
    }

    func testTryMapErrorOnDownloadResponses() throws {
        let session = testSession()
        let failed = awaitDownload(session.download(try TestServers.shared.url(.httpbin, "/status/404")).validate())
        let mapped = failed.tryMapError { Wrapped(code: $0.responseCode) }
        XCTAssertEqual(mapped.error as? Wrapped, Wrapped(code: 404))
        XCTAssertNil(mapped.fileURL, "a failed download keeps no file")
    }

    /// `ResponseSerializer` has a primary associated type, so opaque and existential
    /// serializers can name what they make.
    func testResponseSerializerNamesItsObject() throws {
        let serializer: some ResponseSerializer<String> = StringResponseSerializer()
        let any: any ResponseSerializer<Data> = DataResponseSerializer()
        XCTAssertEqual(try serializer.serialize(request: nil, response: nil, data: Data("hi".utf8), error: nil), "hi")
        XCTAssertEqual(try any.serialize(request: nil, response: nil, data: Data("hi".utf8), error: nil), Data("hi".utf8))
    }

    /// `Stream.result` and the `DataStreamTask.Stream` alias, as a `switch` over events uses them.
    func testStreamResultAndTaskStreamAlias() async throws {
        let session = testSession()
        let task = session.streamRequest(try TestServers.shared.url(.nginx, "/small")).streamTask()
        let stream: DataStreamTask.Stream<Data, Never> = task.streamingData()
        var bytes = 0
        var completions = 0
        for await event in stream {
            switch event.result {
            case let .success(data)?: bytes += data.count
            case nil: completions += 1
            }
        }
        XCTAssertEqual(bytes, 100)
        XCTAssertEqual(completions, 1)
    }
}

private extension Result {
    var failure: Failure? {
        guard case let .failure(error) = self else { return nil }
        return error
    }
}
