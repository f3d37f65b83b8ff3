import Foundation
import XCTest

/// `salvo` through a real proxy (tinyproxy, started per test): by option and by the
/// environment, HTTPS tunnelled with CONNECT, `--no-proxy`, an option over the environment,
/// a proxy login, and a per-entry proxy.
final class SalvoToolProxyTests: XCTestCase {
    private var root: URL!
    private var output: URL!

    override func setUpWithError() throws {
        (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> SalvoToolProcess.Outcome {
        try SalvoToolProcess.run(["-d", output.path] + arguments, environment: SalvoToolEnvironment.make(home: root, environment))
    }

    private func nginx(_ path: String) throws -> String { try TestServers.shared.url(.nginx, path).absoluteString }

    func testAllProxyCarriesPlainRequests() throws {
        let proxy = try TinyProxy()
        let url = try nginx("/small?via=all-proxy")
        let outcome = try run(["--all-proxy", proxy.url, url])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput + outcome.standardError)
        XCTAssertEqual(proxy.requests, ["GET \(url) HTTP/1.1"])
    }

    func testHTTPSGoesThroughTheProxyWithCONNECT() throws {
        let proxy = try TinyProxy()
        let url = try TestServers.shared.url(.nginxTLS, "/small")
        let outcome = try run(["--https-proxy", proxy.url, "--ca-certificate", try TestServers.shared.tlsCABundle, url.absoluteString])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput + outcome.standardError)
        XCTAssertEqual(proxy.requests, ["CONNECT 127.0.0.1:\(url.port!) HTTP/1.1"])
    }

    func testSchemeProxyOptionsApplyToTheirSchemeOnly() throws {
        let proxy = try TinyProxy()
        let outcome = try run(["--https-proxy", proxy.url, try nginx("/small?plain")])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput)
        XCTAssertEqual(proxy.requests, [], "an http URL went through the https proxy")

        let plain = try run(["--http-proxy", proxy.url, "-o", "second", try nginx("/small?http-proxy")])
        XCTAssertEqual(plain.status, 0, plain.standardOutput)
        XCTAssertEqual(proxy.requests.count, 1)
    }

    func testEnvironmentVariablesNameTheProxy() throws {
        let proxy = try TinyProxy()
        let viaHTTP = try nginx("/small?via=http_proxy")
        let first = try run(["-o", "a", viaHTTP], environment: ["http_proxy": proxy.url])
        XCTAssertEqual(first.status, 0, first.standardOutput)
        let viaAll = try nginx("/small?via=ALL_PROXY")
        let second = try run(["-o", "b", viaAll], environment: ["ALL_PROXY": proxy.url])
        XCTAssertEqual(second.status, 0, second.standardOutput)
        let tls = try TestServers.shared.url(.nginxTLS, "/small")
        let third = try run(["-o", "c", "--ca-certificate", try TestServers.shared.tlsCABundle, tls.absoluteString],
                            environment: ["https_proxy": proxy.url])
        XCTAssertEqual(third.status, 0, third.standardOutput)
        XCTAssertEqual(proxy.requests, ["GET \(viaHTTP) HTTP/1.1", "GET \(viaAll) HTTP/1.1", "CONNECT 127.0.0.1:\(tls.port!) HTTP/1.1"])

        // curl's rule: HTTP_PROXY in upper case is not read (a CGI program's request header).
        let upper = try run(["-o", "d", try nginx("/small?via=HTTP_PROXY")], environment: ["HTTP_PROXY": proxy.url])
        XCTAssertEqual(upper.status, 0, upper.standardOutput)
        XCTAssertEqual(proxy.requests.count, 3)
    }

    func testNoProxySkipsTheProxyForListedHosts() throws {
        let proxy = try TinyProxy()
        let byOption = try run(["--all-proxy", proxy.url, "--no-proxy", "example.org,127.0.0.1", try nginx("/small?a")])
        XCTAssertEqual(byOption.status, 0, byOption.standardOutput)
        let byEnvironment = try run(["-o", "b", try nginx("/small?b")], environment: ["http_proxy": proxy.url, "no_proxy": "127.0.0.0/8"])
        XCTAssertEqual(byEnvironment.status, 0, byEnvironment.standardOutput)
        XCTAssertEqual(proxy.requests, [])

        let notListed = try run(["--all-proxy", proxy.url, "--no-proxy", "example.org", "-o", "c", try nginx("/small?c")])
        XCTAssertEqual(notListed.status, 0, notListed.standardOutput)
        XCTAssertEqual(proxy.requests.count, 1)
    }

    func testOptionOverridesTheEnvironment() throws {
        let optionProxy = try TinyProxy()
        let environmentProxy = try TinyProxy()
        let outcome = try run(["--all-proxy", optionProxy.url, try nginx("/small?o")], environment: ["http_proxy": environmentProxy.url])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput)
        XCTAssertEqual(optionProxy.requests.count, 1)
        XCTAssertEqual(environmentProxy.requests, [])

        // "" is no proxy at all, over the variable.
        let none = try run(["--all-proxy=", "-o", "n", try nginx("/small?none")], environment: ["http_proxy": environmentProxy.url])
        XCTAssertEqual(none.status, 0, none.standardOutput)
        XCTAssertEqual(environmentProxy.requests, [])
    }

    func testProxyLoginInTheURLIsSentToTheProxyAndShownNowhere() throws {
        let proxy = try TinyProxy(login: (user: "proxy-user", password: "proxy-secret-77"))
        let refused = try run(["--all-proxy", proxy.url, try nginx("/small?refused")])
        XCTAssertEqual(refused.status, 1, refused.standardOutput)
        XCTAssertTrue(refused.standardOutput.contains("407"), refused.standardOutput)

        let manifest = root.appendingPathComponent("manifest.jsonl")
        let withLogin = "http://proxy-user:proxy-secret-77@127.0.0.1:\(proxy.port)"
        let outcome = try run(["--all-proxy", withLogin, "--json", "--manifest", manifest.path, try nginx("/small?login")])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput + outcome.standardError)
        let written = outcome.standardOutput + outcome.standardError + String(decoding: try Data(contentsOf: manifest), as: UTF8.self)
        XCTAssertFalse(written.contains("proxy-secret-77"), written)
    }

    func testEntryProxyLineAppliesToItsEntryOnly() throws {
        let proxy = try TinyProxy()
        let proxied = try nginx("/small?entry=proxied")
        let direct = try nginx("/small?entry=direct")
        let list = root.appendingPathComponent("list.txt")
        try Data("\(proxied)\n  out=a\n  all-proxy=\(proxy.url)\n\(direct)\n  out=b\n".utf8).write(to: list)
        let outcome = try run(["-i", list.path])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput)
        XCTAssertEqual(proxy.requests, ["GET \(proxied) HTTP/1.1"])
    }
}
