import Foundation
import XCTest
import Salvo

/// `TransportConfiguration.proxy` against the fault server, which answers a forward-proxy
/// request itself with the target it was asked for.
final class ProxyTests: XCTestCase {
    func testRequestsGoThroughTheConfiguredProxy() throws {
        let proxy = try TestServers.shared.fault.absoluteString
        let session = testSession(transport: TransportConfiguration(proxy: proxy))
        // A host that resolves nowhere: only the proxy is looked up and connected to.
        let target = "http://salvo-proxy-target.invalid:8080/some/path?q=1"
        let response = awaitData(session.request(target, method: .post, parameters: ["a": "1"]).validate())
        XCTAssertNil(response.error)
        let echo = json(response.data)
        XCTAssertEqual(echo["proxied"] as? String, target)
        XCTAssertEqual(echo["host"] as? String, "salvo-proxy-target.invalid:8080")
        XCTAssertEqual(echo["method"] as? String, "POST")
        // The response describes the request's own URL, not the proxy's.
        XCTAssertEqual(response.response?.url?.absoluteString, target)
    }

    func testWithoutAProxyTheTargetIsAskedDirectly() throws {
        let session = testSession()
        let response = awaitData(session.request(try TestServers.shared.url(.fault, "/ok")))
        XCTAssertEqual(response.data, Data("ok\n".utf8))
    }

    /// An unreachable proxy fails the request as URLSession does for a proxy it cannot reach.
    func testAnUnreachableProxyFailsTheRequest() throws {
        let port = try DataRequestFaultTests.closedPort()
        let session = testSession(transport: TransportConfiguration(proxy: "http://127.0.0.1:\(port)"))
        let response = awaitData(session.request("http://salvo-proxy-target.invalid/"))
        XCTAssertEqual(urlErrorCode(response.error), .cannotConnectToHost, String(describing: response.error))
    }
}
