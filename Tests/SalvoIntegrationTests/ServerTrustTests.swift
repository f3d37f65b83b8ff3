import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTestSupport

/// `ServerTrustManager` and its evaluators against the harness's nginx TLS port, whose
/// certificate (EC P-256, for the IP 127.0.0.1) a CA made for the run signed; the system
/// trusts neither. A second, unrelated certificate and key are made per test class with the
/// openssl command.
final class ServerTrustTests: XCTestCase {
    private static let host = "127.0.0.1"

    private var caPEM: Data { get throws { try Data(contentsOf: URL(fileURLWithPath: try TestServers.shared.tlsCABundle)) } }

    private var serverPEM: Data {
        get throws {
            let ca = URL(fileURLWithPath: try TestServers.shared.tlsCABundle)
            return try Data(contentsOf: ca.deletingLastPathComponent().appendingPathComponent("server.pem"))
        }
    }

    /// A self-signed certificate and its public key that have nothing to do with the server.
    private static let stranger: (certificate: Data, publicKey: Data)? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-trust-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem").path
        let certificate = directory.appendingPathComponent("cert.pem").path
        let publicKey = directory.appendingPathComponent("pub.pem").path
        let made = OpenSSLCommand.run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                        "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1"])
            && OpenSSLCommand.run(["pkey", "-in", key, "-pubout", "-out", publicKey])
        guard made, let cert = FileManager.default.contents(atPath: certificate),
              let pub = FileManager.default.contents(atPath: publicKey) else { return nil }
        return (cert, pub)
    }()


    private func strangerMaterial() throws -> (certificate: Data, publicKey: Data) {
        try XCTUnwrap(Self.stranger, "openssl could not make the unrelated certificate")
    }

    private func session(trustingCA: Bool, _ manager: ServerTrustManager) throws -> Session {
        let transport = TransportConfiguration(caBundlePath: trustingCA ? try TestServers.shared.tlsCABundle : nil)
        return Session(transport: transport, serverTrustManager: manager, responseQueue: DispatchQueue(label: "test.trust.responses"))
    }

    private func fetch(_ session: Session, host: String = host, path: String = "/small") throws -> AFDataResponse<Data> {
        var components = URLComponents(url: try TestServers.shared.url(.nginxTLS, path), resolvingAgainstBaseURL: false)!
        components.host = host
        return awaitData(session.request(components.url!).validate())
    }

    private func reason(_ error: AFError?) -> AFError.ServerTrustFailureReason? {
        if case let .serverTrustEvaluationFailed(reason)? = error { return reason }
        return nil
    }

    // MARK: Evaluators that trust the server

    func testTheDefaultEvaluatorTrustsAChainToTheSessionsCABundle() throws {
        let response = try fetch(try session(trustingCA: true, ServerTrustManager(evaluators: [Self.host: DefaultTrustEvaluator()])))
        XCTAssertNil(response.error)
        XCTAssertEqual(response.data?.count, 100)
    }

    func testPinnedServerOrCACertificatesAreTheOnlyAnchors() throws {
        for pinned in [try serverPEM, try caPEM] {
            let evaluator = PinnedCertificatesTrustEvaluator(certificates: [pinned])
            let response = try fetch(try session(trustingCA: false, ServerTrustManager(evaluators: [Self.host: evaluator])))
            XCTAssertNil(response.error, "pinning \(String(decoding: pinned.prefix(40), as: UTF8.self))")
            XCTAssertEqual(response.data?.count, 100)
        }
    }

    func testThePinnedKeyOfTheServersCertificateIsAccepted() throws {
        let evaluator = PublicKeysTrustEvaluator(keys: [try serverPEM])
        XCTAssertEqual(evaluator.keys.count, 1, "the certificate's key is pinned")
        let response = try fetch(try session(trustingCA: true, ServerTrustManager(evaluators: [Self.host: evaluator])))
        XCTAssertNil(response.error)
    }

    func testTheDisabledEvaluatorAcceptsAServerNoOneTrusts() throws {
        let response = try fetch(try session(trustingCA: false, ServerTrustManager(evaluators: [Self.host: DisabledTrustEvaluator()])))
        XCTAssertNil(response.error)
        XCTAssertEqual(response.data?.count, 100)
    }

    // MARK: Evaluators that refuse it

    func testAnUntrustedChainFailsDefaultEvaluation() throws {
        let response = try fetch(try session(trustingCA: false, ServerTrustManager(evaluators: [Self.host: DefaultTrustEvaluator()])))
        guard case let .defaultEvaluationFailed(output)? = reason(response.error) else {
            return XCTFail("expected defaultEvaluationFailed, got \(String(describing: response.error))")
        }
        XCTAssertEqual(output.host, Self.host)
        XCTAssertEqual((response.error?.underlyingError as? URLError)?.code, .serverCertificateUntrusted)
    }

    func testACertificatePinnedThatTheChainLacksFails() throws {
        let evaluator = PinnedCertificatesTrustEvaluator(certificates: [try strangerMaterial().certificate])
        let response = try fetch(try session(trustingCA: true, ServerTrustManager(evaluators: [Self.host: evaluator])))
        guard case let .certificatePinningFailed(host, pinned)? = reason(response.error) else {
            return XCTFail("expected certificatePinningFailed, got \(String(describing: response.error))")
        }
        XCTAssertEqual(host, Self.host)
        XCTAssertEqual(pinned.count, 1)
    }

    func testAKeyPinnedThatTheServerLacksFails() throws {
        let evaluator = PublicKeysTrustEvaluator(keys: [try strangerMaterial().publicKey])
        let response = try fetch(try session(trustingCA: true, ServerTrustManager(evaluators: [Self.host: evaluator])))
        guard case let .publicKeyPinningFailed(host, keys)? = reason(response.error) else {
            return XCTFail("expected publicKeyPinningFailed, got \(String(describing: response.error))")
        }
        XCTAssertEqual(host, Self.host)
        XCTAssertEqual(keys.count, 1)
    }

    func testACertificateForAnotherNameFailsHostValidationUnlessItIsOff() throws {
        // The certificate names the IP 127.0.0.1, not "localhost".
        let strict = ServerTrustManager(evaluators: ["localhost": DefaultTrustEvaluator()])
        let refused = try fetch(try session(trustingCA: true, strict), host: "localhost")
        guard case let .hostValidationFailed(output)? = reason(refused.error) else {
            return XCTFail("expected hostValidationFailed, got \(String(describing: refused.error))")
        }
        XCTAssertEqual(output.host, "localhost")

        let lenient = ServerTrustManager(evaluators: ["localhost": DefaultTrustEvaluator(validateHost: false)])
        XCTAssertNil(try fetch(try session(trustingCA: true, lenient), host: "localhost").error)
    }

    func testHostsAreLookedUpIgnoringCaseAndAFinalDot() throws {
        let manager = ServerTrustManager(evaluators: ["LocalHost.": DefaultTrustEvaluator(validateHost: false)])
        XCTAssertNil(try fetch(try session(trustingCA: true, manager), host: "localhost").error)
    }

    func testPinnedKeysWithoutDefaultValidationStillCheckTheHost() throws {
        let evaluator = PublicKeysTrustEvaluator(keys: [try serverPEM], performDefaultValidation: false)
        XCTAssertNil(try fetch(try session(trustingCA: false, ServerTrustManager(evaluators: [Self.host: evaluator]))).error)
        let wrongName = try fetch(try session(trustingCA: false, ServerTrustManager(evaluators: ["localhost": evaluator])), host: "localhost")
        guard case .hostValidationFailed? = reason(wrongName.error) else {
            return XCTFail("expected hostValidationFailed, got \(String(describing: wrongName.error))")
        }
    }

    func testARevocationCheckFailsWithoutAStapledResponse() throws {
        let evaluator = RevocationTrustEvaluator(options: [.ocsp, .requirePositiveResponse])
        let response = try fetch(try session(trustingCA: true, ServerTrustManager(evaluators: [Self.host: evaluator])))
        guard case let .revocationCheckFailed(output, options)? = reason(response.error) else {
            return XCTFail("expected revocationCheckFailed, got \(String(describing: response.error))")
        }
        XCTAssertEqual(output.host, Self.host)
        XCTAssertEqual(options, [.ocsp, .requirePositiveResponse])
    }

    // MARK: The manager

    func testAHostWithoutAnEvaluatorFailsBeforeAnythingIsSentUnlessNotRequired() throws {
        let strict = ServerTrustManager(evaluators: ["api.example.com": DefaultTrustEvaluator()])
        let refused = try fetch(try session(trustingCA: true, strict))
        guard case let .noRequiredEvaluator(host)? = reason(refused.error) else {
            return XCTFail("expected noRequiredEvaluator, got \(String(describing: refused.error))")
        }
        XCTAssertEqual(host, Self.host)
        XCTAssertNil(refused.metrics, "nothing was sent")

        let lenient = ServerTrustManager(allHostsMustBeEvaluated: false, evaluators: ["api.example.com": DefaultTrustEvaluator()])
        XCTAssertNil(try fetch(try session(trustingCA: true, lenient)).error)
    }

    func testPlainHTTPIsNotEvaluated() throws {
        let session = try session(trustingCA: false, ServerTrustManager(evaluators: [:]))
        let response = awaitData(session.request(try TestServers.shared.url(.nginx, "/small")).validate())
        XCTAssertNil(response.error)
    }

    func testAnEvaluatorWithNothingUsableFailsTheRequest() throws {
        let garbage = Data("not a certificate".utf8)
        let certificates = try session(trustingCA: true, ServerTrustManager(evaluators: [Self.host: PinnedCertificatesTrustEvaluator(certificates: [garbage])]))
        guard case .noCertificatesFound? = reason(try fetch(certificates).error) else { return XCTFail("expected noCertificatesFound") }
        let keys = try session(trustingCA: true, ServerTrustManager(evaluators: [Self.host: PublicKeysTrustEvaluator(keys: [garbage])]))
        guard case .noPublicKeysFound? = reason(try fetch(keys).error) else { return XCTFail("expected noPublicKeysFound") }
    }

    /// A connection that passed lenient checks is not reused by a request that asks for more:
    /// libcurl matches TLS settings before it reuses a connection, so a pin is never skipped.
    func testAStricterRequestDoesNotReuseALenientlyCheckedConnection() throws {
        let manager = SwitchingTrustManager(pinning: try strangerMaterial().publicKey)
        let session = try session(trustingCA: true, manager)
        XCTAssertNil(try fetch(session).error, "the lenient request")
        manager.strict.withLock { $0 = true }
        guard case .publicKeyPinningFailed? = reason(try fetch(session).error) else {
            return XCTFail("the pinned request must not ride the lenient connection")
        }
    }
}

/// Default checks until `strict` is set, then a pin the server does not match.
private final class SwitchingTrustManager: ServerTrustManager, @unchecked Sendable { // `strict` is a Mutex; the rest are `let`s
    let strict = Mutex(false)
    private let pinned: PublicKeysTrustEvaluator

    init(pinning key: Data) {
        pinned = PublicKeysTrustEvaluator(keys: [key])
        super.init(evaluators: [:])
    }

    override func serverTrustEvaluator(forHost host: String) throws -> (any ServerTrustEvaluating)? {
        strict.withLock { $0 } ? pinned : DefaultTrustEvaluator()
    }
}
