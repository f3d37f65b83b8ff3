import XCTest
import Synchronization
import Salvo

/// httpbin's echo of a request: the fields these tests read.
private struct Echo: Decodable, Sendable {
    var url: String
    var headers: [String: String]
    var args: [String: String]?
    var form: [String: String]?
    var json: [String: String]?
}

/// The module-level `request(...)` functions, in the style older Alamofire code uses:
/// `Salvo.request(urlString, method: .post)`. They run on `Session.default`; each handler
/// here names its own queue, so none needs the main queue.
final class ModuleFunctionsTests: XCTestCase {
    private let handlerQueue = DispatchQueue(label: "test.module-functions")

    private func echo(_ request: DataRequest, file: StaticString = #filePath, line: UInt = #line) -> Echo? {
        let done = expectation(description: "response")
        let result = ResultHolder()
        request.validate().responseDecodable(of: Echo.self, queue: handlerQueue) { response in
            result.set(response)
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        guard let response = result.response else { return nil }
        guard let value = response.value else {
            XCTFail("request failed: \(response.debugDescription)", file: file, line: line)
            return nil
        }
        return value
    }

    func testRequestWithURLStringAndMethod() throws {
        let urlString = try TestServers.shared.url(.httpbin, "/post").absoluteString
        let request = Salvo.request(urlString, method: .post)
        XCTAssertTrue(request.delegate === Session.default)
        let echo = try XCTUnwrap(echo(request))
        XCTAssertEqual(echo.url, urlString, "httpbin's /post answers only POST")
    }

    func testRequestWithParametersAndEncoding() throws {
        let url = try TestServers.shared.url(.httpbin, "/post")
        let echo = try XCTUnwrap(echo(Salvo.request(url, method: .post, parameters: ["name": "salvo"], encoding: URLEncoding.httpBody,
                                                     headers: ["X-Module": "1"])))
        XCTAssertEqual(echo.form, ["name": "salvo"])
        XCTAssertEqual(echo.headers["X-Module"], "1")
    }

    func testRequestWithEncodableParameters() throws {
        let url = try TestServers.shared.url(.httpbin, "/post")
        let echo = try XCTUnwrap(echo(Salvo.request(url, method: .post, parameters: ["name": "salvo"], encoder: JSONParameterEncoder.default)))
        XCTAssertEqual(echo.json, ["name": "salvo"])
    }

    func testRequestWithURL() throws {
        let url = try TestServers.shared.url(.httpbin, "/get?from=url")
        let echo = try XCTUnwrap(echo(Salvo.request(url)))
        XCTAssertEqual(echo.args, ["from": "url"])
    }

    func testRequestWithURLComponents() throws {
        let base = try TestServers.shared.url(.httpbin, "/get")
        var components = try XCTUnwrap(URLComponents(url: base, resolvingAgainstBaseURL: false))
        components.queryItems = [URLQueryItem(name: "from", value: "components")]
        let echo = try XCTUnwrap(echo(Salvo.request(components)))
        XCTAssertEqual(echo.args, ["from": "components"])
    }

    func testRequestWithHandBuiltURLRequest() throws {
        var urlRequest = URLRequest(url: try TestServers.shared.url(.httpbin, "/post"))
        urlRequest.httpMethod = "POST"
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        urlRequest.httpBody = try JSONSerialization.data(withJSONObject: ["title": "hand-built"])
        let echo = try XCTUnwrap(echo(Salvo.request(urlRequest)))
        XCTAssertEqual(echo.json, ["title": "hand-built"])
        XCTAssertEqual(echo.headers["Content-Type"], "application/json")
    }
}

/// The response a handler delivered, handed to the test thread.
private final class ResultHolder: Sendable {
    private let storage = Mutex<AFDataResponse<Echo>?>(nil)
    var response: AFDataResponse<Echo>? { storage.withLock { $0 } }
    func set(_ response: AFDataResponse<Echo>) { storage.withLock { $0 = response } }
}
