import Foundation
import SalvoBulk
import XCTest

final class BulkCookieFileTests: XCTestCase {
    private let file = BulkCookieFile(parsing: """
        # Netscape HTTP Cookie File
        .example.org\tTRUE\t/\tFALSE\t0\tsite\tall
        www.example.org\tFALSE\t/docs\tFALSE\t0\tdocs\tyes
        #HttpOnly_www.example.org\tFALSE\t/\tTRUE\t4102444800\tsecure\ttls-only
        www.example.org\tFALSE\t/\tFALSE\t1000\told\texpired
        other.example\tFALSE\t/\tFALSE\t0\tother\tno
        not a cookie line
        www.example.org\tFALSE\t/\tFALSE\t0\tempty

        """)

    func testCookiesGoToTheirDomainPathAndScheme() {
        let now: Int64 = 2_000_000_000
        XCTAssertEqual(file.header(for: URL(string: "https://www.example.org/docs/a.pdf")!, now: now),
                       "docs=yes; site=all; secure=tls-only; empty=")
        XCTAssertEqual(file.header(for: URL(string: "http://www.example.org/docs")!, now: now), "docs=yes; site=all; empty=")
        XCTAssertEqual(file.header(for: URL(string: "http://www.example.org/docsother")!, now: now), "site=all; empty=")
        XCTAssertEqual(file.header(for: URL(string: "http://example.org/")!, now: now), "site=all")
        XCTAssertNil(file.header(for: URL(string: "http://unrelated.example/")!, now: now))
        XCTAssertNil(file.header(for: URL(string: "http://notexample.org/")!, now: now), "a domain matches at a dot only")
    }

    /// A file saved with CRLF line ends (Windows tools write them) reads as the same cookies.
    func testAFileWithCRLFLineEndsGivesTheSameCookies() {
        let crlf = BulkCookieFile(parsing: "# Netscape HTTP Cookie File\r\n.example.org\tTRUE\t/\tFALSE\t0\tsite\tall\r\n"
                                      + "www.example.org\tFALSE\t/docs\tFALSE\t0\tdocs\tyes\r\n")
        XCTAssertEqual(crlf.header(for: URL(string: "http://www.example.org/docs/a")!, now: 0), "docs=yes; site=all")
    }

    func testExpiredCookiesAreNotSent() {
        XCTAssertEqual(file.header(for: URL(string: "http://www.example.org/")!, now: 999), "site=all; old=expired; empty=")
        XCTAssertEqual(file.header(for: URL(string: "http://www.example.org/")!, now: 1000), "site=all; empty=")
    }
}
