import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Salvo

/// Proxies against the fault server, which answers a forward-proxy request itself with the
/// target it was asked for, and tunnels CONNECT to loopback targets (HTTPS through a proxy):
/// `TransportConfiguration.proxy`, and URLSession's `connectionProxyDictionary`.
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

    private func proxyDictionary(_ prefix: String, port: Int) -> [AnyHashable: Any] {
        [prefix + "Enable": 1, prefix + "Proxy": "127.0.0.1", prefix + "Port": port]
    }

    private func session(proxies: [AnyHashable: Any], transport: TransportConfiguration = TransportConfiguration()) -> Session {
        testSession({ $0.connectionProxyDictionary = proxies }, transport: transport)
    }

    /// The fault server's answer to a direct GET /ok, and to the same through it as a proxy.
    private func wentThroughProxy(_ response: AFDataResponse<Data>) -> Bool? {
        if response.data == Data("ok\n".utf8) { return false }
        return json(response.data)["proxied"] != nil ? true : nil
    }

    func testConnectionProxyDictionaryHTTPProxy() throws {
        let fault = try TestServers.shared.fault
        let session = session(proxies: proxyDictionary("HTTP", port: try XCTUnwrap(fault.port)))
        let target = "http://salvo-proxy-target.invalid/via-dictionary"
        let response = awaitData(session.request(target))
        XCTAssertEqual(json(response.data)["proxied"] as? String, target)
    }

    /// An HTTPS proxy is reached with CONNECT and carries TLS end to end; `http` URLs, which
    /// the dictionary names no proxy for, go direct. Each kind of request takes handles the
    /// other kind used last, on reused connections, and still goes its own way.
    func testConnectionProxyDictionaryHTTPSProxyTunnelsAndLeavesHTTPDirect() throws {
        let fault = try TestServers.shared.fault
        let transport = TransportConfiguration(caBundlePath: try TestServers.shared.tlsCABundle)
        let session = session(proxies: proxyDictionary("HTTPS", port: try XCTUnwrap(fault.port)), transport: transport)
        let tls = try TestServers.shared.url(.nginxTLS, "/small")
        let ok = try TestServers.shared.url(.fault, "/ok")
        func tunnels() -> Int {
            let connects = json(awaitData(session.request(try! TestServers.shared.url(.fault, "/connects"))).data)["connects"] as? [String]
            return connects?.filter { $0 == "127.0.0.1:\(tls.port!)" }.count ?? -1
        }
        // The second direct request reuses its connection: its handle keeps its options.
        for _ in 0..<2 { XCTAssertEqual(wentThroughProxy(awaitData(session.request(ok))), false) }
        let before = tunnels()
        for _ in 0..<2 {
            // The second reuses the tunnel, so its handle too goes back ready for a plain GET.
            let secure = awaitData(session.request(tls).validate())
            XCTAssertNil(secure.error)
            XCTAssertEqual(secure.data?.count, 100)
            XCTAssertEqual(wentThroughProxy(awaitData(session.request(ok))), false)
        }
        XCTAssertEqual(tunnels(), before + 1, "the HTTPS requests went through one tunnel of the proxy")
    }

    func testConnectionProxyDictionaryExceptionsGoDirect() throws {
        let fault = try TestServers.shared.fault
        let port = try XCTUnwrap(fault.port)
        var proxies = proxyDictionary("HTTP", port: port)
        // libcurl takes *.localhost for loopback without a resolver.
        proxies["ExceptionsList"] = ["*.localhost", "salvo-direct.invalid"]
        let session = session(proxies: proxies)
        XCTAssertEqual(wentThroughProxy(awaitData(session.request("http://direct.localhost:\(port)/ok"))), false)
        XCTAssertEqual(wentThroughProxy(awaitData(session.request(try TestServers.shared.url(.fault, "/ok")))), true)
        XCTAssertEqual(wentThroughProxy(awaitData(session.request("http://salvo-proxy-target.invalid/ok"))), true)
    }

    /// A dictionary that enables no proxy means none, whatever the environment says; without a
    /// dictionary the environment's proxy is used, as FoundationNetworking does.
    func testAnEmptyConnectionProxyDictionaryIgnoresTheEnvironmentsProxy() throws {
        let closed = try DataRequestFaultTests.closedPort()
        setenv("http_proxy", "http://127.0.0.1:\(closed)", 1)
        defer { unsetenv("http_proxy") }
        let ok = try TestServers.shared.url(.fault, "/ok")
        let fromEnvironment = testSession()
        XCTAssertEqual(urlErrorCode(awaitData(fromEnvironment.request(ok)).error), .cannotConnectToHost, "the environment's proxy was not used")
        let none = session(proxies: [:])
        XCTAssertEqual(wentThroughProxy(awaitData(none.request(ok))), false)
    }

    /// `TransportConfiguration.proxy` wins over the dictionary.
    func testTheTransportProxyWinsOverTheDictionary() throws {
        let fault = try TestServers.shared.fault
        let closed = try DataRequestFaultTests.closedPort()
        let session = session(proxies: proxyDictionary("HTTP", port: try XCTUnwrap(fault.port)),
                              transport: TransportConfiguration(proxy: "http://127.0.0.1:\(closed)"))
        let response = awaitData(session.request("http://salvo-proxy-target.invalid/"))
        XCTAssertEqual(urlErrorCode(response.error), .cannotConnectToHost, String(describing: response.error))
    }

    func testConnectionProxyDictionaryParsing() {
        XCTAssertNil(ConnectionProxySettings(nil))
        XCTAssertEqual(ConnectionProxySettings([:]), ConnectionProxySettings(["HTTPEnable": 0, "HTTPProxy": "p", "HTTPPort": 1]))
        XCTAssertEqual(ConnectionProxySettings([:])?.http, "")
        let both = ConnectionProxySettings(["HTTPEnable": true, "HTTPProxy": "proxy.example", "HTTPPort": NSNumber(value: 3128),
                                            "HTTPSEnable": NSNumber(value: 1), "HTTPSProxy": "secure.example", "HTTPSPort": "8443"])
        XCTAssertEqual(both?.http, "http://proxy.example:3128")
        XCTAssertEqual(both?.https, "http://secure.example:8443")
        XCTAssertEqual(both?.exceptions, "")
        let socks = ConnectionProxySettings(["SOCKSEnable": 1, "SOCKSProxy": "::1", "SOCKSPort": 1080,
                                             "ExceptionsList": ["*.local", " intranet.example ", "", 7]])
        XCTAssertEqual(socks?.http, "socks5h://[::1]:1080")
        XCTAssertEqual(socks?.https, "socks5h://[::1]:1080")
        XCTAssertEqual(socks?.exceptions, ".local,intranet.example")
        let noPort = ConnectionProxySettings(["HTTPEnable": 1, "HTTPProxy": "proxy.example", "HTTPPort": 70000])
        XCTAssertEqual(noPort?.http, "http://proxy.example")
        XCTAssertEqual(noPort?.https, "")
    }
}
