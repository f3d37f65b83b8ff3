import Foundation
import XCTest
@testable import Salvo
import SalvoTestSupport

/// Certificates and keys given to the trust evaluators, read with libcrypto: DER or PEM, several
/// PEM blocks in one text, keys taken from certificates, and anything else left out.
final class TrustMaterialTests: XCTestCase {
    private static let material: (certificatePEM: Data, certificateDER: Data, keyPEM: Data, keyDER: Data)? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-trust-material-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let made = OpenSSLCommand.run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                            "-keyout", path("key.pem"), "-out", path("cert.pem"), "-days", "1", "-subj", "/CN=example.test"])
            && OpenSSLCommand.run(["x509", "-in", path("cert.pem"), "-outform", "DER", "-out", path("cert.der")])
            && OpenSSLCommand.run(["pkey", "-in", path("key.pem"), "-pubout", "-out", path("pub.pem")])
            && OpenSSLCommand.run(["pkey", "-in", path("key.pem"), "-pubout", "-outform", "DER", "-out", path("pub.der")])
        guard made, let certificatePEM = FileManager.default.contents(atPath: path("cert.pem")),
              let certificateDER = FileManager.default.contents(atPath: path("cert.der")),
              let keyPEM = FileManager.default.contents(atPath: path("pub.pem")),
              let keyDER = FileManager.default.contents(atPath: path("pub.der")) else { return nil }
        return (certificatePEM, certificateDER, keyPEM, keyDER)
    }()


    private func material() throws -> (certificatePEM: Data, certificateDER: Data, keyPEM: Data, keyDER: Data) {
        try XCTUnwrap(Self.material, "openssl could not make the test material")
    }

    func testCertificatesAreReadFromDERAndFromEveryPEMBlock() throws {
        let material = try material()
        XCTAssertEqual(TrustMaterial.certificates(in: [material.certificateDER]), [material.certificateDER])
        let twoBlocks = material.certificatePEM + Data("\n".utf8) + material.certificatePEM
        XCTAssertEqual(TrustMaterial.certificates(in: [twoBlocks]), [material.certificateDER, material.certificateDER])
        XCTAssertEqual(TrustMaterial.certificates(in: [Data("not a certificate".utf8), material.keyDER]), [])
    }

    func testPublicKeysComeFromKeysAndFromCertificates() throws {
        let material = try material()
        XCTAssertEqual(TrustMaterial.publicKeys(in: [material.keyDER]), [material.keyDER])
        XCTAssertEqual(TrustMaterial.publicKeys(in: [material.keyPEM]), [material.keyDER])
        XCTAssertEqual(TrustMaterial.publicKeys(in: [material.certificatePEM]), [material.keyDER], "a certificate's key is its SubjectPublicKeyInfo")
        XCTAssertEqual(TrustMaterial.publicKeys(in: [material.certificateDER]), [material.keyDER])
        XCTAssertEqual(TrustMaterial.publicKeys(in: [Data([0x30, 0x03, 0x02, 0x01, 0x00])]), [])
    }

    func testWhatLibcurlIsGiven() throws {
        let material = try material()
        let pem = TrustMaterial.pem(of: [material.certificateDER])
        XCTAssertTrue(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        XCTAssertEqual(TrustMaterial.certificates(in: [Data(pem.utf8)]), [material.certificateDER], "the PEM text reads back")
        let pins = TrustMaterial.pins(of: [material.keyDER, material.keyDER]).split(separator: ";")
        XCTAssertEqual(pins.count, 2)
        XCTAssertTrue(pins.allSatisfy { $0.hasPrefix("sha256//") && Data(base64Encoded: String($0.dropFirst(8)))?.count == 32 })
    }

    func testCombinedRequirementsAskForEveryCheckEitherAsksFor() {
        let pinned = ServerTrustRequirements(validatesChain: false, validatesHost: true, pinnedPublicKeys: [Data([1])])
        let revocation = ServerTrustRequirements(validatesChain: true, validatesHost: false, pinnedPublicKeys: [Data([2])],
                                                 requiresStapledOCSPResponse: true, revocationOptions: .ocsp)
        let both = pinned.combined(with: revocation)
        XCTAssertTrue(both.validatesChain && both.validatesHost && both.requiresStapledOCSPResponse)
        XCTAssertEqual(both.pinnedPublicKeys, [Data([1]), Data([2])])
        XCTAssertNil(both.anchorCertificates)
        XCTAssertEqual(both.revocationOptions, .ocsp)
    }
}
