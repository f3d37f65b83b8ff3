import Salvo
import SalvoBulk
import XCTest

final class BulkChecksumTests: XCTestCase {
    func testEachTypeParsesWithItsLengthAndNormalisesToLowercase() throws {
        let sha256 = try BulkChecksum(parsing: "sha-256=9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08")
        XCTAssertEqual(sha256.algorithm, .sha256)
        XCTAssertEqual(sha256.hexDigest, "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
        XCTAssertEqual(sha256.description, "sha-256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")

        let sha1 = try BulkChecksum(parsing: "SHA-1=A94A8FE5CCB19BA61C4C0873D391E987982FBBD3")
        XCTAssertEqual(sha1.algorithm, .sha1)
        XCTAssertEqual(sha1.hexDigest, "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3")

        let md5 = try BulkChecksum(parsing: "md5=098f6bcd4621d373cade4e832627b4f6")
        XCTAssertEqual(md5.algorithm, .md5)
        XCTAssertEqual(md5, try BulkChecksum(parsing: "MD5=098F6BCD4621D373CADE4E832627B4F6"))
        XCTAssertEqual(BulkChecksum.Algorithm.allCases.map(\.hexLength), [64, 40, 32])
    }

    func testMalformedChecksumsAreRefusedWithTheirReason() {
        let cases: [(String, String)] = [
            ("098f6bcd4621d373cade4e832627b4f6", "checksum '098f6bcd4621d373cade4e832627b4f6' is not TYPE=HEX (sha-256, sha-1 or md5)"),
            ("sha256=00", "checksum type 'sha256' is not supported (sha-256, sha-1 or md5)"),
            ("sha-512=00", "checksum type 'sha-512' is not supported (sha-256, sha-1 or md5)"),
            ("md5=098f6bcd4621d373cade4e832627b4f", "md5 checksum needs 32 hexadecimal digits, not 31"),
            ("sha-1=098f6bcd4621d373cade4e832627b4f6", "sha-1 checksum needs 40 hexadecimal digits, not 32"),
            ("md5=098f6bcd4621d373cade4e832627b4fz", "checksum 'md5=098f6bcd4621d373cade4e832627b4fz' has a digest that is not hexadecimal"),
            ("md5= 098f6bcd4621d373cade4e832627b4f", "checksum 'md5= 098f6bcd4621d373cade4e832627b4f' has a digest that is not hexadecimal"),
            ("md5=", "md5 checksum needs 32 hexadecimal digits, not 0"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try BulkChecksum(parsing: text), text) { error in
                XCTAssertEqual(error as? BulkValueError, BulkValueError(message), text)
            }
        }
    }
}
