import Foundation
import XCTest

/// `salvo`'s TLS options against the test nginx, whose certificates come from a CA the
/// system does not trust: `--ca-certificate`, `--check-certificate`, and a client
/// certificate with `--certificate` and `--private-key`.
final class SalvoToolTLSOptionsTests: XCTestCase {
    private var root: URL!
    private var output: URL!

    override func setUpWithError() throws {
        (root, output) = try BulkDownloadFixtures.makeOutputDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func run(_ arguments: [String]) throws -> SalvoToolProcess.Outcome {
        try SalvoToolProcess.run(["-d", output.path] + arguments, environment: SalvoToolEnvironment.make(home: root))
    }

    private func small() throws -> Data { try Data(contentsOf: TestServers.shared.docroot.appendingPathComponent("small")) }

    func testPrivateCAIsTrustedOnlyWithCACertificate() throws {
        let url = try TestServers.shared.url(.nginxTLS, "/small").absoluteString
        let refused = try run([url])
        XCTAssertEqual(refused.status, 1, refused.standardOutput)
        XCTAssertTrue(refused.standardOutput.contains("certificate"), refused.standardOutput)

        let trusted = try run(["--ca-certificate", try TestServers.shared.tlsCABundle, url])
        XCTAssertEqual(trusted.status, 0, trusted.standardOutput + trusted.standardError)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("small")), try small())
    }

    func testCheckCertificateFalseAcceptsAnUntrustedServer() throws {
        let url = try TestServers.shared.url(.nginxTLS, "/small").absoluteString
        let outcome = try run(["--check-certificate=false", url])
        XCTAssertEqual(outcome.status, 0, outcome.standardOutput + outcome.standardError)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("small")), try small())

        let checked = try run(["--check-certificate=true", "-o", "again", url])
        XCTAssertEqual(checked.status, 1, checked.standardOutput)
    }

    func testClientCertificateIsShownToAServerThatRequiresOne() throws {
        let url = try TestServers.shared.url(.nginxClientCertificate, "/small").absoluteString
        let ca = try TestServers.shared.tlsCABundle
        let without = try run(["--ca-certificate", ca, url])
        XCTAssertEqual(without.status, 1, without.standardOutput)
        XCTAssertTrue(without.standardOutput.contains("HTTP 400"), without.standardOutput)

        let client = try TestServers.shared.clientCertificate
        let with = try run(["--ca-certificate", ca, "--certificate", client.certificate, "--private-key", client.key, url])
        XCTAssertEqual(with.status, 0, with.standardOutput + with.standardError)
        XCTAssertEqual(try Data(contentsOf: output.appendingPathComponent("small")), try small())
    }

    func testUnreadableCertificateFileIsAUsageErrorNamingTheOption() throws {
        let missing = root.appendingPathComponent("missing.pem").path
        let url = try TestServers.shared.url(.nginxTLS, "/small").absoluteString
        for option in ["--ca-certificate", "--certificate", "--private-key"] {
            let outcome = try run([option, missing, url])
            XCTAssertEqual(outcome.status, 2, option)
            XCTAssertTrue(outcome.standardError.hasPrefix("salvo: option '\(option)': cannot read \(missing)"), outcome.standardError)
        }
        XCTAssertEqual(BulkDownloadFixtures.listing(output), [])
    }
}
