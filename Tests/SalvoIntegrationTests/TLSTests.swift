import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTestSupport

/// HTTPS against the harness's nginx TLS port, whose certificate (for 127.0.0.1 only) comes
/// from a CA made for the run: ALPN, trust, host names, and the errors URLSession reports.
final class TLSTests: XCTestCase {
    private func trustingSession(_ httpVersion: HTTPVersionPolicy = .automatic) throws -> Session {
        testSession(transport: TransportConfiguration(httpVersion: httpVersion, caBundlePath: try TestServers.shared.tlsCABundle))
    }

    private func curlCode(_ error: AFError?) -> Int? {
        guard case let .sessionTaskFailed(underlying)? = error else { return nil }
        return (underlying as? URLError)?.userInfo["SalvoCurlCode"] as? Int
    }

    /// With the run's CA, HTTPS works and speaks HTTP/2 (chosen by ALPN): many requests at
    /// once share one connection, and the bytes are the file's.
    func testTheCABundleIsTrustedAndALPNChoosesHTTP2() throws {
        let session = try trustingSession()
        let first = awaitData(session.request(try TestServers.shared.url(.nginxTLS, "/small")).validate())
        XCTAssertNil(first.error)
        XCTAssertEqual(first.data?.count, 100)
        XCTAssertEqual(first.metrics?.httpVersion, "2")
        XCTAssertGreaterThan(first.metrics?.secureConnect ?? 0, 0, "the handshake is timed")

        let expected = try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("100k.bin"))
        let url = try TestServers.shared.url(.nginxTLS, "/100k.bin")
        let responses = Collector<AFDataResponse<Data>>()
        let all = expectation(description: "all")
        all.expectedFulfillmentCount = 40
        for _ in 0..<40 {
            session.request(url).validate().responseData(queue: .global()) { response in
                responses.append(response)
                all.fulfill()
            }
        }
        wait(for: [all], timeout: 60)
        for response in responses.values {
            XCTAssertNil(response.error)
            XCTAssertTrue(response.data == expected, "a body differs from the file")
            XCTAssertEqual(response.metrics?.httpVersion, "2")
        }
        // Multiplexed: the first request's connection served the rest, so every one reused it.
        XCTAssertEqual(responses.values.filter { $0.metrics?.connectionReused == false }.count, 0)
    }

    func testHTTP1OverTLSWhenAsked() throws {
        let session = try trustingSession(.http1_1)
        let response = awaitData(session.request(try TestServers.shared.url(.nginxTLS, "/json")).validate())
        XCTAssertNil(response.error)
        XCTAssertEqual(response.metrics?.httpVersion, "1.1")
        XCTAssertEqual(json(response.data)["hello"] as? String, "salvo")
    }

    /// Without the run's CA the chain ends at an unknown root: URLSession's
    /// `serverCertificateUntrusted`, with curl's code kept.
    func testAnUnknownCAIsUntrusted() throws {
        let session = testSession()
        let response = awaitData(session.request(try TestServers.shared.url(.nginxTLS, "/small")))
        XCTAssertEqual(urlErrorCode(response.error), .serverCertificateUntrusted, String(describing: response.error))
        XCTAssertEqual(curlCode(response.error), 60)
        XCTAssertNil(response.response)
    }

    /// The certificate names 127.0.0.1 only: the same server reached as `localhost` is not it.
    func testAHostNameTheCertificateDoesNotNameIsUntrusted() throws {
        let session = try trustingSession()
        let port = try XCTUnwrap(TestServers.shared.url(.nginxTLS, "/small").port)
        let response = awaitData(session.request("https://localhost:\(port)/small"))
        XCTAssertEqual(urlErrorCode(response.error), .serverCertificateUntrusted, String(describing: response.error))
    }

    /// TLS spoken to a port that answers in plain HTTP: the handshake fails.
    func testTLSToAPlainHTTPPortFailsTheHandshake() throws {
        let session = try trustingSession()
        let port = try XCTUnwrap(TestServers.shared.nginx.port)
        let response = awaitData(session.request("https://127.0.0.1:\(port)/small"))
        XCTAssertEqual(urlErrorCode(response.error), .secureConnectionFailed, String(describing: response.error))
    }

    /// `validatesCertificates: false` accepts the certificate without its CA.
    func testNotValidatingAcceptsTheUnknownCA() throws {
        let session = testSession(transport: TransportConfiguration(validatesCertificates: false))
        let response = awaitData(session.request(try TestServers.shared.url(.nginxTLS, "/small")).validate())
        XCTAssertNil(response.error)
        XCTAssertEqual(response.data?.count, 100)
    }

    /// A CA bundle that cannot be read fails the request, never falls back to no check.
    func testAMissingCABundleFailsTheRequest() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-no-such-ca-\(UUID().uuidString).pem").path
        let session = testSession(transport: TransportConfiguration(caBundlePath: missing))
        let response = awaitData(session.request(try TestServers.shared.url(.nginxTLS, "/small")))
        XCTAssertEqual(urlErrorCode(response.error), .serverCertificateUntrusted, String(describing: response.error))
        XCTAssertEqual(curlCode(response.error), 77)
    }

    /// A download over TLS lands whole.
    func testADownloadOverTLS() throws {
        let session = try trustingSession()
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-tls-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: target) }
        let download = awaitDownload(session.download(try TestServers.shared.url(.nginxTLS, "/1m.bin"), to: { _, _ in (target, []) }))
        XCTAssertNil(download.error)
        XCTAssertTrue(try Data(contentsOf: target) == Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("1m.bin")))
    }
}
