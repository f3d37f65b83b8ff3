import XCTest
import Synchronization
import Salvo

/// `cURLDescription()` in Alamofire's format, stated exactly. Each test keeps its session
/// alive to the end (`withExtendedLifetime`): a session released early fails its requests.
final class CURLDescriptionTests: XCTestCase {
    private static let separator = " \\\n\t"
    private let handlerQueue = DispatchQueue(label: "test.curl.handlers")

    /// A session whose only default headers are the two set here, so the text is known.
    private func makeSession(startRequestsImmediately: Bool = true) -> Session {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["User-Agent": "SalvoTests/1.0", "Accept-Language": "en"]
        return Session(configuration: configuration, startRequestsImmediately: startRequestsImmediately,
                       responseQueue: handlerQueue)
    }

    /// Sends the request and waits until it completes.
    private func complete(_ request: DataRequest) {
        let done = expectation(description: "response")
        request.response(queue: handlerQueue) { _ in done.fulfill() }
        wait(for: [done], timeout: 30)
    }

    private func expected(_ lines: [String]) -> String {
        lines.joined(separator: Self.separator)
    }

    func testNoRequestYet() throws {
        let session = makeSession(startRequestsImmediately: false)
        defer { withExtendedLifetime(session) {} }
        let request = session.request(try TestServers.shared.url(.httpbin, "/get"))
        XCTAssertEqual(request.cURLDescription(), "$ curl command could not be created")
    }

    func testGetWithSessionAndRequestHeaders() throws {
        let session = makeSession()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/get?q=a%20b")
        let request = session.request(url, headers: ["X-Trace": #"a"b"#, "user-agent": "Custom/2"])
        complete(request)
        XCTAssertEqual(request.cURLDescription(), expected([
            "$ curl -v",
            "-X GET",
            #"-H "Accept-Language: en""#,
            #"-H "user-agent: Custom/2""#,
            #"-H "X-Trace: a\"b""#,
            #""\#(url.absoluteString)""#,
        ]))
    }

    /// As in Alamofire, the command is the request Salvo was asked to send, not the hop a
    /// redirect led to.
    func testDescribesTheRequestNotTheRedirectTarget() throws {
        let session = makeSession()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/redirect/1")
        let request = session.request(url)
        complete(request)
        XCTAssertEqual(request.response?.url?.path, "/get", "the redirect was followed")
        XCTAssertTrue(request.cURLDescription().hasSuffix(#""\#(url.absoluteString)""#), request.cURLDescription())
    }

    func testEmptyHeaderValueUsesCurlsSyntax() throws {
        let session = makeSession()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/headers")
        let request = session.request(url, headers: ["X-Empty": ""])
        complete(request)
        XCTAssertTrue(request.cURLDescription().contains(#"-H "X-Empty;""#), request.cURLDescription())
    }

    func testPostWithBodyCookiesAndEscaping() throws {
        let session = makeSession()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/post")
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = "POST"
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        urlRequest.setValue("a=1; b=2", forHTTPHeaderField: "Cookie")
        urlRequest.httpBody = Data(#"{"say":"\"hi\"","path":"C:\\tmp","price":"$5","cmd":"`id`"}"#.utf8)
        let request = session.request(urlRequest)
        complete(request)
        XCTAssertEqual(request.cURLDescription(), expected([
            "$ curl -v",
            "-X POST",
            #"-b "a=1; b=2""#,
            #"-H "Accept-Language: en""#,
            #"-H "Content-Type: application/json""#,
            #"-H "User-Agent: SalvoTests/1.0""#,
            #"-d "{\"say\":\"\\\"hi\\\"\",\"path\":\"C:\\\\tmp\",\"price\":\"\$5\",\"cmd\":\"\`id\`\"}""#,
            #""\#(url.absoluteString)""#,
        ]))
    }

    func testParametersEncodedIntoTheBody() throws {
        let session = makeSession()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/patch")
        let request = session.request(url, method: .patch, parameters: ["name": "salvo"], encoding: URLEncoding.httpBody)
        complete(request)
        XCTAssertEqual(request.cURLDescription(), expected([
            "$ curl -v",
            "-X PATCH",
            #"-H "Accept-Language: en""#,
            #"-H "Content-Type: application/x-www-form-urlencoded; charset=utf-8""#,
            #"-H "User-Agent: SalvoTests/1.0""#,
            #"-d "name=salvo""#,
            #""\#(url.absoluteString)""#,
        ]))
    }

    func testCredentials() throws {
        let session = makeSession()
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/basic-auth/user/passwd")
        let plain = session.request(url).authenticate(username: "user", password: "passwd")
        complete(plain)
        XCTAssertEqual(plain.cURLDescription(), expected([
            "$ curl -v",
            "-X GET",
            "-u user:passwd",
            #"-H "Accept-Language: en""#,
            #"-H "User-Agent: SalvoTests/1.0""#,
            #""\#(url.absoluteString)""#,
        ]))

        let spaced = session.request(url).authenticate(username: "user", password: "p a$s")
        complete(spaced)
        XCTAssertTrue(spaced.cURLDescription().contains(#"-u "user:p a\$s""#), spaced.cURLDescription())
    }

    func testHandlerWaitsForTheRequestAndRunsOnceOnItsQueue() throws {
        let session = makeSession(startRequestsImmediately: false)
        defer { withExtendedLifetime(session) {} }
        let url = try TestServers.shared.url(.httpbin, "/get")
        let request = session.request(url)
        let descriptionQueue = DispatchQueue(label: "test.curl.description")
        let calls = Mutex<[String]>([])
        let described = expectation(description: "description")
        request.cURLDescription(on: descriptionQueue) { description in
            dispatchPrecondition(condition: .onQueue(descriptionQueue))
            calls.withLock { $0.append(description) }
            described.fulfill()
        }
        complete(request.resume())
        wait(for: [described], timeout: 30)
        let descriptions = calls.withLock { $0 }
        XCTAssertEqual(descriptions, [request.cURLDescription()])
        XCTAssertTrue(descriptions.first?.hasPrefix("$ curl -v" + Self.separator + "-X GET") == true, "\(descriptions)")

        // Once the request exists, on the request's underlying queue by default.
        let again = expectation(description: "again")
        request.cURLDescription { description in
            dispatchPrecondition(condition: .onQueue(request.underlyingQueue))
            XCTAssertEqual(description, descriptions.first)
            again.fulfill()
        }
        wait(for: [again], timeout: 30)
    }

    func testHandlerForARequestThatCouldNotBeCreated() {
        let session = makeSession()
        defer { withExtendedLifetime(session) {} }
        let request = session.request("http://[bad")
        let described = expectation(description: "description")
        request.cURLDescription(on: handlerQueue) { description in
            XCTAssertEqual(description, "$ curl command could not be created")
            described.fulfill()
        }
        complete(request)
        wait(for: [described], timeout: 30)
    }
}
