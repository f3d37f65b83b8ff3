import XCTest
import Salvo
import SalvoTestSupport

/// Only http and https are fetched, asked for or redirected to: a local file, gopher (raw
/// bytes to any port), dict, ftp and the rest fail with `unsupportedURL` before a byte moves.
final class SchemeRestrictionTests: XCTestCase {
    func testALocalFileIsNotRead() {
        let session = testSession()
        let response = awaitData(session.request("file:///etc/passwd"))
        XCTAssertEqual(urlErrorCode(response.error), .unsupportedURL, String(describing: response.error))
        XCTAssertNil(response.data.flatMap { $0.isEmpty ? nil : $0 })
    }

    func testOtherSchemesAreNotAttempted() throws {
        let session = testSession()
        let port = try TestServers.shared.url(.fault, "/").port!
        for url in ["gopher://127.0.0.1:\(port)/_GET%20/hit/direct%20HTTP/1.0%0D%0A%0D%0A", "dict://127.0.0.1:\(port)/d:x",
                    "ftp://127.0.0.1:\(port)/x", "telnet://127.0.0.1:\(port)/", "scp://127.0.0.1:\(port)/x"] {
            let response = awaitData(session.request(url))
            XCTAssertEqual(urlErrorCode(response.error), .unsupportedURL, "\(url): \(String(describing: response.error))")
        }
        XCTAssertEqual(try TestServers.shared.faultHits("direct"), 0)
    }

    func testARedirectToALocalFileFails() throws {
        let session = testSession()
        for status in [301, 302, 303, 307, 308] {
            let response = awaitData(session.request(try TestServers.shared.faultRedirect(to: "file:///etc/passwd", status: status)))
            XCTAssertEqual(urlErrorCode(response.error), .unsupportedURL, "\(status): \(String(describing: response.error))")
            XCTAssertFalse(String(decoding: response.data ?? Data(), as: UTF8.self).contains("root:"))
        }
    }

    func testARedirectToGopherWritesNothing() throws {
        let session = testSession()
        let port = try TestServers.shared.url(.fault, "/").port!
        let gopher = "gopher://127.0.0.1:\(port)/_GET%20/hit/redirected%20HTTP/1.0%0D%0A%0D%0A"
        let response = awaitData(session.request(try TestServers.shared.faultRedirect(to: gopher)))
        XCTAssertEqual(urlErrorCode(response.error), .unsupportedURL, String(describing: response.error))
        XCTAssertEqual(try TestServers.shared.faultHits("redirected"), 0)
    }

    func testADownloadAndAStreamRefuseOtherSchemesToo() throws {
        let session = testSession()
        let download = awaitDownload(session.download(try TestServers.shared.faultRedirect(to: "file:///etc/passwd")))
        XCTAssertEqual(urlErrorCode(download.error), .unsupportedURL, String(describing: download.error))
        XCTAssertNil(download.fileURL)

        let done = expectation(description: "stream")
        let outcome = Box<AFError?>()
        session.streamRequest("file:///etc/passwd").responseStream(on: .global()) { stream in
            if case let .complete(completion) = stream.event {
                outcome.set(completion.error)
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(urlErrorCode(outcome.value ?? nil), .unsupportedURL)
    }

    /// A request refused before it is sent still reports the request it would have sent, as
    /// Alamofire's response carries the `URLRequest` whose task failed.
    func testARefusedRequestStillReportsTheRequestItBuilt() {
        let session = testSession()
        let request = session.request("invalid", parameters: ["foo": "bar"])
        let response = awaitData(request)
        XCTAssertEqual(urlErrorCode(response.error), .unsupportedURL, String(describing: response.error))
        XCTAssertEqual(response.request?.url?.absoluteString, "invalid?foo=bar")
        XCTAssertEqual(response.request?.httpMethod, "GET")
        XCTAssertEqual(request.request, response.request)
        XCTAssertNil(response.response)
    }

    func testAnEmptyAuthorityIsAnInvalidURL() {
        let session = testSession()
        let response = awaitData(session.request("http:///ok"))
        XCTAssertTrue(response.error?.isInvalidURLError == true, String(describing: response.error))
    }
}
